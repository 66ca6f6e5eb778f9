//! One resource type under two spellings: the impls for it conflict, at the second field's type.
use sparse_groups::{Resource, world};

#[derive(Default)]
struct Score(u64);

#[world]
struct Scene {
    score: Resource<Score>,
    best: Resource<crate::Score>,
}

fn main() {}
