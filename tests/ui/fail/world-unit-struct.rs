use sparse::world;

#[world]
struct Scene;

fn main() {}
