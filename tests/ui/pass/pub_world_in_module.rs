//! A public world declared in a module and used from outside it.

mod game {
    use sparse_groups::{Component, Storage, world};

    #[derive(Component, Debug, PartialEq)]
    pub struct Position(pub i32);
    #[derive(Component, Debug, PartialEq)]
    pub struct Velocity(pub i32);

    #[world]
    #[group(Position, Velocity)]
    pub struct Scene {
        pub positions: Storage<Position>,
        pub velocities: Storage<Velocity>,
    }
}

use game::{Position, Scene, Velocity};

pub fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    scene.insert(e, Position(1)).unwrap();
    scene.insert(e, Velocity(2)).unwrap();
    assert_eq!(scene.group_len::<(Position, Velocity)>(), 1);
    scene
        .group::<(Position, Velocity)>()
        .for_each(|_, (p, v)| p.0 += v.0);
    assert_eq!(scene.get::<Position>(e), Some(&Position(3)));
    assert_eq!(scene.positions().len(), 1);
    assert_eq!(scene.velocities().get(e), Some(&Velocity(2)));
    assert_eq!(scene.remove::<Velocity>(e), Some(Velocity(2)));
    assert_eq!(scene.group_len::<(Position, Velocity)>(), 0);
    scene.check().unwrap();
    let _default = Scene::default();
}
