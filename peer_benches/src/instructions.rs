//! Fixed amounts of `sparse_groups` work, for counting instructions with callgrind (stable
//! on a noisy machine, unlike time): run a workload for two numbers of repetitions and
//! divide the difference by the extra work, so that setup cancels out.
//!
//! The peer benchmark binary runs them itself (its `main` reads `PEERS_INSTRUCTIONS`), so
//! that the count is of the machine code the criterion rows time, inlined as that large
//! binary inlines it; `bash peer_benches/instructions.sh <workload>…` builds it, runs each
//! workload under callgrind at 2 and 12 repetitions and prints the count per repetition.
//! The `instructions` example runs the same table in a small binary.
//!
//! Workloads: `w1` (group slices), `w1fe` (group `for_each`), `w1v` / `w1vfor` (W1 with no
//! group: the view's `for_each` / a `for` loop over it), `w2`, `w3`, `w4`, `ar`
//! (ecs_bench_suite add/remove), `w5p` (partial-owning group), `w5x` (owning group with an
//! exclusion), `w6` (an excluded tag added and removed through three groups), `w3world` (W3
//! in the run-time `World`), `w3plain` / `w3world_plain` (W3's adds and removes with no
//! group, in a `#[world]` / the run-time `World`: the storages' own work), `w4_each` / `w4world_each` (`spawn_with`, one call per entity,
//! in the `#[world]` / the run-time `World`), `changed` / `changed_all` (a `Changed` view
//! over 100k positions, 1% / all of them written), `frame_views` / `frame_entt` /
//! `frame_groups` / `frame_advised` (one realistic frame of 65,536 entities, no group /
//! EnTT's two flat groups / the best nested groups, by hand / as `Schedule::advise` prints),
//! `frame_bevy` / `frame_raw` (the same frame in bevy_ecs / in plain `Vec`s per kind: the
//! references to count beside them, instructions and, with cachegrind, cache misses),
//! `frame_halves_advised` / `frame_halves_bevy` (the second frame, `Mix::Halves`, of
//! 65,536 entities, laid out as the advice prints / in bevy_ecs),
//! `frame_in_order` / `frame_scheduled_one` (the frame's systems at 16,384 entities called
//! in order / through its `Schedule`, every stage on the calling thread: the schedule's
//! own cost), `schedule` / `schedule_scheduled` (ecs_bench_suite
//! `schedule`'s three systems, `rayon::join` by hand / a `Schedule`), `marking_w1` /
//! `marking_w1_guard` (W1 over 100k tracked positions through `&mut` / `Mut`),
//! `marking_sparse` / `marking_sparse_guard` (a pass writing 1% of them, then a `Changed`
//! view, through `&mut` / `Mut`), `overlap` / `overlap_for` / `overlap_iter` (`view_overlap` by
//! `for_each` / a `for` loop / `iter().map(…).sum()`), `w1viter` (W1 with no group by
//! `iter_mut().for_each`), `overlap_floor_for` / `overlap_floor_skip` / `overlap_floor_runs` (the same
//! `for` loop over two bare paged sparse sets, the floor of a view's iterator: a lookup
//! per walked entity / the pages the looked-up set lacks skipped / runs read by position), `save` / `load` (`serde_3deep`'s postcard snapshot of 1M
//! entities, written / read; use 1 and 3 repetitions: the setup is large), `save_world` /
//! `load_world` (the same in the run-time `World`), `hecs_save` / `hecs_load` (the same
//! snapshot in hecs' columns, for profiles side by side).

use std::hint::black_box;

use crate::components::sizes;
use crate::{ours, raw};

