//! A view takes the entity sets of its filter from the world's parts as the filter
//! declares them: a hand-made `FilterOf` could take a set the world does not lend to it.
//! `FilterOf` is sealed.
use sparse_groups::__private::{FilterOf, WorldParts};
use sparse_groups::{AccessError, Component, Filter, Storage, With, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

impl FilterOf<Scene> for With<B> {
    fn prepare(_: &mut Scene) {}

    fn take<'w>(
        _: &mut <Scene as WorldParts>::Parts<'w>,
    ) -> Result<<Self as Filter>::Fetch<'w>, AccessError> {
        unimplemented!()
    }
}

fn main() {}
