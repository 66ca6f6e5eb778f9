//! Differential test: one random operation sequence applied to a `#[world]` world and to
//! the runtime `World` with the same layout must give the same group slices and values
//! after every step, with every invariant holding in both.

use proptest::prelude::*;
use sparse_groups::{Component, Entity, GroupSpec, Storage, World, world};

trait Value {
    fn new(value: u32) -> Self;
}

macro_rules! components {
    ($($name:ident),*) => {$(
        #[derive(Component, Debug, Clone, Copy, PartialEq)]
        struct $name(u32);
        impl Value for $name {
            fn new(value: u32) -> Self {
                $name(value)
            }
        }
    )*};
}
components!(A, B, C, D, E, F, G);

#[world]
#[group(A, B, C, D)]
#[group(E, F)]
#[group(A, B)]
#[group(A, B, C)]
struct Static {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
    e: Storage<E>,
    f: Storage<F>,
    g: Storage<G>,
}

fn dynamic() -> World {
    World::with_groups([
        GroupSpec::of::<(A, B, C)>(),
        GroupSpec::of::<(E, F)>(),
        GroupSpec::of::<(A, B, C, D)>(),
        GroupSpec::of::<(A, B)>(),
    ])
    .expect("valid layout")
}

#[derive(Debug, Clone)]
enum Op {
    Spawn,
    Insert(u8, usize, u32),
    Remove(u8, usize),
    Destroy(usize),
    SortGroup(u8, bool),
    Bump(u8),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Spawn),
        8 => (0u8..7, any::<usize>(), 0u32..1000).prop_map(|(t, e, v)| Op::Insert(t, e, v)),
        5 => (0u8..7, any::<usize>()).prop_map(|(t, e)| Op::Remove(t, e)),
        1 => any::<usize>().prop_map(Op::Destroy),
        1 => (0u8..4, any::<bool>()).prop_map(|(g, d)| Op::SortGroup(g, d)),
        1 => (0u8..4).prop_map(Op::Bump),
    ]
}

/// Applies the same call to both worlds, with `$t` the component type.
macro_rules! both {
    ($s:expr, $d:expr, |$w:ident| $body:expr) => {{
        let r1 = {
            let $w = &mut *$s;
            $body
        };
        let r2 = {
            let $w = &mut *$d;
            $body
        };
        prop_assert_eq!(r1, r2);
    }};
}

macro_rules! by_type {
    ($t:expr, $T:ident => $body:expr) => {
        match $t {
            0 => {
                type $T = A;
                $body
            }
            1 => {
                type $T = B;
                $body
            }
            2 => {
                type $T = C;
                $body
            }
            3 => {
                type $T = D;
                $body
            }
            4 => {
                type $T = E;
                $body
            }
            5 => {
                type $T = F;
                $body
            }
            _ => {
                type $T = G;
                $body
            }
        }
    };
}

fn group_state_static(w: &mut Static) -> Vec<(Vec<Entity>, Vec<u32>)> {
    let mut out = Vec::new();
    let (e, (a, b)) = w.group::<(A, B)>().into_slices();
    out.push((
        e.to_vec(),
        a.iter()
            .zip(b.iter())
            .flat_map(|(a, b)| [a.0, b.0])
            .collect(),
    ));
    let (e, (a, b, c)) = w.group::<(A, B, C)>().into_slices();
    out.push((
        e.to_vec(),
        a.iter()
            .zip(b.iter())
            .zip(c.iter())
            .flat_map(|((a, b), c)| [a.0, b.0, c.0])
            .collect(),
    ));
    let (e, (a, b, c, d)) = w.group::<(A, B, C, D)>().into_slices();
    out.push((
        e.to_vec(),
        a.iter()
            .zip(b)
            .zip(c)
            .zip(d.iter())
            .flat_map(|(((a, b), c), d)| [a.0, b.0, c.0, d.0])
            .collect(),
    ));
    let (e, (x, y)) = w.group::<(E, F)>().into_slices();
    out.push((
        e.to_vec(),
        x.iter()
            .zip(y.iter())
            .flat_map(|(x, y)| [x.0, y.0])
            .collect(),
    ));
    out
}

