//! A component type is the user's tokens, and may hold a const block or a macro call:
//! expanded inside the world's expansion, such tokens could name the world's key there.
//! The expansion names component types through aliases declared next to the struct,
//! where the key is out of scope like everywhere else in the user's module.
use sparse_groups::{Component, Storage, world};

pub struct C<const N: usize>;
impl<const N: usize> Component for C<N> {}

#[world]
struct Scene {
    c: Storage<C<{
        let _key = &__sparse::KEY;
        0
    }>>,
}

fn main() {}
