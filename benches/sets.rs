//! The table of the sparse-sets article reproduced: a sparse set against `HashSet` and a
//! bit set for is-member, add, clear and iterate, at several densities of a universe of
//! 1,000,000 ids.

use std::collections::HashSet;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sparse_groups::{Entity, SparseSet};

const UNIVERSE: u32 = 1_000_000;

/// A fixed-size bit set over the universe, as in the article.
#[derive(Clone)]
struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    fn new(universe: u32) -> Self {
        BitSet {
            words: vec![0; universe.div_ceil(64) as usize],
        }
    }
    fn insert(&mut self, id: u32) {
        self.words[(id / 64) as usize] |= 1 << (id % 64);
    }
    fn contains(&self, id: u32) -> bool {
        self.words[(id / 64) as usize] & (1 << (id % 64)) != 0
    }
    fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros();
                    w &= w - 1;
                    i as u32 * 64 + bit
                })
            })
        })
    }
}

fn ids(density_percent: u32) -> Vec<u32> {
    let step = 100 / density_percent;
    let mut ids: Vec<u32> = (0..UNIVERSE).step_by(step as usize).collect();
    // Scatter insertion order deterministically.
    let mut state = 88_172_645_463_325_252u64;
    for i in (1..ids.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ids.swap(i, (state % (i as u64 + 1)) as usize);
    }
    ids
}

fn entity(id: u32) -> Entity {
    Entity::from_raw_parts(id, 1).expect("valid id")
}

/// Short, equal measurement settings for every cell of the table (48 of them).
fn configure(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
}

fn sets(c: &mut Criterion) {
    for density in [1u32, 10, 50, 100] {
        let ids = ids(density);
        let probes: Vec<u32> = (0..100_000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) % UNIVERSE)
            .collect();
        let sparse: SparseSet = ids.iter().map(|&i| entity(i)).collect::<SparseSet>();
        let hash: HashSet<u32> = ids.iter().copied().collect();
        let mut bits = BitSet::new(UNIVERSE);
        ids.iter().for_each(|&i| bits.insert(i));

        let mut group = c.benchmark_group(format!("set_is_member_{density}pct"));
        configure(&mut group);
        group.throughput(Throughput::Elements(probes.len() as u64));
        group.bench_function("sparse_set", |b| {
            b.iter(|| {
                probes
                    .iter()
                    .filter(|&&i| sparse.contains(entity(i)))
                    .count()
            })
        });
        group.bench_function("hash_set", |b| {
            b.iter(|| probes.iter().filter(|&&i| hash.contains(&i)).count())
        });
        group.bench_function("bit_set", |b| {
            b.iter(|| probes.iter().filter(|&&i| bits.contains(i)).count())
        });
        group.finish();

        let mut group = c.benchmark_group(format!("set_add_{density}pct"));
        configure(&mut group);
        group.throughput(Throughput::Elements(ids.len() as u64));
        group.bench_function("sparse_set", |b| {
            b.iter_batched_ref(
                SparseSet::new,
                |s| ids.iter().for_each(|&i| _ = s.insert(entity(i))),
                BatchSize::LargeInput,
            )
        });
        group.bench_function("hash_set", |b| {
            b.iter_batched_ref(
                HashSet::new,
                |s| ids.iter().for_each(|&i| _ = s.insert(i)),
                BatchSize::LargeInput,
            )
        });
        group.bench_function("bit_set", |b| {
            b.iter_batched_ref(
                || BitSet::new(UNIVERSE),
                |s| ids.iter().for_each(|&i| s.insert(i)),
                BatchSize::LargeInput,
            )
        });
        group.finish();

        let mut group = c.benchmark_group(format!("set_clear_{density}pct"));
        configure(&mut group);
        group.bench_function("sparse_set", |b| {
            b.iter_batched_ref(|| sparse.clone(), |s| s.clear(), BatchSize::LargeInput)
        });
        group.bench_function("hash_set", |b| {
            b.iter_batched_ref(|| hash.clone(), |s| s.clear(), BatchSize::LargeInput)
        });
        group.bench_function("bit_set", |b| {
            b.iter_batched_ref(|| bits.clone(), |s| s.clear(), BatchSize::LargeInput)
        });
        group.finish();

        let mut group = c.benchmark_group(format!("set_iterate_{density}pct"));
        configure(&mut group);
        group.throughput(Throughput::Elements(ids.len() as u64));
        group.bench_with_input(BenchmarkId::new("sparse_set", density), &sparse, |b, s| {
            b.iter(|| s.iter().map(|e| u64::from(e.index())).sum::<u64>())
        });
        group.bench_function("hash_set", |b| {
            b.iter(|| hash.iter().map(|&i| u64::from(i)).sum::<u64>())
        });
        group.bench_function("bit_set", |b| {
            b.iter(|| bits.iter().map(u64::from).sum::<u64>())
        });
        group.finish();
        black_box(());
    }
}

criterion_group!(benches, sets);
criterion_main!(benches);
