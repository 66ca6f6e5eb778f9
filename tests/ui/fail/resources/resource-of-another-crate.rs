//! A resource field's type is this crate's `Resource<R>`, not another type of that name.
use sparse_groups::world;

#[derive(Default)]
pub struct Resource<T>(T);

#[derive(Default)]
struct Score(u64);

#[world]
struct Scene {
    score: Resource<Score>,
}

fn main() {}
