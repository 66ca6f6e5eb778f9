//! Snapshots (feature `serde`): random worlds round-trip in JSON and postcard with the same
//! entity ids, allocator and packed order; hostile snapshots are errors naming what is
//! wrong; random corruption of valid snapshots never panics and never loads an invalid
//! world.
#![cfg(feature = "serde")]

use crate::common::cases_or;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use sparse_groups::{Component, Entity, GroupSpec, Resource, Storage, World, world};

#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Pos(f32);
#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Vel(f32);
#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Frozen;
#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Name(String);
#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Parent(Entity);

/// A resource: how many changes made the world, and the last entity they named.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
struct Tally {
    changes: u64,
    last: Option<Entity>,
}

/// A 3-deep family with an exclusion, a partial-owning group and a non-owning one.
#[world]
#[derive(Serialize, Deserialize, Debug)]
#[group(Pos, Vel)]
#[group(Pos, Vel, Name)]
#[group(Pos, Vel, Name, Parent)]
#[group(Frozen, get(Pos), exclude(Vel))]
#[group(get(Name), exclude(Frozen))]
struct Scene {
    positions: Storage<Pos>,
    velocities: Storage<Vel>,
    frozen: Storage<Frozen>,
    names: Storage<Name>,
    parents: Storage<Parent>,
    tally: Resource<Tally>,
}

type Types = (Pos, Vel, Frozen, Name, Parent, Resource<Tally>);

fn dynamic() -> World {
    World::with_groups([
        GroupSpec::of::<(Pos, Vel)>(),
        GroupSpec::of::<(Pos, Vel, Name)>(),
        GroupSpec::of::<(Pos, Vel, Name, Parent)>(),
        GroupSpec::of::<(Frozen, sparse_groups::Get<Pos>, sparse_groups::Exclude<Vel>)>(),
        GroupSpec::of::<(sparse_groups::Get<Name>, sparse_groups::Exclude<Frozen>)>(),
    ])
    .unwrap()
}

/// One random change, applied the same way to both kinds of world.
#[derive(Clone, Debug)]
enum Op {
    Spawn,
    Insert(u8, usize, u16),
    Remove(u8, usize),
    Destroy(usize),
    Reserve,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => Just(Op::Spawn),
        8 => (0u8..5, any::<usize>(), any::<u16>()).prop_map(|(t, e, v)| Op::Insert(t, e, v)),
        3 => (0u8..5, any::<usize>()).prop_map(|(t, e)| Op::Remove(t, e)),
        2 => any::<usize>().prop_map(Op::Destroy),
        1 => Just(Op::Reserve),
    ]
}

macro_rules! apply {
    ($w:expr, $ops:expr) => {{
        let w = $w;
        let mut entities: Vec<Entity> = Vec::new();
        for op in $ops {
            let pick = |i: &usize| entities.get(i % entities.len().max(1)).copied();
            match op {
                Op::Spawn => entities.push(w.spawn()),
                Op::Insert(t, i, v) => {
                    if let Some(e) = pick(i) {
                        let parent = entities[usize::from(*v) % entities.len()];
                        let _ = match t {
                            0 => w.insert(e, Pos(f32::from(*v))).map(drop),
                            1 => w.insert(e, Vel(f32::from(*v))).map(drop),
                            2 => w.insert(e, Frozen).map(drop),
                            3 => w.insert(e, Name(format!("n{v}"))).map(drop),
                            _ => w.insert(e, Parent(parent)).map(drop),
                        };
                    }
                }
                Op::Remove(t, i) => {
                    if let Some(e) = pick(i) {
                        match t {
                            0 => drop(w.remove::<Pos>(e)),
                            1 => drop(w.remove::<Vel>(e)),
                            2 => drop(w.remove::<Frozen>(e)),
                            3 => drop(w.remove::<Name>(e)),
                            _ => drop(w.remove::<Parent>(e)),
                        }
                    }
                }
                Op::Destroy(i) => {
                    if let Some(e) = pick(i) {
                        let _ = w.destroy(e);
                    }
                }
                // Left unflushed: a snapshot saves it as alive.
                Op::Reserve => entities.push(w.entities().reserve()),
            }
        }
        entities
    }};
}

/// Everything a load must give back: the allocator, each storage in packed order, the
/// groups' lengths and the next spawned handle.
macro_rules! state {
    ($w:expr, $storage:ident, $len:ident) => {{
        let w = $w;
        (
            serde_json::to_string(w.entities()).unwrap(),
            format!(
                "{:?} {:?} {:?} {:?} {:?}",
                $storage!(w, Pos).iter().collect::<Vec<_>>(),
                $storage!(w, Vel).iter().collect::<Vec<_>>(),
                $storage!(w, Frozen).iter().collect::<Vec<_>>(),
                $storage!(w, Name).iter().collect::<Vec<_>>(),
                $storage!(w, Parent).iter().collect::<Vec<_>>(),
            ),
            [
                $len!(w, (Pos, Vel)),
                $len!(w, (Pos, Vel, Name)),
                $len!(w, (Pos, Vel, Name, Parent)),
            ],
        )
    }};
}
macro_rules! static_storage {
    ($w:expr, $T:ty) => {
        $w.storage::<$T>()
    };
}
macro_rules! static_len {
    ($w:expr, $K:ty) => {
        $w.group_len::<$K>()
    };
}
macro_rules! dynamic_storage {
    ($w:expr, $T:ty) => {
        $w.storage::<$T>().cloned().unwrap_or_default()
    };
}
macro_rules! dynamic_len {
    ($w:expr, $K:ty) => {
        $w.group_len::<$K>().unwrap()
    };
}

