//! A snapshot does not hold resources yet: a world with resources cannot derive serde's traits.
use serde::{Deserialize, Serialize};
use sparse_groups::{Component, Resource, Storage, world};

#[derive(Component, Serialize, Deserialize)]
struct Position(f32);

#[derive(Default, Serialize, Deserialize)]
struct Score(u64);

#[world]
#[derive(Serialize, Deserialize)]
struct Scene {
    positions: Storage<Position>,
    score: Resource<Score>,
}

fn main() {}