fn group_state_dynamic(w: &mut World) -> Vec<(Vec<Entity>, Vec<u32>)> {
    let mut out = Vec::new();
    let (e, (a, b)) = w.group::<(A, B)>().unwrap().into_slices();
    out.push((
        e.to_vec(),
        a.iter()
            .zip(b.iter())
            .flat_map(|(a, b)| [a.0, b.0])
            .collect(),
    ));
    let (e, (a, b, c)) = w.group::<(A, B, C)>().unwrap().into_slices();
    out.push((
        e.to_vec(),
        a.iter()
            .zip(b.iter())
            .zip(c.iter())
            .flat_map(|((a, b), c)| [a.0, b.0, c.0])
            .collect(),
    ));
    let (e, (a, b, c, d)) = w.group::<(A, B, C, D)>().unwrap().into_slices();
    out.push((
        e.to_vec(),
        a.iter()
            .zip(b)
            .zip(c)
            .zip(d.iter())
            .flat_map(|(((a, b), c), d)| [a.0, b.0, c.0, d.0])
            .collect(),
    ));
    let (e, (x, y)) = w.group::<(E, F)>().unwrap().into_slices();
    out.push((
        e.to_vec(),
        x.iter()
            .zip(y.iter())
            .flat_map(|(x, y)| [x.0, y.0])
            .collect(),
    ));
    out
}

fn sort_both(s: &mut Static, d: &mut World, group: u8, descending: bool) {
    let order = |x: u32, y: u32| if descending { y.cmp(&x) } else { x.cmp(&y) };
    match group {
        0 => {
            s.sort_group::<(A, B)>(|(a, _), (b, _)| order(a.0, b.0));
            d.sort_group::<(A, B)>(|(a, _), (b, _)| order(a.0, b.0))
                .unwrap();
        }
        1 => {
            s.sort_group::<(A, B, C)>(|(_, _, a), (_, _, b)| order(a.0, b.0));
            d.sort_group::<(A, B, C)>(|(_, _, a), (_, _, b)| order(a.0, b.0))
                .unwrap();
        }
        2 => {
            s.sort_group::<(A, B, C, D)>(|(.., a), (.., b)| order(a.0, b.0));
            d.sort_group::<(A, B, C, D)>(|(.., a), (.., b)| order(a.0, b.0))
                .unwrap();
        }
        _ => {
            s.sort_group::<(E, F)>(|(_, a), (_, b)| order(a.0, b.0));
            d.sort_group::<(E, F)>(|(_, a), (_, b)| order(a.0, b.0))
                .unwrap();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn static_and_runtime_worlds_agree(ops in prop::collection::vec(op(), 500..1500)) {
        let (mut s, mut d) = (Static::new(), dynamic());
        let mut entities: Vec<Entity> = Vec::new();
        for op in ops {
            match op {
                Op::Spawn => {
                    let (x, y) = (s.spawn(), d.spawn());
                    prop_assert_eq!(x, y);
                    entities.push(x);
                }
                Op::Insert(t, i, v) if !entities.is_empty() => {
                    let e = entities[i % entities.len()];
                    by_type!(t, T => both!(&mut s, &mut d, |w| w.insert(e, T::new(v)).map(|o| o.map(|c| c.0))));
                }
                Op::Remove(t, i) if !entities.is_empty() => {
                    let e = entities[i % entities.len()];
                    by_type!(t, T => both!(&mut s, &mut d, |w| w.remove::<T>(e).map(|c| c.0)));
                }
                Op::Destroy(i) if !entities.is_empty() => {
                    // Stale handles stay in `entities` on purpose: later ops must refuse them.
                    let e = entities[i % entities.len()];
                    both!(&mut s, &mut d, |w| w.destroy(e));
                }
                Op::SortGroup(g, descending) => sort_both(&mut s, &mut d, g, descending),
                Op::Bump(g) => {
                    let bump = |a: &mut A| a.0 = a.0.wrapping_mul(31).wrapping_add(7) % 1000;
                    match g {
                        0 => {
                            s.group::<(A, B)>().for_each(|_, (a, _)| bump(a));
                            d.group::<(A, B)>().unwrap().for_each(|_, (a, _)| bump(a));
                        }
                        1 => {
                            s.view::<(A, G)>().for_each(|_, (a, _)| bump(a));
                            d.view::<(A, G)>().for_each(|_, (a, _)| bump(a));
                        }
                        _ => {
                            s.components_mut::<A>().1.iter_mut().for_each(bump);
                            d.components_mut::<A>().1.iter_mut().for_each(bump);
                        }
                    }
                }
                _ => {}
            }
            s.check().map_err(TestCaseError::fail)?;
            d.check().map_err(TestCaseError::fail)?;
            prop_assert_eq!(group_state_static(&mut s), group_state_dynamic(&mut d));
            for &e in &entities {
                prop_assert_eq!(s.is_alive(e), d.is_alive(e));
                prop_assert_eq!(s.get::<A>(e), d.get::<A>(e));
                prop_assert_eq!(s.get::<D>(e), d.get::<D>(e));
                prop_assert_eq!(s.get::<G>(e), d.get::<G>(e));
            }
        }
    }
}
