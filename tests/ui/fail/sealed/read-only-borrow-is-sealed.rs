//! `ReadOnly` marks the parts `borrow_ref` may lend through `&self`: a hand-made one could
//! claim that a part which writes only reads. It is sealed.
use sparse_groups::{Component, GroupMut, ReadOnly};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

struct Sneaky<'w>(GroupMut<'w, (A, B)>);

impl ReadOnly for Sneaky<'_> {}

fn main() {}