fn loaded_static_json(text: &str) -> Result<Scene, String> {
    serde_json::from_str::<Scene>(text).map_err(|e| e.to_string())
}

fn loaded_dynamic_json(text: &str) -> Result<World, String> {
    let mut w = dynamic();
    w.load::<Types, _>(&mut serde_json::Deserializer::from_str(text))
        .map_err(|e| e.to_string())?;
    Ok(w)
}

proptest! {
    #![proptest_config(cases_or(64))]

    #[test]
    fn worlds_round_trip_in_json_and_postcard(ops in prop::collection::vec(op(), 0..200)) {
        let mut s = Scene::new();
        let entities = apply!(&mut s, &ops);
        let mut d = dynamic();
        apply!(&mut d, &ops);
        let tally = Tally { changes: ops.len() as u64, last: entities.last().copied() };
        *s.resource_mut::<Tally>() = tally.clone();
        d.insert_resource(tally.clone());

        let json = serde_json::to_string(&s).unwrap();
        let bytes = postcard::to_stdvec(&s).unwrap();
        let mut from_json: Scene = serde_json::from_str(&json).unwrap();
        let mut from_bytes: Scene = postcard::from_bytes(&bytes).unwrap();
        // Reserved entities are saved as alive, as the original's next change makes them.
        let expected = state!(&s, static_storage, static_len);
        let next = s.spawn();
        for loaded in [&mut from_json, &mut from_bytes] {
            loaded.check().map_err(TestCaseError::fail)?;
            prop_assert_eq!(&state!(&*loaded, static_storage, static_len), &expected);
            prop_assert_eq!(loaded.resource::<Tally>(), &tally);
            prop_assert_eq!(loaded.spawn(), next);
        }

        let json = serde_json::to_string(&d.snapshot::<Types>()).unwrap();
        let bytes = postcard::to_stdvec(&d.snapshot::<Types>()).unwrap();
        let mut from_json = loaded_dynamic_json(&json).unwrap();
        let mut from_bytes = dynamic();
        from_bytes.load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes)).unwrap();
        let expected = state!(&d, dynamic_storage, dynamic_len);
        let next = d.spawn();
        for loaded in [&mut from_json, &mut from_bytes] {
            loaded.check().map_err(TestCaseError::fail)?;
            prop_assert_eq!(&state!(&*loaded, dynamic_storage, dynamic_len), &expected);
            prop_assert_eq!(loaded.resource::<Tally>(), Ok(&tally));
            prop_assert_eq!(loaded.spawn(), next);
        }
    }

    #[test]
    fn corrupt_snapshots_never_panic_nor_load_an_invalid_world(
        ops in prop::collection::vec(op(), 1..80),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..3), 1..4),
    ) {
        let mut s = Scene::new();
        apply!(&mut s, &ops);
        s.resource_mut::<Tally>().changes = ops.len() as u64;
        let mut d = dynamic();
        apply!(&mut d, &ops);
        d.insert_resource(Tally { changes: ops.len() as u64, last: None });
        let corrupt = |mut bytes: Vec<u8>| {
            for &(at, byte, how) in &edits {
                if bytes.is_empty() {
                    break;
                }
                let at = at % bytes.len();
                match how {
                    0 => bytes[at] = byte,
                    1 => bytes.truncate(at),
                    _ => bytes.insert(at, byte),
                }
            }
            bytes
        };
        let bytes = corrupt(postcard::to_stdvec(&s).unwrap());
        if let Ok(loaded) = postcard::from_bytes::<Scene>(&bytes) {
            loaded.check().map_err(TestCaseError::fail)?;
        }
        let text = corrupt(serde_json::to_vec(&s).unwrap());
        if let Ok(loaded) = serde_json::from_slice::<Scene>(&text) {
            loaded.check().map_err(TestCaseError::fail)?;
        }
        let bytes = corrupt(postcard::to_stdvec(&d.snapshot::<Types>()).unwrap());
        let mut loaded = dynamic();
        if loaded.load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes)).is_ok() {
            loaded.check().map_err(TestCaseError::fail)?;
        } else {
            // A failed load changes nothing.
            prop_assert_eq!(loaded.entities().index_bound(), 0);
            prop_assert!(!loaded.contains_resource::<Tally>());
            loaded.check().map_err(TestCaseError::fail)?;
        }
    }
}

/// A valid snapshot with one thing changed, and the error it must give.
fn refused(json: &str, expected: &str) {
    let error = loaded_static_json(json).err();
    assert!(
        error.as_deref().is_some_and(|e| e.contains(expected)),
        "`{json}` gave {error:?}, expected an error containing {expected:?}"
    );
}

