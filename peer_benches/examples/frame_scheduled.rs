//! The realistic frame's systems called in order and through their `Schedule` (measured,
//! always on the calling thread, always on threads), and bevy's schedule on its single-
//! and multi-threaded executors, run interleaved frame by frame in one process: on a
//! shared machine whose speed drifts between criterion's rows, each frame of a kind is
//! timed beside one of every other kind. Prints the minimum, the first quartile and the
//! median per kind, and each median's ratio to the systems called in order.
//!
//! ```sh
//! cargo run --release -p sparse_peer_benches --example frame_scheduled -- 16384
//! cargo run --release -p sparse_peer_benches --example frame_scheduled -- 1048576 200
//! ```
//!
//! The second argument is the number of rounds (3000 by default).
use sparse_groups::Threads;
use sparse_peer_benches::bevy_impl::frame::scheduled as bevy;
use sparse_peer_benches::ours::frame::scheduled as ours;
use std::time::Instant;

/// One kind of frame: its name, and a frame of it to run.
struct Kind {
    name: &'static str,
    frame: Box<dyn FnMut()>,
    took: Vec<f64>,
}

impl Kind {
    fn new<S: 'static>(name: &'static str, mut state: S, run: fn(&mut S)) -> Self {
        Kind {
            name,
            frame: Box::new(move || run(std::hint::black_box(&mut state))),
            took: Vec::new(),
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16_384);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3000);
    let mut kinds = [
        Kind::new("in order", ours::setup(n), ours::run_in_order),
        Kind::new("scheduled", ours::setup(n), ours::run),
        Kind::new(
            "scheduled, one thread",
            ours::setup_with(n, Threads::One),
            ours::run,
        ),
        Kind::new(
            "scheduled, on threads",
            ours::setup_with(n, Threads::Many),
            ours::run,
        ),
        Kind::new("bevy single-threaded", bevy::setup_single(n), bevy::run),
        Kind::new("bevy multi-threaded", bevy::setup(n), bevy::run),
    ];
    for _ in 0..rounds {
        for kind in &mut kinds {
            let started = Instant::now();
            (kind.frame)();
            kind.took.push(started.elapsed().as_secs_f64() * 1e6);
        }
    }
    let quantile = |took: &[f64], q: f64| took[((took.len() - 1) as f64 * q) as usize];
    let mut in_order = None;
    println!("{n} entities, {rounds} rounds, µs per frame");
    for kind in &mut kinds {
        kind.took.sort_by(f64::total_cmp);
        let median = quantile(&kind.took, 0.5);
        let base = *in_order.get_or_insert(median);
        println!(
            "{:24} min {:9.1}  p25 {:9.1}  median {:9.1}  {:.2}x in order",
            kind.name,
            quantile(&kind.took, 0.0),
            quantile(&kind.took, 0.25),
            median,
            median / base
        );
    }
}
