use sparse_groups::{Changed, Component, Storage, world};

#[derive(Component)]
struct Health(i32);

// `Changed` needs change detection on the type's storage: `#[track(Health)]`.
#[world]
struct Game {
    healths: Storage<Health>,
}

fn main() {
    let mut game = Game::new();
    for (_, _health) in game.view::<(&Health, Changed<Health>)>() {}
}
