//! A view takes its storages from the world's parts as its query declares them: a
//! hand-made `QueryOf` could take a storage the world does not lend to that query.
//! `QueryOf` is sealed.
use sparse_groups::__private::{QueryOf, WorldParts};
use sparse_groups::{AccessError, Component, Query, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

impl QueryOf<Scene> for &mut B {
    fn prepare(_: &mut Scene) {}

    fn take<'w>(
        _: &mut <Scene as WorldParts>::Parts<'w>,
    ) -> Result<<Self as Query>::Fetch<'w>, AccessError> {
        unimplemented!()
    }
}

fn main() {}
