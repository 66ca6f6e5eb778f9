//! Non-owning groups keep their members in a set of their own: any number of them may
//! observe the same types, also types other groups own.

use sparse_groups::{Component, Exclude, Get, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct Health(u32);
#[derive(Component, Debug, PartialEq)]
struct Poisoned;
#[derive(Component, Debug, PartialEq)]
struct Armor(u32);
#[derive(Component, Debug, PartialEq)]
struct Dead;

#[world]
#[group(Health, Armor)]
#[group(get(Health, Poisoned))]
#[group(get(Health), exclude(Dead))]
#[group(get(Armor, Health))]
struct Scene {
    healths: Storage<Health>,
    poisoned: Storage<Poisoned>,
    armors: Storage<Armor>,
    dead: Storage<Dead>,
}

pub fn main() {
    let mut scene = Scene::new();
    let a = scene.spawn_with((Health(10), Poisoned));
    let b = scene.spawn_with((Health(20), Armor(3)));
    let c = scene.spawn_with((Health(0), Dead));
    assert_eq!(scene.group::<Get<(Health, Poisoned)>>().entities(), &[a]);
    assert_eq!(
        scene.group::<(Get<Health>, Exclude<Dead>)>().entities(),
        &[a, b]
    );
    assert_eq!(scene.group::<Get<(Armor, Health)>>().entities(), &[b]);
    scene
        .group::<(Get<Health>, Exclude<Dead>)>()
        .for_each(|_, h| h.0 += 1);
    scene.sort_group::<(Get<Health>, Exclude<Dead>)>(|x, y| y.0.cmp(&x.0));
    assert_eq!(
        scene.group::<(Get<Health>, Exclude<Dead>)>().entities(),
        &[b, a]
    );
    scene.destroy(a).unwrap();
    scene.remove::<Dead>(c);
    assert_eq!(
        scene.group::<(Get<Health>, Exclude<Dead>)>().entities(),
        &[b, c]
    );
    scene.check().unwrap();
}
