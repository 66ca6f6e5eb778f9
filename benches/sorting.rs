//! The three sorting strategies of the sorting article on 1,000,000 components (the mixed
//! one twice: the default `sort_by` and the article's literal `sort_by_sparse_walk`), the
//! key-based sorts (`sort_by_cached_key`, `sort_by_radix_key`, and both on sorted input),
//! against `sort_unstable_by` / `sort_unstable_by_key` / `sort_by_key` on a plain
//! `Vec<(key, payload)>` of the same keys and payloads, and the floors of a storage sort
//! that reads each key once (`floor_moves`, `floor_key_once`: the same work on plain
//! vectors shaped as a storage).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use sparse_groups::{Entity, Storage};

const N: usize = 1_000_000;

/// A component with a key to sort by and a payload that travels with it.
#[derive(Clone, Copy)]
#[allow(dead_code, reason = "the payload is moved by the sorts, never read")]
struct Keyed {
    key: u64,
    payload: [u64; 2],
}

fn shuffled_keys() -> Vec<u64> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..N)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        })
        .collect()
}

/// A storage's arrays as plain vectors: the values, the entities, and a sparse array
/// from entity index to position + 1.
#[derive(Clone)]
struct Shaped {
    values: Vec<Keyed>,
    entities: Vec<Entity>,
    sparse: Vec<u32>,
}

impl Shaped {
    fn of(storage: &Storage<Keyed>) -> Shaped {
        let entities = storage.entities().to_vec();
        let mut sparse = vec![0; entities.len()];
        for (position, entity) in entities.iter().enumerate() {
            sparse[entity.index() as usize] = position as u32 + 1;
        }
        Shaped {
            values: storage.components().to_vec(),
            entities,
            sparse,
        }
    }

    /// Each value's key with its position, read once.
    fn pairs(&self) -> Vec<(u64, u32)> {
        let keyed = self.values.iter().enumerate();
        keyed.map(|(p, value)| (value.key, p as u32)).collect()
    }

    /// Puts the values and entities in the order of `pairs` (each holding a source
    /// position): the values gathered into a new vector, the entities through the
    /// pairs' own memory (as `sort_by_radix_key` does), then every sparse entry
    /// re-pointed.
    fn apply(&mut self, pairs: &mut [(u64, u32)]) {
        self.values = pairs
            .iter()
            .map(|&(_, s)| self.values[s as usize])
            .collect();
        for pair in pairs.iter_mut() {
            let entity = self.entities[pair.1 as usize];
            pair.0 = u64::from(entity.index()) | u64::from(entity.version()) << 32;
        }
        for (slot, &(bits, _)) in self.entities.iter_mut().zip(pairs.iter()) {
            *slot = Entity::from_raw_parts(bits as u32, (bits >> 32) as u32).unwrap();
        }
        for (position, entity) in self.entities.iter().enumerate() {
            self.sparse[entity.index() as usize] = position as u32 + 1;
        }
    }
}

