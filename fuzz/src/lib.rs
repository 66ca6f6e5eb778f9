//! What the fuzz targets share: the worlds they load snapshots into, and the seeds of
//! their corpora (`cargo run --manifest-path fuzz/Cargo.toml --bin write_seeds`).

pub mod snapshots {
    //! A world with every group kind, saved and loaded by the `snapshot_load` target.

    use serde::{Deserialize, Serialize};
    use sparse_groups::{
        Component, Entity, Exclude, Get, GroupSpec, Resource, Storage, World, world,
    };

    #[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Pos(pub f32);
    #[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Vel(pub f32);
    #[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Frozen;
    #[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Name(pub String);
    #[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
    pub struct Parent(pub Entity);

    /// A resource naming an entity.
    #[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    pub struct Census {
        pub spawned: u32,
        pub root: Option<Entity>,
    }

    /// A 3-deep owning family with an exclusion, a partial-owning group and a non-owning
    /// one; `Pos` tracked; a resource.
    #[world]
    #[derive(Serialize, Deserialize, Debug)]
    #[group(Pos, Vel)]
    #[group(Pos, Vel, Name)]
    #[group(Pos, Vel, Name, Parent)]
    #[group(Frozen, get(Pos), exclude(Vel))]
    #[group(get(Name), exclude(Frozen))]
    #[track(Pos)]
    pub struct Scene {
        positions: Storage<Pos>,
        velocities: Storage<Vel>,
        frozen: Storage<Frozen>,
        names: Storage<Name>,
        parents: Storage<Parent>,
        census: Resource<Census>,
    }

    /// The types a run-time world's snapshot lists.
    pub type Types = (Pos, Vel, Frozen, Name, Parent, Resource<Census>);

    /// The run-time world with the same layout.
    pub fn dynamic() -> World {
        let mut world = World::with_groups([
            GroupSpec::of::<(Pos, Vel)>(),
            GroupSpec::of::<(Pos, Vel, Name)>(),
            GroupSpec::of::<(Pos, Vel, Name, Parent)>(),
            GroupSpec::of::<(Frozen, Get<Pos>, Exclude<Vel>)>(),
            GroupSpec::of::<(Get<Name>, Exclude<Frozen>)>(),
        ])
        .expect("a valid layout");
        world.track::<Pos>();
        world
    }

    /// A small scene touching every group, with destroyed entities (a free list) and a
    /// non-owning group in an order of its own, in either world.
    macro_rules! sample {
        ($world:expr) => {{
            let mut w = $world;
            let root = w.spawn_with((Pos(0.0), Vel(1.0), Name("root".into())));
            for i in 0..6 {
                let e = w.spawn_with((Pos(i as f32), Name(format!("n{i}"))));
                if i % 2 == 0 {
                    w.insert(e, Vel(2.0)).unwrap();
                }
                if i % 3 == 0 {
                    w.insert(e, Parent(root)).unwrap();
                }
                if i == 5 {
                    w.insert(e, Frozen).unwrap();
                }
            }
            let gone = w.spawn_with((Frozen,));
            w.destroy(gone).unwrap();
            (
                w,
                Census {
                    spawned: 8,
                    root: Some(root),
                },
            )
        }};
    }

    /// The sample scene in a `#[world]`.
    pub fn sample() -> Scene {
        let (mut scene, census) = sample!(Scene::new());
        *scene.resource_mut::<Census>() = census;
        scene
    }

    /// The sample scene in the run-time world.
    pub fn sample_dynamic() -> World {
        let (mut world, census) = sample!(dynamic());
        world.insert_resource(census);
        world
    }
}
