//! Resources on both kinds of world: declared (`Resource<R>` fields) or inserted at run
//! time, read and written directly, borrowed as `Res<R>` / `ResMut<R>` beside groups,
//! views and storages, reached from hooks, and the run-time world's refusals; then a
//! property test of random resource operations on both worlds against a plain model.

use std::cell::RefCell;

use crate::common::cases_or;
use proptest::prelude::*;
use sparse_groups::prelude::*;
use sparse_groups::{AccessError, Borrow};

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position(i32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity(i32);

/// Which entities sit at each x: kept by hooks.
#[derive(Clone, Debug, Default, PartialEq)]
struct Grid(Vec<(i32, Entity)>);

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Score(u64);

#[world]
#[derive(Clone, Debug)]
#[group(Position, Velocity)]
#[on_insert(Position, enter_grid::<Scene>)]
#[on_remove(Position, leave_grid::<Scene>)]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    grid: Resource<Grid>,
    score: Resource<Score>,
}

fn enter_grid<W>(world: &mut HookWorld<'_, W>, e: Entity)
where
    W: EditEntities + 'static,
    for<'s> (&'s Storage<Position>, ResMut<'s, Grid>): Borrow<'s, W>,
{
    let (positions, mut grid) = world
        .try_borrow::<(&Storage<Position>, ResMut<Grid>)>()
        .expect("the world holds a grid");
    grid.0.push((positions.get(e).expect("just inserted").0, e));
}

fn leave_grid<W>(world: &mut HookWorld<'_, W>, e: Entity)
where
    W: EditEntities + 'static,
    for<'s> ResMut<'s, Grid>: Borrow<'s, W>,
{
    let mut grid = world.try_borrow::<ResMut<Grid>>().expect("a grid");
    grid.0.retain(|&(_, x)| x != e);
}

/// Code generic over worlds names the resource as a bound.
fn add_points<W: HasResource<Score>>(world: &mut W, points: u64) {
    world.resource_mut().0 += points;
}

#[test]
fn a_declared_resource_starts_at_its_default_and_is_read_and_written() {
    let mut scene = Scene::new();
    assert_eq!(scene.resource::<Score>(), &Score(0));
    assert_eq!(scene.grid(), &Grid::default(), "the field's read accessor");
    scene.resource_mut::<Score>().0 = 5;
    add_points(&mut scene, 2);
    assert_eq!(scene.score(), &Score(7));
    let copy = scene.clone();
    scene.resource_mut::<Score>().0 = 1;
    assert_eq!(copy.resource::<Score>(), &Score(7), "a clone holds its own");
    let shown = format!("{copy:?}");
    assert!(shown.contains("score: Score(7)"), "{shown}");
}

#[test]
fn resources_are_borrowed_beside_groups_and_storages() {
    let mut scene = Scene::new();
    for x in 0..4 {
        scene.spawn_with((Position(x), Velocity(1)));
    }
    {
        let (group, mut score, grid) =
            scene.borrow::<(GroupMut<(Position, Velocity)>, ResMut<Score>, Res<Grid>)>();
        group.for_each(|_, (p, v)| {
            p.0 += v.0;
            score.0 += 1;
        });
        assert_eq!(grid.0.len(), 4, "the hooks filled the grid");
    }
    assert_eq!(scene.resource::<Score>(), &Score(4));
    // Shared parts together, through `&self`.
    let (a, b) = scene.borrow_ref::<(Res<Score>, Res<Score>)>();
    assert_eq!(a.0 + b.0, 8);
}

#[test]
fn hooks_keep_a_resource_in_step_on_both_worlds() {
    let mut scene = Scene::new();
    let mut world = World::with_groups([GroupSpec::of::<(Position, Velocity)>()]).unwrap();
    world.insert_resource(Grid::default());
    world.on_insert::<Position>(enter_grid::<World>).unwrap();
    world.on_remove::<Position>(leave_grid::<World>).unwrap();
    let a = (
        scene.spawn_with((Position(3),)),
        world.spawn_with((Position(3),)),
    );
    let b = (
        scene.spawn_with((Position(5),)),
        world.spawn_with((Position(5),)),
    );
    assert_eq!(scene.remove::<Position>(a.0), Some(Position(3)));
    assert_eq!(world.remove::<Position>(a.1), Some(Position(3)));
    assert_eq!(scene.grid().0, [(5, b.0)]);
    assert_eq!(world.resource::<Grid>().unwrap().0, [(5, b.1)]);
}

thread_local! {
    static REFUSED: RefCell<Vec<AccessError>> = const { RefCell::new(Vec::new()) };
}

fn count_in_hook(world: &mut HookWorld<'_, World>, _: Entity) {
    match world.borrow::<ResMut<Score>>() {
        Ok(mut score) => score.0 += 1,
        Err(error) => REFUSED.with_borrow_mut(|r| r.push(error)),
    }
}

#[test]
fn the_run_time_world_holds_what_was_inserted_and_refuses_the_rest() {
    let mut world = World::new();
    assert_eq!(
        world.resource::<Score>(),
        Err(AccessError::NoResource("integration::resources::Score"))
    );
    assert!(
        world
            .resource::<Score>()
            .unwrap_err()
            .to_string()
            .contains("insert one first with `world.insert_resource(…)`")
    );
    assert_eq!(world.insert_resource(Score(1)), None);
    assert_eq!(world.insert_resource(Score(2)), Some(Score(1)));
    assert!(world.contains_resource::<Score>());
    world.resource_mut::<Score>().unwrap().0 += 1;
    assert_eq!(world.resource::<Score>(), Ok(&Score(3)));
    // The borrow rule, checked when the request is made.
    assert_eq!(
        world.borrow::<(ResMut<Score>, Res<Score>)>().map(drop),
        Err(AccessError::Conflict("integration::resources::Score"))
    );
    assert_eq!(
        world.borrow::<(Res<Score>, ResMut<Grid>)>().map(drop),
        Err(AccessError::NoResource("integration::resources::Grid"))
    );
    {
        let (a, b) = world.borrow::<(Res<Score>, Res<Score>)>().unwrap();
        assert_eq!(a.0 + b.0, 6);
    }
    // Through `&self` too (the shared slots).
    let (a, b) = world.borrow_ref::<(Res<Score>, Res<Score>)>().unwrap();
    assert_eq!(a.0 + b.0, 6);
    assert_eq!(
        world.borrow_ref::<Res<Grid>>().map(drop),
        Err(AccessError::NoResource("integration::resources::Grid"))
    );
    // A hook reaches it as the world's borrow does; refusals are values.
    world.on_insert::<Position>(count_in_hook).unwrap();
    let e = world.spawn_with((Position(0),));
    assert_eq!(world.resource::<Score>(), Ok(&Score(4)));
    assert_eq!(world.remove_resource::<Score>(), Some(Score(4)));
    world.insert(e, Position(1)).unwrap(); // a replace: no hook
    world.remove::<Position>(e).unwrap();
    world.insert(e, Position(2)).unwrap();
    assert_eq!(
        REFUSED.with_borrow_mut(std::mem::take),
        [AccessError::NoResource("integration::resources::Score")]
    );
    assert!(!world.contains_resource::<Score>());
}

/// One operation on the resources of both worlds.
#[derive(Clone, Debug)]
enum Op {
    /// `resource_mut`: add to the score.
    Add(u64),
    /// A borrow with a group beside the resources: each member scores, the grid notes it.
    Walk,
    /// Spawn an entity with a position (the hook files it in the grid).
    Spawn(i32),
    /// Remove the position of the `n`-th entity spawned, if any (the hook unfiles it).
    Unplace(usize),
    /// Take the score out of the run-time world and put it back (the declared one stays).
    Reinsert,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..10u64).prop_map(Op::Add),
        Just(Op::Walk),
        (-50..50i32).prop_map(Op::Spawn),
        (0..64usize).prop_map(Op::Unplace),
        Just(Op::Reinsert),
    ]
}

