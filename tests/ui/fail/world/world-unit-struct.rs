use sparse_groups::world;

#[world]
struct Scene;

fn main() {}
