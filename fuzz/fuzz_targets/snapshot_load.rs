//! Snapshot loading from untrusted bytes: JSON and postcard, into a `#[world]` (its
//! `Deserialize`) and into the run-time `World` (`load`), each with every group kind. A
//! load either fails with an error or gives a world whose every invariant holds and which
//! saves and loads again to the same bytes; it never panics, whatever the lengths, the
//! `shared` prefixes or the `groups` orders say.
//!
//! The first byte picks the format (bit 0: postcard) and the world (bit 1: run-time); the
//! rest is the snapshot.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sparse_groups_fuzz::snapshots::{Scene, Types, dynamic};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, bytes)) = data.split_first() else {
        return;
    };
    let postcard = mode & 1 == 1;
    if mode & 2 == 0 {
        let loaded: Option<Scene> = if postcard {
            postcard::from_bytes(bytes).ok()
        } else {
            serde_json::from_slice(bytes).ok()
        };
        if let Some(scene) = loaded {
            scene.check().expect("a loaded world is consistent");
            let saved = save_static(&scene, postcard);
            let again: Scene = if postcard {
                postcard::from_bytes(&saved).expect("a saved world loads")
            } else {
                serde_json::from_slice(&saved).expect("a saved world loads")
            };
            again.check().expect("a reloaded world is consistent");
            assert_eq!(
                save_static(&again, postcard),
                saved,
                "a round trip keeps the bytes"
            );
        }
    } else {
        let mut world = dynamic();
        let loaded = if postcard {
            world
                .load::<Types, _>(&mut postcard::Deserializer::from_bytes(bytes))
                .is_ok()
        } else {
            world
                .load::<Types, _>(&mut serde_json::Deserializer::from_slice(bytes))
                .is_ok()
        };
        world
            .check()
            .expect("a world after a load, failed or not, is consistent");
        if loaded {
            let saved = save_dynamic(&world, postcard);
            let mut again = dynamic();
            let reloaded = if postcard {
                again
                    .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&saved))
                    .map_err(|e| e.to_string())
            } else {
                again
                    .load::<Types, _>(&mut serde_json::Deserializer::from_slice(&saved))
                    .map_err(|e| e.to_string())
            };
            reloaded.expect("a saved world loads");
            again.check().expect("a reloaded world is consistent");
            assert_eq!(
                save_dynamic(&again, postcard),
                saved,
                "a round trip keeps the bytes"
            );
        }
    }
});

fn save_static(scene: &Scene, postcard: bool) -> Vec<u8> {
    if postcard {
        postcard::to_stdvec(scene).expect("a world saves")
    } else {
        serde_json::to_vec(scene).expect("a world saves")
    }
}

fn save_dynamic(world: &sparse_groups::World, postcard: bool) -> Vec<u8> {
    let snapshot = world.snapshot::<Types>();
    if postcard {
        postcard::to_stdvec(&snapshot).expect("a world saves")
    } else {
        serde_json::to_vec(&snapshot).expect("a world saves")
    }
}
