//! Writes the seed corpora of the fuzz targets into `fuzz/seeds/<target>/`:
//! `cargo run --manifest-path fuzz/Cargo.toml --bin write_seeds`.

use std::fs;
use std::path::Path;

use sparse_groups_fuzz::snapshots::{Types, sample, sample_dynamic};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds");
    let snapshots = root.join("snapshot_load");
    fs::create_dir_all(&snapshots).unwrap();
    let scene = sample();
    let json = serde_json::to_vec(&scene).unwrap();
    let postcard = postcard::to_stdvec(&scene).unwrap();
    let world = sample_dynamic();
    let world_json = serde_json::to_vec(&world.snapshot::<Types>()).unwrap();
    let world_postcard = postcard::to_stdvec(&world.snapshot::<Types>()).unwrap();
    for (name, mode, bytes) in [
        ("static_json", 0u8, &json),
        ("static_postcard", 1, &postcard),
        ("dynamic_json", 2, &world_json),
        ("dynamic_postcard", 3, &world_postcard),
    ] {
        let mut seed = vec![mode];
        seed.extend_from_slice(bytes);
        fs::write(snapshots.join(name), seed).unwrap();
    }
    // Operation sequences: spawns of every bundle, commands, ticks, views, bulk changes.
    let ops = root.join("world_ops");
    fs::create_dir_all(&ops).unwrap();
    let sequences: [(&str, Vec<u8>); 4] = [
        (
            "spawns",
            [0u8, 0, 1, 0, 0, 1, 2, 0, 0, 3, 3, 0, 0, 4, 4, 0].repeat(4),
        ),
        (
            "changes",
            vec![
                0, 1, 5, 0, 10, 2, 0, 7, 0, 0, 0, 11, 0, 9, 0, 0, 0, 12, 3, 0, 1, 0, 0, 6, 0, 3, 0,
                1, 2,
            ],
        ),
        (
            "commands",
            vec![
                0, 3, 1, 0, 9, 6, 1, 3, 0, 0, 0, 2, 8, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2,
                0, 9, 9, 0, 0, 0,
            ],
        ),
        (
            "bulk",
            vec![
                0, 1, 0, 0, 2, 0, 0, 5, 1, 3, 0, 0, 1, 0, 2, 0, 0, 0, 6, 0, 2, 0, 0, 1, 0, 7, 1, 0,
                0, 8, 0, 13, 14, 1,
            ],
        ),
    ];
    for (name, bytes) in sequences {
        fs::write(ops.join(name), bytes).unwrap();
    }
    println!("seeds written under {}", root.display());
}
