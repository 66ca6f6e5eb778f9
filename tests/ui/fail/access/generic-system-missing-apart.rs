//! A system generic over its world borrows `Health` mutably and `Position` shared: only a
//! concrete world can prove the two types differ, so the system needs the bound
//! `Apart<Health, Position>` (and the error says so, not that a type is borrowed twice).
use sparse_groups::{Access, Component, HasComponent};

#[derive(Component)]
struct Health(i32);
#[derive(Component)]
struct Position(f32);

fn heal<W>(world: &mut W)
where
    W: Access + HasComponent<Health> + HasComponent<Position>,
{
    for (_, (h, p)) in world.view::<(&mut Health, &Position)>() {
        h.0 += p.0 as i32;
    }
}

fn main() {}