/// The workloads' names, for usage messages.
pub const WORKLOADS: &str = "w1|w1fe|w1v|w1vfor|w2|w3|w3world|w3plain|w3world_plain|w4|w4_each|w4world_each|ar|w5p|w5x|w5v|w5vfor|w6|overlap|overlap_for|overlap_iter|overlap_scrambled|overlap_scrambled_for|w1viter|overlap_floor_for|overlap_floor_skip|overlap_floor_runs|save|load|save_world|load_world|hecs_save|hecs_load|changed|changed_all|marking_w1|marking_w1_guard|marking_sparse|marking_sparse_guard|frame_views|frame_bevy|frame_raw|frame_entt|frame_groups|frame_advised|frame_halves_advised|frame_halves_bevy|frame_in_order|frame_scheduled_one|schedule|schedule_scheduled";

/// Runs `workload` `reps` times on one state built once (`w4*`: a state per repetition).
///
/// # Errors
/// If `workload` is not one of [`WORKLOADS`].
pub fn run(workload: &str, reps: usize) -> Result<(), String> {
    macro_rules! repeat {
        ($module:path, $n:expr, $run:ident) => {{
            use $module as m;
            let mut s = m::setup($n);
            for _ in 0..reps {
                m::$run(black_box(&mut s));
            }
        }};
    }
    match workload {
        "w1" => repeat!(ours::w1, sizes::W1, run),
        "w1fe" => repeat!(ours::w1, sizes::W1, run_for_each),
        "w1v" => repeat!(ours::w1::nogroup, sizes::W1, run),
        "w1vfor" => repeat!(ours::w1::nogroup, sizes::W1, run_for),
        "w2" => repeat!(ours::w2, sizes::W2, run),
        "w3" => repeat!(ours::w3, sizes::W3, run),
        "ar" => repeat!(ours::add_remove, sizes::ADD_REMOVE, run),
        "w5p" => repeat!(ours::w5::partial, sizes::W5, run),
        "w5x" => repeat!(ours::w5::owning_exclude, sizes::W5, run),
        "w5v" => repeat!(ours::w5::view_plain, sizes::W5, run),
        "w5vfor" => repeat!(ours::w5::view_plain, sizes::W5, run_for),
        "w6" => repeat!(ours::w6, sizes::W6, run),
        "w3world" => repeat!(ours::w3::dynamic, sizes::W3, run),
        "w3plain" => repeat!(ours::w3::nogroup, sizes::W3, run),
        "w3world_plain" => repeat!(ours::w3::nogroup::dynamic, sizes::W3, run),
        "overlap" => repeat!(ours::view_overlap, sizes::VIEW_OVERLAP, run),
        "overlap_for" => repeat!(ours::view_overlap, sizes::VIEW_OVERLAP, run_for),
        "overlap_iter" => repeat!(ours::view_overlap, sizes::VIEW_OVERLAP, run_iter),
        "overlap_scrambled" => repeat!(ours::view_overlap::scrambled, sizes::VIEW_OVERLAP, run),
        "overlap_scrambled_for" => {
            repeat!(ours::view_overlap::scrambled, sizes::VIEW_OVERLAP, run_for)
        }
        "w1viter" => repeat!(ours::w1::nogroup, sizes::W1, run_iter),
        "overlap_floor_for" => repeat!(raw::view_overlap_sparse, sizes::VIEW_OVERLAP, run_for),
        "overlap_floor_skip" => {
            repeat!(raw::view_overlap_sparse, sizes::VIEW_OVERLAP, run_for_skip)
        }
        "overlap_floor_runs" => {
            repeat!(raw::view_overlap_sparse, sizes::VIEW_OVERLAP, run_for_runs)
        }
        "marking_w1" => repeat!(ours::marking, 100_000, run_w1),
        "marking_w1_guard" => repeat!(ours::marking, 100_000, run_w1_guard),
        "marking_sparse" | "marking_sparse_guard" => {
            let mut s = ours::marking::setup(100_000);
            for _ in 0..reps {
                black_box(if workload == "marking_sparse" {
                    ours::marking::run_sparse(black_box(&mut s))
                } else {
                    ours::marking::run_sparse_guard(black_box(&mut s))
                });
            }
        }
        "frame_views" => repeat!(ours::frame::views, 1 << 16, run),
        "frame_bevy" => repeat!(crate::bevy_impl::frame, 1 << 16, run),
        "frame_raw" => repeat!(raw::frame, 1 << 16, run),
        "frame_entt" => repeat!(ours::frame::entt, 1 << 16, run),
        "frame_groups" => repeat!(ours::frame::groups, 1 << 16, run),
        "frame_in_order" | "frame_scheduled_one" => {
            use ours::frame::scheduled as f;
            let mut s = f::setup_with(1 << 14, sparse_groups::Threads::One);
            for _ in 0..reps {
                if workload == "frame_in_order" {
                    f::run_in_order(black_box(&mut s));
                } else {
                    f::run(black_box(&mut s));
                }
            }
        }
        "frame_advised" => {
            let mut s = ours::frame::groups::setup_advised(1 << 16);
            for _ in 0..reps {
                ours::frame::groups::run(black_box(&mut s));
            }
        }
        "frame_halves_advised" => {
            use ours::frame::halves as f;
            let mut s = f::setup_in(1 << 16, crate::components::frame::Mix::Halves);
            for _ in 0..reps {
                f::run(black_box(&mut s));
            }
        }
        "frame_halves_bevy" => {
            use crate::bevy_impl::frame as f;
            let mut s = f::setup_in(1 << 16, crate::components::frame::Mix::Halves);
            for _ in 0..reps {
                f::run(black_box(&mut s));
            }
        }
        "changed" | "changed_all" => {
            let stride = if workload == "changed" { 100 } else { 1 };
            let mut s = ours::changed::setup(100_000, stride);
            for _ in 0..reps {
                black_box(ours::changed::run(black_box(&mut s)));
            }
        }
        "save" | "load" => {
            use crate::components::saved::Order;
            let s = ours::serde_3deep::setup(sizes::SERDE, Order::Blocks);
            for _ in 0..reps {
                if workload == "save" {
                    drop(black_box(ours::serde_3deep::run_save(black_box(&s))));
                } else {
                    drop(black_box(ours::serde_3deep::run_load(black_box(&s))));
                }
            }
        }
        "hecs_save" | "hecs_load" => {
            use crate::components::saved::Order;
            use crate::hecs_impl::serde_3deep as h;
            let s = h::setup(sizes::SERDE, Order::Blocks);
            for _ in 0..reps {
                if workload == "hecs_save" {
                    drop(black_box(h::run_save(black_box(&s))));
                } else {
                    drop(black_box(h::run_load(black_box(&s))));
                }
            }
        }
        "save_world" | "load_world" => {
            use crate::components::saved::Order;
            use ours::serde_3deep::dynamic;
            let s = dynamic::setup(sizes::SERDE, Order::Blocks);
            for _ in 0..reps {
                if workload == "save_world" {
                    drop(black_box(dynamic::run_save(black_box(&s))));
                } else {
                    drop(black_box(dynamic::run_load(black_box(&s))));
                }
            }
        }
        "w4world_each" => {
            for _ in 0..reps {
                let mut s = ours::w4::dynamic::setup(sizes::W4);
                ours::w4::dynamic::run_each(black_box(&mut s));
            }
        }
        "schedule" | "schedule_scheduled" => {
            let mut s = ours::schedule::setup();
            for _ in 0..reps {
                if workload == "schedule" {
                    ours::schedule::run(black_box(&mut s));
                } else {
                    ours::schedule::run_scheduled(black_box(&mut s));
                }
            }
        }
        "w4_each" => {
            for _ in 0..reps {
                let mut s = ours::w4::setup(sizes::W4);
                ours::w4::run_each(black_box(&mut s));
            }
        }
        "w4" => {
            for _ in 0..reps {
                let mut s = ours::w4::setup(sizes::W4);
                ours::w4::run(black_box(&mut s));
            }
        }
        other => return Err(format!("unknown workload {other}")),
    }
    Ok(())
}
