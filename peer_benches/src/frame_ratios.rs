//! Issue 50 part 1's ratio, measured frame by frame: the advised layout's frame against
//! bevy_ecs's, on the realistic frame (also with each port's render system branch-free,
//! `render_branch_free`, to see what `render`'s jump carries) and on the second
//! (`Mix::Halves`). The two run alternately in one process, so that a shared machine
//! whose speed drifts between criterion's rows slows both alike. Each round times one
//! frame of each; a round's ratio is the advised frame's time over bevy's, and the figure
//! is the median of the rounds' ratios, with its quartiles for the spread.
//!
//! Run inside the peer benchmark binary (the machine code criterion times), with
//! `PEERS_FRAME_RATIOS="<rounds> <entities>…"` set:
//!
//! ```sh
//! bash peer_benches/frame_ratios.sh 400 16384 65536 262144 1048576
//! ```

use std::hint::black_box;
use std::time::Instant;

use crate::bevy_impl;
use crate::components::frame::{Mix, run_systems, with_render};
use crate::ours::frame::{groups, halves};

/// What one comparison measured: per-frame medians in ns per entity, and the quartiles
/// of the rounds' ratios.
#[derive(Debug)]
pub struct Measured {
    /// The median frame of bevy's port, ns per entity.
    pub bevy: f64,
    /// The median frame of the advised port, ns per entity.
    pub advised: f64,
    /// The first quartile, median and third quartile of the rounds' ratios (advised over
    /// bevy).
    pub ratio: [f64; 3],
}

/// Runs `rounds` rounds, each one frame of `a` then one of `b` (the order swapped every
/// other round, so that neither always runs on caches the other left), over `n` entities.
pub(crate) fn alternate<A, B>(
    rounds: usize,
    n: usize,
    (mut a, systems_a): (A, [fn(&mut A); 7]),
    (mut b, systems_b): (B, [fn(&mut B); 7]),
) -> Measured {
    let mut took = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    let time = |run: &mut dyn FnMut()| {
        let started = Instant::now();
        run();
        started.elapsed().as_secs_f64() * 1e9 / n as f64
    };
    for round in 0..rounds {
        let mut frame_a = || run_systems(black_box(&mut a), &systems_a);
        let mut frame_b = || run_systems(black_box(&mut b), &systems_b);
        let (ta, tb) = if round % 2 == 0 {
            let ta = time(&mut frame_a);
            (ta, time(&mut frame_b))
        } else {
            let tb = time(&mut frame_b);
            (time(&mut frame_a), tb)
        };
        took[0].push(ta);
        took[1].push(tb);
    }
    let mut ratios: Vec<f64> = took[1].iter().zip(&took[0]).map(|(b, a)| b / a).collect();
    let quantile = |v: &mut Vec<f64>, q: f64| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q) as usize]
    };
    let [mut bevy, mut advised] = took;
    Measured {
        bevy: quantile(&mut bevy, 0.5),
        advised: quantile(&mut advised, 0.5),
        ratio: [0.25, 0.5, 0.75].map(|q| quantile(&mut ratios, q)),
    }
}

/// How a comparison draws: each port's render system as written, or with
/// `render_branch_free` (the same picture, no jump on the cell's maximum).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Render {
    /// `render`, as every frame row of the criterion bench runs it.
    AsWritten,
    /// `render_branch_free`, each port's `RENDER_BRANCH_FREE`.
    BranchFree,
}

/// The realistic frame of `n` entities: bevy's port against the advised layout
/// (`groups::setup_advised`, what `Schedule::advise` prints).
pub fn realistic(rounds: usize, n: usize, render: Render) -> Measured {
    let (mut bevy, mut advised) = (bevy_impl::frame::SYSTEMS, groups::SYSTEMS);
    if render == Render::BranchFree {
        bevy = with_render(bevy, bevy_impl::frame::RENDER_BRANCH_FREE);
        advised = with_render(advised, groups::RENDER_BRANCH_FREE);
    }
    alternate(
        rounds,
        n,
        (bevy_impl::frame::setup(n), bevy),
        (groups::setup_advised(n), advised),
    )
}

/// The second frame (`Mix::Halves`) of `n` entities: bevy's port against the advised
/// layout (`halves`, one chain), render as written.
pub fn second(rounds: usize, n: usize) -> Measured {
    alternate(
        rounds,
        n,
        (
            bevy_impl::frame::setup_in(n, Mix::Halves),
            bevy_impl::frame::SYSTEMS,
        ),
        (halves::setup_in(n, Mix::Halves), halves::SYSTEMS),
    )
}

/// Prints both frames' comparison at each of `sizes` (see the module's docs).
pub fn print(rounds: usize, sizes: &[usize]) {
    println!("{rounds} rounds; ns per entity (median frame); advised / bevy: median [p25, p75]");
    for &n in sizes {
        for (frame, measured) in [
            ("realistic", realistic(rounds, n, Render::AsWritten)),
            (
                "realistic, branch-free render",
                realistic(rounds, n, Render::BranchFree),
            ),
            ("second", second(rounds, n)),
        ] {
            let [low, median, high] = measured.ratio;
            println!(
                "{frame:29} {n:8}  bevy {:6.2}  advised {:6.2}  {median:.3}x [{low:.3}, {high:.3}]",
                measured.bevy, measured.advised
            );
        }
    }
}
