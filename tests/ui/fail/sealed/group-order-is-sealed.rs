//! A hand-made group order could hand back positions that are not a permutation of the
//! layer it sorts. `GroupOrder` is sealed.
use sparse_groups::__private::GroupOrder;
use sparse_groups::{Component, Entity, GroupKey};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

struct Reversed;

impl GroupOrder<(A, B)> for Reversed {
    fn sort_layer<'s>(
        &mut self,
        positions: &mut [u32],
        _item: impl FnMut(u32) -> <(A, B) as GroupKey>::Item<'s>,
        _entity: impl Fn(u32) -> Entity,
    ) {
        positions.reverse();
    }
}

fn main() {}
