//! The code `#[world]` generates must be warning-free in the user's crate, under the
//! user's strictest settings: this file denies rustc's and clippy's lints (CI runs
//! `cargo clippy --all-targets -- -D warnings`, which lints it), with components that are
//! neither `Copy` nor `Drop`, nested groups, a `#[cfg]` field, derives (serde's too, with
//! the `serde` feature) and a public world.
#![forbid(unsafe_code)]
#![deny(warnings, missing_docs)]
#![deny(clippy::all, clippy::pedantic, clippy::nursery, clippy::cargo)]
#![allow(clippy::multiple_crate_versions)]

use sparse_groups::{Component, Entity, HookWorld, ResMut, Resource, Storage, world};

/// A name: neither `Copy` nor `Drop`.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Name(String);
/// A position.
#[derive(Component, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Position(Vec<f32>);
/// A velocity.
#[derive(Component, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Velocity(Vec<f32>);
/// A tag.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tag;

/// A public world with nested groups, non-owning ones, a storage under `#[cfg]` and derives.
#[world]
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[group(Position, Velocity)]
#[group(Position, Velocity, Name)]
#[group(get(Name), exclude(Position))]
#[group(get(Name, Velocity))]
#[on_insert(Name, named)]
#[on_replace(Position, moved)]
#[on_remove(Velocity, stopped)]
#[track(Position, Tag)]
pub struct Scene {
    /// Names.
    pub names: Storage<Name>,
    /// Positions.
    pub positions: Storage<Position>,
    /// Velocities.
    pub velocities: Storage<Velocity>,
    /// Tags, in test builds.
    #[cfg(test)]
    pub tags: Storage<Tag>,
}

/// Tags a named entity, through commands.
fn named(world: &mut HookWorld<'_, Scene>, e: Entity) {
    world.commands().insert(e, Velocity(vec![0.0]));
}

/// Reads the new position.
fn moved(world: &mut HookWorld<'_, Scene>, e: Entity, old: &Position) {
    assert!(
        world
            .get::<Position>(e)
            .is_some_and(|new| new.0.len() >= old.0.len().min(1))
    );
}

/// Clears the position of an entity about to lose its velocity.
fn stopped(world: &mut HookWorld<'_, Scene>, e: Entity) {
    if let Some(p) = world.get_mut::<Position>(e) {
        p.0.clear();
    }
}

/// A private world without groups.
#[world]
struct Empty {}

/// A frame's clock: a resource.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Clock(u64);

/// A public world with a resource beside a group.
#[world]
#[derive(Debug, Clone)]
#[group(Position, Velocity)]
pub struct Frame {
    /// Positions.
    pub positions: Storage<Position>,
    /// Velocities.
    pub velocities: Storage<Velocity>,
    /// The clock.
    pub clock: Resource<Clock>,
}

#[test]
fn generated_code_runs_under_every_lint() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((Position(vec![0.0]), Velocity(vec![1.0])));
    scene.insert(e, Name("e".to_owned())).unwrap();
    scene.insert(e, Position(vec![2.0])).unwrap();
    scene.insert(e, Tag).unwrap();
    assert_eq!(scene.group_len::<(Position, Velocity, Name)>(), 1);
    let changed = scene.view::<(&Position, sparse_groups::Changed<Position>)>();
    assert_eq!(changed.into_iter().count(), 1);
    scene.tick();
    assert!(scene.removed::<Tag>().is_empty());
    let copy = scene.clone();
    assert!(format!("{copy:?}").contains("<Position, Velocity, Name>"));
    #[cfg(feature = "serde")]
    {
        let loaded: Scene = serde_json::from_str(&serde_json::to_string(&scene).unwrap()).unwrap();
        assert_eq!(loaded.get::<Name>(e), Some(&Name("e".to_owned())));
    }
    scene.destroy(e).unwrap();
    scene.check().unwrap();
    assert!(Empty::new().entities().is_empty());
    let mut frame = Frame::new();
    frame.spawn_with((Position(vec![0.0]), Velocity(vec![1.0])));
    let (group, mut clock) =
        frame.borrow::<(sparse_groups::GroupMut<(Position, Velocity)>, ResMut<Clock>)>();
    group.for_each(|_, _| clock.0 += 1);
    assert_eq!(frame.clone().clock(), &Clock(1));
}
