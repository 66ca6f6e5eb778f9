//! The realistic frame's seven systems timed one by one (the criterion bench times whole
//! frames): which system costs what in each port. Best of 30 frames per system, ns per
//! entity of the frame.
//!
//! ```sh
//! cargo run --release -p sparse_peer_benches --example frame_systems -- 1048576
//! cargo run --release -p sparse_peer_benches --example frame_systems -- 1048576 halves
//! cargo run --release -p sparse_peer_benches --example frame_systems -- 1048576 branch-free
//! ```
//!
//! With `halves`, the second frame's mix (`Mix::Halves`) and its ports; with
//! `branch-free`, each port's render system as it is and beside it with
//! `render_branch_free` (the same picture, no jump on the cell's maximum).
use sparse_peer_benches::{bevy_impl, ours, raw};
use std::time::Instant;

/// Runs 30 frames of `s`, timing each system, and prints the best time of each.
fn time<S>(name: &str, mut s: S, systems: [fn(&mut S); 7], n: usize) {
    let reps = 30;
    let mut best = [f64::MAX; 7];
    for _ in 0..reps {
        for (k, sys) in systems.iter().enumerate() {
            let t = Instant::now();
            sys(std::hint::black_box(&mut s));
            best[k] = best[k].min(t.elapsed().as_secs_f64() * 1e9 / n as f64);
        }
    }
    let total: f64 = best.iter().sum();
    println!(
        "{name:8} {}  total {total:.2}",
        best.iter()
            .map(|b| format!("{b:6.2}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1 << 20);
    println!("ns/entity   movement data more_cx health damage sprite render");
    if std::env::args().nth(2).as_deref() == Some("branch-free") {
        use sparse_peer_benches::components::frame::with_render;
        use sparse_peer_benches::ours::frame::groups;
        time("raw", raw::frame::setup(n), raw::frame::SYSTEMS, n);
        let raw_free = with_render(raw::frame::SYSTEMS, raw::frame::RENDER_BRANCH_FREE);
        time("raw bf", raw::frame::setup(n), raw_free, n);
        time(
            "bevy",
            bevy_impl::frame::setup(n),
            bevy_impl::frame::SYSTEMS,
            n,
        );
        let bevy_free = with_render(
            bevy_impl::frame::SYSTEMS,
            bevy_impl::frame::RENDER_BRANCH_FREE,
        );
        time("bevy bf", bevy_impl::frame::setup(n), bevy_free, n);
        time("advised", groups::setup_advised(n), groups::SYSTEMS, n);
        let advised_free = with_render(groups::SYSTEMS, groups::RENDER_BRANCH_FREE);
        time("adv. bf", groups::setup_advised(n), advised_free, n);
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("halves") {
        use sparse_peer_benches::components::frame::Mix::Halves;
        use sparse_peer_benches::ours::frame::{groups, halves, views};
        let bevy = bevy_impl::frame::setup_in(n, Halves);
        time("bevy", bevy, bevy_impl::frame::SYSTEMS, n);
        time("advised", halves::setup_in(n, Halves), halves::SYSTEMS, n);
        time("sorted", halves::setup_sorted(n), halves::SYSTEMS, n);
        time("groups", groups::setup_in(n, Halves), groups::SYSTEMS, n);
        time("views", views::setup_in(n, Halves), views::SYSTEMS, n);
        return;
    }
    time("raw", raw::frame::setup(n), raw::frame::SYSTEMS, n);
    time(
        "bevy",
        bevy_impl::frame::setup(n),
        bevy_impl::frame::SYSTEMS,
        n,
    );
    time(
        "groups",
        ours::frame::groups::setup(n),
        ours::frame::groups::SYSTEMS,
        n,
    );
    time(
        "advised",
        ours::frame::groups::setup_advised(n),
        ours::frame::groups::SYSTEMS,
        n,
    );
    time(
        "entt",
        ours::frame::entt::setup(n),
        ours::frame::entt::SYSTEMS,
        n,
    );
    time(
        "views",
        ours::frame::views::setup(n),
        ours::frame::views::SYSTEMS,
        n,
    );
}
