//! Peer comparison for the `sparse` crate: the same workloads written against
//! sparsey, hecs, shipyard, bevy_ecs and plain `Vec`s, wired to criterion by
//! `benches/peers.rs` (run it with `bash peer_benches/run.sh`).
//!
//! Every library module has one submodule per workload, each with a
//! `setup(..) -> State` and a `run(&mut State)`; `setup` is never timed.

pub mod bevy_impl;
pub mod components;
pub mod frame_ratios;
pub mod hecs_impl;
pub mod instructions;
pub mod ours;
pub mod raw;
pub mod shipyard_impl;
pub mod sparsey_impl;

#[cfg(test)]
mod tests;
