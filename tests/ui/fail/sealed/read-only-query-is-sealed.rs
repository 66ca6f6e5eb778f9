//! Hole 5 of the soundness issue: `ReadOnlyQuery` could be implemented for `&mut A` (the
//! orphan rule allows it), so `view_ref::<&mut A>()` compiled and only a run-time check
//! stopped it. `ReadOnlyQuery` is sealed: read-only access is checked at compile time.
use sparse_groups::{Component, Query, ReadOnlyQuery, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

impl ReadOnlyQuery for &mut A {
    fn copy<'w>(_: &Self::Fetch<'w>) -> Self::Fetch<'w> {
        unimplemented!()
    }
}

fn main() {
    let scene = Scene::new();
    for _ in scene.view_ref::<&mut A>() {}
    let _ = <&mut A as Query>::LEAVES;
}
