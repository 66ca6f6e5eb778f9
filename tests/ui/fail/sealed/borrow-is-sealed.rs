//! Hole 2 of the soundness issue: a hand-made `Borrow` took a world's storage mutably out
//! of its parts. `Borrow` is sealed.
use sparse_groups::__private::{AccessError, WorldParts};
use sparse_groups::{Borrow, Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

struct Evil;

impl<'w> Borrow<'w, Scene> for Evil {
    type Writes = ();
    type Reads = ();

    fn take(_: &mut <Scene as WorldParts>::Parts<'w>) -> Result<Self, AccessError> {
        Ok(Evil)
    }
}

fn main() {}