/// The format of sparse_groups 0.3's snapshots, which hold no resources: still read.
const FORMAT_WITHOUT_RESOURCES: u64 = (1 << 32) + 1;

/// The format of this version's snapshots, and an allocator of three alive entities.
const ENTITIES: &str =
    r#""format":4294967298,"entities":{"versions":[1,2,1],"free":[],"retired":[]}"#;

#[test]
fn hostile_snapshots_are_errors_naming_what_is_wrong() {
    let ok = format!(
        r#"{{{ENTITIES},"storages":{{"positions":{{"entities":[0,1],"components":[1.0,2.0]}}}},"groups":[]}}"#
    );
    loaded_static_json(&ok).unwrap().check().unwrap();
    let storages = |s: &str| format!(r#"{{{ENTITIES},"storages":{{{s}}},"groups":[]}}"#);
    refused(
        &storages(r#""positions":{"entities":[0,0],"components":[1.0,2.0]}"#),
        "storage `positions`: entity e0v1 is listed twice",
    );
    // A storage lists its entities by index: the allocator gives their versions, and an
    // index of no alive entity (free, or never handed out) is refused.
    refused(
        r#"{"format":4294967298,"entities":{"versions":[1,2],"free":[1],"retired":[]},
            "storages":{"positions":{"entities":[1],"components":[1.0]}}}"#,
        "storage `positions`: entity index 1 has a component but no alive entity",
    );
    refused(
        &storages(r#""positions":{"entities":[7],"components":[1.0]}"#),
        "storage `positions`: entity index 7 has a component but no alive entity",
    );
    refused(
        &storages(r#""positions":{"entities":[0,2],"components":[1.0]}"#),
        "storage `positions`: 2 entities but 1 components",
    );
    refused(
        &storages(r#""positions":{"entities":[4294967295],"components":[1.0]}"#),
        "storage `positions`: entity index 4294967295 has a component but no alive entity",
    );
    // `[index, version]` pairs, as sparse_groups 0.2 wrote a storage's entities.
    refused(
        &storages(r#""positions":{"entities":[[0,1]],"components":[1.0]}"#),
        "storage `positions`: invalid type: sequence, expected u32",
    );
    // The allocator gives the storages' entities their versions: it comes first.
    refused(
        r#"{"format":4294967298,"storages":{},"entities":{"versions":[],"free":[],"retired":[]}}"#,
        "a snapshot's `entities` come before its `storages`",
    );
    // The format comes before the storages, and is this version's.
    refused(
        &format!(r#"{{"storages":{{}},{ENTITIES}}}"#),
        "a snapshot has a `format` (4294967298) before its storages; this one has none",
    );
    refused(
        &storages("").replace("4294967298", "4294967296"),
        "its format is 4294967296, this version reads 4294967298 and 4294967297",
    );
    refused(
        &storages(r#""positions":{"components":[1.0],"entities":[0],"shared":0}"#)
            .replace(r#""storages""#, r#""format":4294967298,"storages""#),
        "duplicate field `format`",
    );
    refused(
        &storages(r#""healths":{"entities":[],"components":[]}"#),
        "a storage `healths` this world does not have",
    );
    refused(
        &storages(
            r#""frozen":{"entities":[],"components":[]},"frozen":{"entities":[],"components":[]}"#,
        ),
        "storage `frozen` is listed twice",
    );
    let entities =
        |e: &str| format!(r#"{{"format":4294967298,"entities":{e},"storages":{{}},"groups":[]}}"#);
    refused(
        &entities(r#"{"versions":[1,0],"free":[],"retired":[]}"#),
        "entity index 1 has version 0",
    );
    refused(
        &entities(r#"{"versions":[1,1],"free":[1,1],"retired":[]}"#),
        "entity index 1 is listed twice as free or retired",
    );
    refused(
        &entities(r#"{"versions":[1,1],"free":[5],"retired":[]}"#),
        "free entity index 5 was never handed out",
    );
    refused(
        &entities(r#"{"versions":[1,3],"free":[],"retired":[1]}"#),
        "retired entity index 1 has version 3, which could still grow",
    );
    refused("{}", "this one has none");
    refused(r#"{"format":4294967298}"#, "missing field `entities`");
    refused(
        &format!(r#"{{{ENTITIES},"storages":{{}}}}"#),
        "missing field `groups`",
    );
    // A storage may begin with entities of the storage before it, left out of its list.
    let shared = loaded_static_json(&storages(
        r#""positions":{"entities":[0,1],"components":[1.0,2.0]},
           "velocities":{"shared":1,"entities":[2],"components":[3.0,4.0]}"#,
    ))
    .unwrap();
    shared.check().unwrap();
    let velocities: Vec<Entity> = shared.storage::<Vel>().iter().map(|(e, _)| e).collect();
    assert_eq!(format!("{velocities:?}"), "[e0v1, e2v1]");
    refused(
        &storages(r#""positions":{"shared":1,"entities":[],"components":[1.0]}"#),
        "storage `positions`: begins with 1 entities of the storage before it, which has 0",
    );
    refused(
        &storages(
            r#""positions":{"entities":[0],"components":[1.0]},
               "velocities":{"shared":2,"entities":[],"components":[1.0,2.0]}"#,
        ),
        "storage `velocities`: begins with 2 entities of the storage before it, which has 1",
    );
    // An entity written again after the shared ones is refused, in either storage
    // order, and so is a dead index written after them.
    refused(
        &storages(
            r#""positions":{"entities":[0,1],"components":[1.0,2.0]},
               "velocities":{"shared":1,"entities":[0],"components":[3.0,4.0]}"#,
        ),
        "storage `velocities`: entity e0v1 is listed twice",
    );
    refused(
        &storages(
            r#""velocities":{"entities":[0,1],"components":[1.0,2.0]},
               "positions":{"shared":2,"entities":[1],"components":[3.0,4.0,5.0]}"#,
        ),
        "storage `positions`: entity e1v2 is listed twice",
    );
    refused(
        &storages(
            r#""positions":{"entities":[0],"components":[1.0]},
               "velocities":{"shared":1,"entities":[7],"components":[3.0,4.0]}"#,
        ),
        "storage `velocities`: entity index 7 has a component but no alive entity",
    );
    // The member order of the non-owning group `<get(Name), exclude(Frozen)>`.
    let groups = |g: &str| format!(r#"{{{ENTITIES},"storages":{{}},"groups":{g}}}"#);
    loaded_static_json(&groups("[[]]"))
        .unwrap()
        .check()
        .unwrap();
    // Alive entities that are not members order nothing: the storages decide membership.
    let mut listed = loaded_static_json(&groups("[[[0,1],[2,1]]]")).unwrap();
    listed.check().unwrap();
    type Named = (sparse_groups::Get<Name>, sparse_groups::Exclude<Frozen>);
    assert_eq!(listed.group::<Named>().len(), 0);
    refused(
        &groups("[[],[]]"),
        "the snapshot orders 2 non-owning groups, this world has 1",
    );
    refused(
        &groups("[[[1,1]]]"),
        "non-owning group 0: entity e1v1 is listed as a member but is not alive",
    );
    refused(
        &groups("[[[0,1],[0,1]]]"),
        "non-owning group 0: entity e0v1 is listed twice",
    );
}

/// A storage's shared entities come from the storage before it, whose written indices are
/// checked as they are read: a dead index (past every alive one) there is an error, not a
/// panic, whichever storage shares it, in both worlds.
#[test]
fn a_dead_index_shared_with_the_next_storage_is_refused() {
    let snapshot = |first: &str, second: &str| {
        format!(
            r#"{{{ENTITIES},"storages":{{"{first}":{{"entities":[100],"components":[1.0]}},
               "{second}":{{"shared":1,"entities":[],"components":[2.0]}}}}}}"#
        )
    };
    let expected = "entity index 100 has a component but no alive entity";
    let error = loaded_static_json(&snapshot("velocities", "positions")).err();
    assert!(
        error.as_deref().is_some_and(|e| e.contains(expected)),
        "{error:?}"
    );
    let error = loaded_dynamic_json(&snapshot("Vel", "Pos")).err();
    assert!(
        error.as_deref().is_some_and(|e| e.contains(expected)),
        "{error:?}"
    );
}

#[test]
fn a_non_owning_group_keeps_its_member_order_through_a_snapshot() {
    let mut scene = Scene::new();
    let mut world = dynamic();
    type Named = (sparse_groups::Get<Name>, sparse_groups::Exclude<Frozen>);
    for (i, name) in ["d", "b", "a", "c", "e"].into_iter().enumerate() {
        let x = scene.spawn_with((Name(name.into()),));
        let y = world.spawn_with((Name(name.into()),));
        assert_eq!(x, y);
        if i == 1 {
            scene.insert(x, Frozen).unwrap();
            world.insert(y, Frozen).unwrap();
        }
    }
    // Sorted by name, then an insert and a removal that move members.
    scene.sort_group_by_key::<Named, String>(|name| name.0.clone());
    world
        .sort_group_by_key::<Named, String>(|name| name.0.clone())
        .unwrap();
    let late = scene.spawn_with((Name("0".into()),));
    world.spawn_with((Name("0".into()),));
    scene.remove::<Name>(late).unwrap();
    world.remove::<Name>(late).unwrap();
    let members = |w: &mut Scene| {
        let mut seen = Vec::new();
        w.group::<Named>().for_each(|e, _| seen.push(e));
        seen
    };
    let members_dynamic = |w: &mut World| {
        let mut seen = Vec::new();
        w.group::<Named>().unwrap().for_each(|e, _| seen.push(e));
        seen
    };
    let before = members(&mut scene);
    assert_eq!(before, members_dynamic(&mut world));
    let mut loaded: Scene = serde_json::from_str(&serde_json::to_string(&scene).unwrap()).unwrap();
    loaded.check().unwrap();
    assert_eq!(members(&mut loaded), before);
    let bytes = postcard::to_stdvec(&world.snapshot::<Types>()).unwrap();
    let mut reloaded = dynamic();
    reloaded
        .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes))
        .unwrap();
    reloaded.check().unwrap();
    assert_eq!(members_dynamic(&mut reloaded), before);
}

#[test]
fn a_retired_index_stays_retired_and_free_order_is_kept() {
    let json = r#"{"format":4294967298,"entities":{"versions":[4294967295,3,5,1],"free":[2,1],"retired":[0]},"storages":{},"groups":[]}"#;
    let mut w = loaded_static_json(json).unwrap();
    assert_eq!(w.entities().len(), 1);
    // `spawn` takes the free list from its end, and never the retired index.
    assert_eq!(w.spawn(), Entity::from_raw_parts(1, 3).unwrap());
    assert_eq!(w.spawn(), Entity::from_raw_parts(2, 5).unwrap());
    assert_eq!(w.spawn(), Entity::from_raw_parts(4, 1).unwrap());
    assert!(
        serde_json::to_string(&w)
            .unwrap()
            .contains(r#""retired":[0]"#)
    );
}

#[test]
fn entities_held_in_components_stay_valid_after_a_load() {
    let mut s = Scene::new();
    let old: Vec<Entity> = (0..10).map(|_| s.spawn()).collect();
    for &e in &old[..5] {
        s.destroy(e).unwrap();
    }
    let parent = s.spawn_with((Name("root".into()),));
    let child = s.spawn_with((Pos(0.0), Vel(1.0), Name("leaf".into()), Parent(parent)));
    let loaded: Scene = postcard::from_bytes(&postcard::to_stdvec(&s).unwrap()).unwrap();
    let Parent(p) = loaded.get::<Parent>(child).unwrap().clone();
    assert_eq!(loaded.get::<Name>(p), Some(&Name("root".into())));
    assert_eq!(loaded.group_len::<(Pos, Vel, Name, Parent)>(), 1);
}

#[test]
fn a_load_needs_an_empty_world_and_every_stored_type() {
    let mut d = dynamic();
    let e = d.spawn_with((Pos(1.0), Name("a".into())));
    // A snapshot that would lose `Name`s is refused.
    let error = serde_json::to_string(&d.snapshot::<(Pos, Vel)>()).unwrap_err();
    assert!(
        error.to_string().contains("1 components of `Name`"),
        "{error}"
    );
    let json = serde_json::to_string(&d.snapshot::<Types>()).unwrap();
    // Loading into a world that has spawned is refused and changes nothing.
    let error = d
        .load::<Types, _>(&mut serde_json::Deserializer::from_str(&json))
        .unwrap_err();
    assert!(error.to_string().contains("empty world"), "{error}");
    assert_eq!(d.get::<Pos>(e), Some(&Pos(1.0)));
    let loaded = loaded_dynamic_json(&json).unwrap();
    assert_eq!(loaded.get::<Name>(e), Some(&Name("a".into())));

    // A reservation counts: the reserved handle would name a loaded entity, and the
    // queued spawn would overwrite its component. The load is refused, the reservation
    // stays, and the spawn happens as queued.
    let mut fresh = dynamic();
    let mut commands = sparse_groups::Commands::new();
    let reserved = commands.spawn_reserved(fresh.entities(), (Pos(9.0),));
    assert_eq!(reserved, e, "the first handle either world gives");
    let error = fresh
        .load::<Types, _>(&mut serde_json::Deserializer::from_str(&json))
        .unwrap_err();
    assert!(error.to_string().contains("reserved"), "{error}");
    assert_eq!(fresh.apply(&mut commands).applied, 1);
    assert_eq!(fresh.get::<Pos>(reserved), Some(&Pos(9.0)));
    assert_eq!(fresh.get::<Name>(reserved), None);
    fresh.check().unwrap();
}

/// A snapshot as sparse_groups 0.2 wrote it (no format, storages' entities as
/// `(index, version)` pairs) is refused with a message saying so, not read as this
/// version's: in postcard, where nothing names the fields, its first value (the
/// allocator's count of versions) is read as the format and cannot match it.
#[test]
fn a_snapshot_without_this_versions_format_is_refused() {
    #[derive(Serialize)]
    struct Parts {
        versions: Vec<u32>,
        free: Vec<u32>,
        retired: Vec<u32>,
    }
    #[derive(Serialize)]
    struct Columns {
        shared: usize,
        entities: Vec<(u32, u32)>,
        components: Vec<f32>,
    }
    #[derive(Serialize)]
    struct Before {
        entities: Parts,
        storages: std::collections::BTreeMap<&'static str, Columns>,
        groups: Vec<Vec<(u32, u32)>>,
    }
    let before = |name: &'static str| Before {
        entities: Parts {
            versions: vec![1, 1],
            free: vec![],
            retired: vec![],
        },
        storages: [(
            name,
            Columns {
                shared: 0,
                entities: vec![(0, 1), (1, 1)],
                components: vec![1.0, 2.0],
            },
        )]
        .into_iter()
        .collect(),
        groups: vec![],
    };
    // postcard keeps no message, only that a check of ours refused the input (not an
    // input too short or a value out of range).
    let bytes = postcard::to_stdvec(&before("positions")).unwrap();
    let error = postcard::from_bytes::<Scene>(&bytes).err();
    assert!(
        matches!(error, Some(postcard::Error::SerdeDeCustom)),
        "{error:?}"
    );
    let bytes = postcard::to_stdvec(&before("Pos")).unwrap();
    let error = dynamic()
        .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes))
        .err();
    assert!(
        matches!(error, Some(postcard::Error::SerdeDeCustom)),
        "{error:?}"
    );
    // This version's layout with another format is refused too; with this format it
    // loads (so the refusals above are the format's).
    #[derive(Serialize)]
    struct NowColumns {
        shared: usize,
        entities: Vec<u32>,
        components: Vec<f32>,
    }
    #[derive(Serialize)]
    struct Now {
        format: u64,
        entities: Parts,
        storages: std::collections::BTreeMap<&'static str, NowColumns>,
        groups: Vec<Vec<(u32, u32)>>,
    }
    let now_named = |format: u64, name: &'static str| Now {
        format,
        entities: Parts {
            versions: vec![1, 1],
            free: vec![],
            retired: vec![],
        },
        storages: [(
            name,
            NowColumns {
                shared: 0,
                entities: vec![1, 0],
                components: vec![1.0, 2.0],
            },
        )]
        .into_iter()
        .collect(),
        groups: vec![],
    };
    let now = |format: u64| now_named(format, "positions");
    let loaded: Scene =
        postcard::from_bytes(&postcard::to_stdvec(&now(FORMAT_WITHOUT_RESOURCES)).unwrap())
            .unwrap();
    loaded.check().unwrap();
    assert_eq!(loaded.storage::<Pos>().components(), &[Pos(1.0), Pos(2.0)]);
    // The run-time world reads the format without resources too, keeping its own.
    let mut world = dynamic();
    world.insert_resource(Tally {
        changes: 4,
        last: None,
    });
    let bytes = postcard::to_stdvec(&now_named(FORMAT_WITHOUT_RESOURCES, "Pos")).unwrap();
    world
        .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes))
        .unwrap();
    world.check().unwrap();
    assert_eq!(
        world.storage::<Pos>().unwrap().components(),
        &[Pos(1.0), Pos(2.0)]
    );
    assert_eq!(world.resource::<Tally>().unwrap().changes, 4);
    let error = postcard::from_bytes::<Scene>(
        &postcard::to_stdvec(&now(FORMAT_WITHOUT_RESOURCES - 1)).unwrap(),
    )
    .err();
    assert!(
        matches!(error, Some(postcard::Error::SerdeDeCustom)),
        "{error:?}"
    );
    // In JSON the field is missing, in both worlds.
    let json = serde_json::to_string(&before("positions")).unwrap();
    refused(
        &json,
        "a snapshot has a `format` (4294967298) before its storages; this one has none",
    );
    let json = serde_json::to_string(&before("Pos")).unwrap();
    let error = loaded_dynamic_json(&json).err();
    assert!(
        error
            .as_deref()
            .is_some_and(|e| e.contains("this one has none")),
        "{error:?}"
    );
}

/// In a self-describing format a storage's fields come in any order; a storage alone has
/// no `shared`, and its message lists only the fields it has.
#[test]
fn a_storages_fields_come_in_any_order() {
    let storages = |s: &str| format!(r#"{{{ENTITIES},"storages":{{{s}}},"groups":[]}}"#);
    let loaded = loaded_static_json(&storages(
        r#""positions":{"entities":[0,1],"components":[1.0,2.0]},
           "velocities":{"components":[3.0,4.0],"entities":[2],"shared":1}"#,
    ))
    .unwrap();
    loaded.check().unwrap();
    assert_eq!(loaded.storage::<Vel>().len(), 2);
    // `shared` last: the components' bound waits for it.
    let loaded = loaded_static_json(&storages(
        r#""positions":{"entities":[0,1],"components":[1.0,2.0]},
           "velocities":{"entities":[2],"components":[3.0,4.0],"shared":1}"#,
    ))
    .unwrap();
    loaded.check().unwrap();
    assert_eq!(loaded.storage::<Vel>().len(), 2);
    // A world's keys in any order too, but for the format and the allocator before the
    // storages: a `serde_json::Value` sorts them.
    let mut scene = Scene::new();
    let e = scene.spawn_with((Pos(1.0), Vel(2.0)));
    let value = serde_json::to_value(&scene).unwrap();
    let loaded: Scene = serde_json::from_value(value).unwrap();
    loaded.check().unwrap();
    assert_eq!(loaded.get::<Vel>(e), Some(&Vel(2.0)));
    refused(
        &storages(r#""positions":{"entities":[0],"components":[1.0,2.0],"shared":0}"#),
        "storage `positions`: 1 entities but 2 components",
    );
    let error = serde_json::from_str::<Storage<Pos>>(
        r#"{"components":[1.0],"entities":[[0,1]],"shared":0}"#,
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("unknown field `shared`, expected `entities` or `components`"),
        "{error}"
    );
}

#[test]
fn a_storage_alone_round_trips_and_refuses_repeats() {
    let storage: Storage<Pos> = (0..4)
        .map(|i| (Entity::from_raw_parts(i * 3, 1).unwrap(), Pos(i as f32)))
        .collect();
    let json = serde_json::to_string(&storage).unwrap();
    let back: Storage<Pos> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.entities(), storage.entities());
    assert_eq!(back.components(), storage.components());
    let bytes = postcard::to_stdvec(&storage).unwrap();
    let back: Storage<Pos> = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back.entities(), storage.entities());
    let repeated = r#"{"entities":[[1,1],[1,2]],"components":[1.0,2.0]}"#;
    let error = serde_json::from_str::<Storage<Pos>>(repeated).unwrap_err();
    assert!(
        error.to_string().contains("entity index 1 is listed twice"),
        "{error}"
    );
    let e = Entity::from_raw_parts(7, 2).unwrap();
    assert_eq!(serde_json::to_string(&e).unwrap(), "[7,2]");
}

/// A sequence that announces `0` values and writes none: in postcard, the length of a
/// column of tags (whose values take no bytes) written as anything it likes.
struct Announced(u64);

impl Serialize for Announced {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let length = usize::try_from(self.0).unwrap_or(usize::MAX);
        serializer.serialize_seq(Some(length))?.end()
    }
}

/// A postcard snapshot whose storage of tags announces 2⁶⁰ components for one entity is
/// refused at once: a tag takes no input, so reading them one by one took as long as the
/// length said (found by the `snapshot_load` fuzz target, which it hung). Both worlds, and
/// a storage alone.
#[test]
fn a_column_of_tags_longer_than_its_entities_is_refused_at_once() {
    #[derive(Serialize)]
    struct Parts {
        versions: Vec<u32>,
        free: Vec<u32>,
        retired: Vec<u32>,
    }
    #[derive(Serialize)]
    struct Columns {
        shared: usize,
        entities: Vec<u32>,
        components: Announced,
    }
    #[derive(Serialize)]
    struct Snapshot {
        format: u64,
        entities: Parts,
        storages: std::collections::BTreeMap<&'static str, Columns>,
        groups: Vec<Vec<(u32, u32)>>,
    }
    // The bound counts `shared` too: a storage claiming 2⁶⁰ entities of the one before
    // it (which has none) is refused as soon as it says so.
    let snapshot = |name: &'static str, shared: usize| {
        let columns = Columns {
            shared,
            entities: if shared == 0 { vec![0] } else { vec![] },
            components: Announced(1 << 60),
        };
        postcard::to_stdvec(&Snapshot {
            format: FORMAT_WITHOUT_RESOURCES,
            entities: Parts {
                versions: vec![1],
                free: vec![],
                retired: vec![],
            },
            storages: [(name, columns)].into_iter().collect(),
            groups: vec![],
        })
        .unwrap()
    };
    for shared in [0, 1 << 60] {
        // postcard keeps no message: that it returns is the point (it ran for hours
        // before).
        assert!(postcard::from_bytes::<Scene>(&snapshot("frozen", shared)).is_err());
        let error = dynamic()
            .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&snapshot(
                "Frozen", shared,
            )))
            .err()
            .map(|e| e.to_string());
        assert!(error.is_some(), "{error:?}");
    }
    // A storage alone: its two columns.
    #[derive(Serialize)]
    struct Alone {
        entities: Vec<(u32, u32)>,
        components: Announced,
    }
    let alone = postcard::to_stdvec(&Alone {
        entities: vec![(0, 1)],
        components: Announced(1 << 60),
    })
    .unwrap();
    let error = postcard::from_bytes::<Storage<Frozen>>(&alone)
        .err()
        .map(|e| e.to_string());
    assert!(error.is_some(), "{error:?}");
    // JSON names the bound in its message.
    let json = r#"{"entities":[[0,1]],"components":[null,null]}"#;
    let error = serde_json::from_str::<Storage<Frozen>>(json)
        .err()
        .map(|e| e.to_string());
    assert!(
        error.as_deref().is_some_and(
            |e| e.contains("invalid length 2, expected at most 1 values, one per entity")
        ),
        "{error:?}"
    );
}

/// Resources: a `#[world]` writes each declared one by field name, the run-time world each
/// it lists as `Resource<R>`; a load replaces the world's values with the snapshot's and
/// keeps the others; what is wrong with a resource is an error naming it, and a refused
/// load changes no resource.
#[test]
fn resources_are_saved_by_name_and_refused_when_wrong() {
    let mut s = Scene::new();
    let e = s.spawn_with((Pos(1.0),));
    *s.resource_mut::<Tally>() = Tally {
        changes: 3,
        last: Some(e),
    };
    let json = serde_json::to_string(&s).unwrap();
    assert!(
        json.ends_with(r#""resources":{"tally":{"changes":3,"last":[0,1]}}}"#),
        "{json}"
    );
    let storages = |r: &str| {
        format!(
            r#"{{{ENTITIES},"storages":{{"positions":{{"entities":[0],"components":[1.0]}}}},"groups":[],"resources":{{{r}}}}}"#
        )
    };
    let loaded = loaded_static_json(&storages(r#""tally":{"changes":7,"last":null}"#)).unwrap();
    assert_eq!(loaded.resource::<Tally>().changes, 7);
    // Absent from the snapshot (or a snapshot of 0.3, which wrote none): the world's value.
    let loaded = loaded_static_json(&storages("")).unwrap();
    assert_eq!(loaded.resource::<Tally>(), &Tally::default());
    let old = storages("")
        .replace("4294967298", "4294967297")
        .replace(r#","resources":{}"#, "");
    assert!(!old.contains("resources"), "{old}");
    loaded_static_json(&old).unwrap().check().unwrap();
    refused(
        &storages(r#""score":1"#),
        "the snapshot has a resource `score` this world does not have (it has tally)",
    );
    refused(
        &storages(r#""tally":{"changes":1,"last":null},"tally":{"changes":2,"last":null}"#),
        "resource `tally` is listed twice",
    );
    refused(
        &storages(r#""tally":{"changes":-1,"last":null}"#),
        "resource `tally`: invalid value: integer `-1`",
    );
    refused(
        &format!(
            r#"{},"resources":{{}}}}"#,
            storages("").strip_suffix('}').unwrap()
        ),
        "duplicate field `resources`",
    );

    // The run-time world: listed resources only, and every held one must be listed.
    let mut d = dynamic();
    d.spawn_with((Pos(1.0),));
    d.insert_resource(Tally {
        changes: 3,
        last: Some(e),
    });
    let error = serde_json::to_string(&d.snapshot::<(Pos,)>()).unwrap_err();
    assert!(
        error.to_string().contains(
            "the world holds a resource `Tally` the snapshot does not list (list it as `Resource<Tally>`"
        ),
        "{error}"
    );
    let error = serde_json::to_string(&d.snapshot::<(Pos, Resource<Tally>, Resource<Tally>)>())
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("two resources of the snapshot are named `Tally`"),
        "{error}"
    );
    let json = serde_json::to_string(&d.snapshot::<Types>()).unwrap();
    assert!(
        json.ends_with(r#""resources":{"Tally":{"changes":3,"last":[0,1]}}}"#),
        "{json}"
    );
    // A load replaces the world's value.
    let mut loaded = dynamic();
    loaded.insert_resource(Tally::default());
    loaded
        .load::<Types, _>(&mut serde_json::Deserializer::from_str(&json))
        .unwrap();
    assert_eq!(loaded.resource::<Tally>().unwrap().changes, 3);
    // A listed resource the world does not hold is not written, and a load without it
    // leaves the world's.
    d.remove_resource::<Tally>();
    let json = serde_json::to_string(&d.snapshot::<Types>()).unwrap();
    assert!(json.ends_with(r#""resources":{}}"#), "{json}");
    let mut loaded = dynamic();
    loaded.insert_resource(Tally {
        changes: 9,
        last: None,
    });
    loaded
        .load::<Types, _>(&mut serde_json::Deserializer::from_str(&json))
        .unwrap();
    assert_eq!(loaded.resource::<Tally>().unwrap().changes, 9);
    // A refused load changes no resource, even one read before what is wrong.
    let bad = r#"{"format":4294967298,"entities":{"versions":[1],"free":[],"retired":[]},"resources":{"Tally":{"changes":1,"last":null}},"storages":{"Pos":{"entities":[0,0],"components":[1.0,2.0]}},"groups":[]}"#;
    let mut loaded = dynamic();
    loaded.insert_resource(Tally {
        changes: 9,
        last: None,
    });
    let error = loaded
        .load::<Types, _>(&mut serde_json::Deserializer::from_str(bad))
        .unwrap_err();
    assert!(error.to_string().contains("listed twice"), "{error}");
    assert_eq!(loaded.resource::<Tally>().unwrap().changes, 9);
    // A type may be both a component and a resource: two maps, two names `Pos`.
    let mut d = dynamic();
    let e = d.spawn_with((Pos(1.0),));
    d.insert_resource(Pos(7.0));
    let json = serde_json::to_string(&d.snapshot::<(Pos, Resource<Pos>)>()).unwrap();
    let mut loaded = dynamic();
    loaded
        .load::<(Pos, Resource<Pos>), _>(&mut serde_json::Deserializer::from_str(&json))
        .unwrap();
    assert_eq!(loaded.get::<Pos>(e), Some(&Pos(1.0)));
    assert_eq!(loaded.resource::<Pos>(), Ok(&Pos(7.0)));
    // A world listing no resource reads an empty map, and names none in its refusal.
    let error = dynamic()
        .load::<(Pos,), _>(&mut serde_json::Deserializer::from_str(&bad.replace(
            r#""entities":[0,0],"components":[1.0,2.0]"#,
            r#""entities":[0],"components":[1.0]"#,
        )))
        .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("a resource `Tally` this world does not have (it has none)"),
        "{error}"
    );
}