fn sorting(c: &mut Criterion) {
    let keys = shuffled_keys();
    let storage: Storage<Keyed> = keys
        .iter()
        .enumerate()
        .map(|(i, &key)| {
            (
                Entity::from_raw_parts(i as u32, 1).unwrap(),
                Keyed {
                    key,
                    payload: [i as u64; 2],
                },
            )
        })
        .collect();
    let plain: Vec<(u64, [u64; 3])> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, [i as u64, i as u64, i as u64]))
        .collect();
    let by_key = |a: &Keyed, b: &Keyed| a.key.cmp(&b.key);

    let mut group = c.benchmark_group("sort_1m");
    group.throughput(Throughput::Elements(N as u64));
    group.sample_size(20);
    group.bench_function("mixed_sort_by", |b| {
        b.iter_batched_ref(
            || storage.clone(),
            |s| s.sort_by(by_key),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("mixed_sparse_walk", |b| {
        b.iter_batched_ref(
            || storage.clone(),
            |s| sparse_groups::__private::sort_by_sparse_walk(s, by_key),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("permutation", |b| {
        b.iter_batched_ref(
            || storage.clone(),
            |s| s.sort_by_permutation(by_key),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("in_place", |b| {
        b.iter_batched_ref(
            || storage.clone(),
            |s| s.sort_by_in_place(by_key),
            BatchSize::LargeInput,
        )
    });
    // Key-based sorts: keys read once into `(key, position)`, sorted, applied once.
    group.bench_function("sort_by_cached_key", |b| {
        b.iter_batched_ref(
            || storage.clone(),
            |s| s.sort_by_cached_key(|c| c.key),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("sort_by_radix_key", |b| {
        b.iter_batched_ref(
            || storage.clone(),
            |s| s.sort_by_radix_key(|c| c.key),
            BatchSize::LargeInput,
        )
    });
    // Sorting what is already sorted (a depth sort re-run every frame).
    let mut sorted = storage.clone();
    sorted.sort_by_radix_key(|c| c.key);
    group.bench_function("resort_sorted_cached_key", |b| {
        b.iter_batched_ref(
            || sorted.clone(),
            |s| s.sort_by_cached_key(|c| c.key),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("resort_sorted_radix_key", |b| {
        b.iter_batched_ref(
            || sorted.clone(),
            |s| s.sort_by_radix_key(|c| c.key),
            BatchSize::LargeInput,
        )
    });
    // The key-sort reference: `sort_unstable_by_key` on the plain Vec.
    group.bench_function("vec_sort_unstable_by_key", |b| {
        b.iter_batched_ref(
            || plain.clone(),
            |v| v.sort_unstable_by_key(|row| row.0),
            BatchSize::LargeInput,
        )
    });
    // The stable reference: the storage's key sorts are stable, std's `sort_by_key` is the
    // stable sort of the same rows.
    group.bench_function("vec_sort_by_key", |b| {
        b.iter_batched_ref(
            || plain.clone(),
            |v| v.sort_by_key(|row| row.0),
            BatchSize::LargeInput,
        )
    });
    // What a storage sort that reads each key once must do besides a Vec's sort, on plain
    // vectors shaped as a storage: build the `(key, position)` pairs, move the values and
    // the entities, re-point the sparse entries. `floor_moves` sorts the pairs at the cost
    // of one pass (the sorted positions, computed beforehand, written into them): the
    // radix sort's floor; `floor_key_once` sorts them by key alone with std's unstable
    // sort: the key sort's floor.
    let shaped = Shaped::of(&storage);
    let mut order: Vec<(u64, u32)> = shaped.pairs();
    order.sort_unstable();
    let order: Vec<u32> = order.into_iter().map(|(_, position)| position).collect();
    group.bench_function("floor_moves", |b| {
        b.iter_batched_ref(
            || shaped.clone(),
            |s| {
                let mut pairs = s.pairs();
                for (pair, &position) in pairs.iter_mut().zip(&order) {
                    pair.1 = position;
                }
                s.apply(black_box(&mut pairs));
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("floor_key_once", |b| {
        b.iter_batched_ref(
            || shaped.clone(),
            |s| {
                let mut pairs = s.pairs();
                pairs.sort_unstable_by_key(|&(key, _)| key);
                s.apply(&mut pairs);
            },
            BatchSize::LargeInput,
        )
    });
    // The same keys and payloads (entity + component: 32 bytes a row) in one plain Vec.
    // The reference is `sort_unstable_by`, the same call shape as the storage sorts.
    #[allow(clippy::unnecessary_sort_by)]
    group.bench_function("vec_sort_unstable_by", |b| {
        b.iter_batched_ref(
            || plain.clone(),
            |v| v.sort_unstable_by(|a, b| a.0.cmp(&b.0)),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// A tag every sorted entity also has: the group `<Keyed, Tag>` owns both storages.
#[derive(Clone, Copy)]
#[allow(dead_code, reason = "moved by the sorts, never read")]
struct Tag(u32);
impl sparse_groups::Component for Tag {}
impl sparse_groups::Component for Keyed {}

#[sparse_groups::world]
#[group(Keyed, Tag)]
#[derive(Clone)]
struct Sorted {
    keyed: sparse_groups::Storage<Keyed>,
    tags: sparse_groups::Storage<Tag>,
}

/// Group sorts of 1M members: by comparator, by key, by radix key; one layer (no nested
/// group), so the figures compare with the storage sorts above.
fn group_sorting(c: &mut Criterion) {
    let mut world = Sorted::new();
    for (i, key) in shuffled_keys().into_iter().enumerate() {
        let payload = [i as u64; 2];
        world.spawn_with((Keyed { key, payload }, Tag(i as u32)));
    }
    let mut group = c.benchmark_group("sort_group_1m");
    group.throughput(Throughput::Elements(N as u64));
    group.sample_size(10);
    group.bench_function("sort_group", |b| {
        b.iter_batched_ref(
            || world.clone(),
            |w| w.sort_group::<(Keyed, Tag)>(|(a, _), (b, _)| a.key.cmp(&b.key)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("sort_group_by_key", |b| {
        b.iter_batched_ref(
            || world.clone(),
            |w| w.sort_group_by_key::<(Keyed, Tag), _>(|(c, _)| c.key),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("sort_group_by_radix_key", |b| {
        b.iter_batched_ref(
            || world.clone(),
            |w| w.sort_group_by_radix_key::<(Keyed, Tag), _>(|(c, _)| c.key),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, sorting, group_sorting);
criterion_main!(benches);
