use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Name(String);
#[derive(Component)]
struct Depth(u32);

#[world]
#[group(Name, Depth)]
struct Scene {
    names: Storage<Name>,
    depths: Storage<Depth>,
}

fn main() {
    let mut scene = Scene::new();
    // A string is ordered, but not by a radix sort: `sort_group_by_key` takes it.
    scene.sort_group_by_radix_key::<(Name, Depth), _>(|(name, _)| name.0.clone());
}
