//! A world holds one resource of each type.
use sparse_groups::{Resource, world};

#[derive(Default)]
struct Score(u64);

#[world]
struct Scene {
    score: Resource<Score>,
    best: Resource<Score>,
}

fn main() {}