/// The plain model: the score, and the grid as a list of `(x, entity number)`.
#[derive(Default)]
struct Model {
    score: u64,
    grid: Vec<(i32, usize)>,
    placed: Vec<bool>,
}

proptest! {
    #![proptest_config(cases_or(64))]

    #[test]
    fn resources_agree_with_a_plain_model_on_both_worlds(ops in prop::collection::vec(op(), 1..120)) {
        let mut scene = Scene::new();
        let mut world = World::with_groups([GroupSpec::of::<(Position, Velocity)>()]).unwrap();
        world.insert_resource(Grid::default());
        world.insert_resource(Score::default());
        world.on_insert::<Position>(enter_grid::<World>).unwrap();
        world.on_remove::<Position>(leave_grid::<World>).unwrap();
        let mut model = Model::default();
        let mut entities: Vec<(Entity, Entity)> = Vec::new();
        for op in ops {
            match op {
                Op::Add(n) => {
                    scene.resource_mut::<Score>().0 += n;
                    world.resource_mut::<Score>().unwrap().0 += n;
                    model.score += n;
                }
                Op::Walk => {
                    let filed = {
                        let (group, mut score, grid) = scene
                            .borrow::<(GroupMut<(Position, Velocity)>, ResMut<Score>, Res<Grid>)>();
                        group.for_each(|_, _| score.0 += 1);
                        grid.0.len()
                    };
                    {
                        let (group, mut score, grid) = world
                            .borrow::<(GroupMut<(Position, Velocity)>, ResMut<Score>, Res<Grid>)>()
                            .unwrap();
                        group.for_each(|_, _| score.0 += 1);
                        prop_assert_eq!(grid.0.len(), filed);
                    }
                    // Every placed entity has a velocity: all are in the group.
                    let members = model.placed.iter().filter(|&&p| p).count() as u64;
                    model.score += members;
                }
                Op::Spawn(x) => {
                    let pair = (
                        scene.spawn_with((Position(x), Velocity(1))),
                        world.spawn_with((Position(x), Velocity(1))),
                    );
                    model.grid.push((x, entities.len()));
                    model.placed.push(true);
                    entities.push(pair);
                }
                Op::Unplace(n) => {
                    if let Some(&(s, d)) = entities.get(n) {
                        let removed = scene.remove::<Position>(s);
                        prop_assert_eq!(removed, world.remove::<Position>(d));
                        model.grid.retain(|&(_, m)| m != n);
                        model.placed[n] = false;
                    }
                }
                Op::Reinsert => {
                    let score = world.remove_resource::<Score>().expect("held");
                    prop_assert!(world.resource::<Score>().is_err());
                    prop_assert_eq!(world.insert_resource(score), None);
                }
            }
            let expected: Vec<(i32, usize)> = model.grid.clone();
            let of = |grid: &Grid, pick: fn(&(Entity, Entity)) -> Entity| -> Vec<(i32, usize)> {
                grid.0
                    .iter()
                    .map(|&(x, e)| (x, entities.iter().position(|p| pick(p) == e).expect("a spawned entity")))
                    .collect()
            };
            prop_assert_eq!(scene.resource::<Score>().0, model.score);
            prop_assert_eq!(world.resource::<Score>().unwrap().0, model.score);
            prop_assert_eq!(of(scene.grid(), |p| p.0), expected.clone());
            prop_assert_eq!(of(world.resource::<Grid>().unwrap(), |p| p.1), expected);
        }
    }
}
