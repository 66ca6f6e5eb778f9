//! A resource is declared as `Resource<R>`, not stored as a component.
use sparse_groups::{Resource, Storage, world};

#[derive(Default)]
struct Score(u64);

#[world]
struct Scene {
    scores: Storage<Resource<Score>>,
}

fn main() {}
