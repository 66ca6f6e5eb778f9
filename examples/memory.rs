//! Memory figures: heap bytes per stored component in a dense world, and the footprint of
//! 1,000 entities whose indices are spread up to 2³¹.
//!
//! Run with `cargo run --release --example memory`.

use sparse_groups::{Entity, SparseSet, Storage};

#[derive(Clone, Copy)]
#[allow(dead_code, reason = "only the size matters")]
struct Position {
    x: f32,
    y: f32,
    z: f32,
}

fn main() {
    for n in [10_000u32, 1_000_000] {
        let mut storage = Storage::with_capacity(n as usize);
        for i in 0..n {
            storage.insert(
                Entity::from_raw_parts(i, 1).unwrap(),
                Position {
                    x: 0.0,
                    y: 0.0,
                    z: 0.0,
                },
            );
        }
        let bytes = storage.heap_bytes();
        println!(
            "Storage<Position> ({} B), {n} entities with indices 0..{n}: {bytes} B = {:.2} B per component \
             ({} B component + {} B entity + sparse entry and page rounding)",
            size_of::<Position>(),
            bytes as f64 / f64::from(n),
            size_of::<Position>(),
            size_of::<Entity>(),
        );
    }

    let mut set = SparseSet::new();
    let step = (1u64 << 31) / 1000;
    for i in 0..1000u64 {
        set.insert(Entity::from_raw_parts((i * step) as u32, 1).unwrap());
    }
    println!(
        "SparseSet of 1,000 entities with indices spread evenly over 0..2^31: {} B ({:.1} KiB, {:.0} B per entity)",
        set.heap_bytes(),
        set.heap_bytes() as f64 / 1024.0,
        set.heap_bytes() as f64 / 1000.0
    );
    let mut few = SparseSet::new();
    for index in [0u32, 1 << 20, 1 << 30, (1 << 31) - 1] {
        few.insert(Entity::from_raw_parts(index, 1).unwrap());
    }
    println!(
        "SparseSet of 4 entities at 0, 2^20, 2^30, 2^31-1: {} B",
        few.heap_bytes()
    );
}
