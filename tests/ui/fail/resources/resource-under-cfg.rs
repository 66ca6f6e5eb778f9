//! A resource field is declared in every configuration.
use sparse_groups::{Resource, world};

#[derive(Default)]
struct Score(u64);

#[world]
struct Scene {
    #[cfg(any())]
    score: Resource<Score>,
}

fn main() {}
