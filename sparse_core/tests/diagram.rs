//! The layout diagram of a run-time world: drawn while small, a table when large.

use sparse_core::{Component, Get, GroupSpec, World};

struct A;
struct B;
struct C;
struct H;
impl Component for A {}
impl Component for B {}
impl Component for C {}
impl Component for H {}

fn world() -> World {
    World::with_groups([
        GroupSpec::of::<(A, B)>(),
        GroupSpec::of::<(A, B, C)>(),
        GroupSpec::of::<Get<H>>(),
    ])
    .unwrap()
}

#[test]
fn a_small_world_is_drawn_with_one_marker_per_group() {
    let mut w = world();
    let e: Vec<_> = (0..4).map(|_| w.spawn()).collect();
    for &x in &e {
        w.insert(x, A).unwrap();
    }
    w.insert(e[2], B).unwrap();
    w.insert(e[3], B).unwrap();
    w.insert(e[3], C).unwrap();
    w.insert(e[1], H).unwrap();
    w.destroy(e[0]).unwrap();
    let drawn = w.diagram().to_string();
    let expected = "\
entities: 3 alive, indices 0..4, 1 dead
A      [e3|e2|e1]
       ___^       <A, B, C>: 1
       ______^    <A, B>: 2
B      [e3|e2]
       ___^       <A, B, C>: 1
       ______^    <A, B>: 2
C      [e3]
       ___^       <A, B, C>: 1
H      [e1]
get(H) [e1]       members of <get(H)>: 1
";
    // The run-time world names storages by type; the test's module path is stripped.
    assert_eq!(drawn, expected, "\n{drawn}");
    assert!(!w.diagram().is_table());
}

#[test]
fn a_large_world_is_a_table_of_lengths() {
    let mut w = world();
    for i in 0..40 {
        let e = w.spawn();
        w.insert(e, A).unwrap();
        if i % 2 == 0 {
            w.insert(e, B).unwrap();
        }
        if i % 4 == 0 {
            w.insert(e, C).unwrap();
        }
    }
    let layout = w.diagram();
    assert!(layout.is_table());
    let table = layout.to_string();
    assert!(
        table.contains("A      40 | <A, B>: 20, <A, B, C>: 10"),
        "{table}"
    );
    assert!(table.contains("H       0 | no group"), "{table}");
    assert!(
        table.contains("get(H)  0 | members of <get(H)>: 0"),
        "{table}"
    );
}
