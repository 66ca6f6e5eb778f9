//! A world finds its groups by their keys: a hand-made `GroupKey` could name one group's
//! storages in another order than the group packs them. `GroupKey` is sealed.
use sparse_groups::{Component, GroupKey};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

struct Backwards;

impl GroupKey for Backwards {
    type Owned = (B, A);
    type Observed = ();
    type Excluded = ();
    type ItemMut<'a> = (&'a mut B, &'a mut A);
    type Item<'a> = (&'a B, &'a A);
    fn item_mut<'a: 'c, 'b: 'c, 'c>(
        owned: (&'a mut B, &'a mut A),
        (): (),
    ) -> (&'c mut B, &'c mut A) {
        owned
    }
    fn item<'a>(owned: (&'a B, &'a A), (): ()) -> (&'a B, &'a A)
    where
        'a: 'a,
    {
        owned
    }
}

fn main() {}
