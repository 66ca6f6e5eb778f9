//! A system written once for both worlds that queues a command names `W: Stores<T>`;
//! without it, rustc suggests that public bound.
use sparse_groups::prelude::*;

#[derive(Component)]
struct Health(i32);
#[derive(Component)]
struct Dead;

fn reap<W: Stores<Health>>(healths: &Storage<Health>, commands: &mut Commands<W>) {
    for (e, h) in healths.iter() {
        if h.0 <= 0 {
            commands.insert(e, Dead);
        }
    }
}

#[world]
struct Scene {
    healths: Storage<Health>,
    dead: Storage<Dead>,
}

fn main() {
    Schedule::new((reap,)).run(&mut Scene::new());
}
