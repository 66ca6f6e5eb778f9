//! A load fills the run-time world's storages by the types of the snapshot: a hand-made
//! `SnapshotTypes` could name the storages of some types and fill those of others.
//! `SnapshotTypes` is sealed.
use std::any::TypeId;

use sparse_groups::SnapshotTypes;

struct Everything;

impl SnapshotTypes for Everything {
    type Slots = ();
    fn empty_slots() {}
    fn type_ids() -> Vec<TypeId> {
        Vec::new()
    }
    fn resource_ids() -> Vec<TypeId> {
        Vec::new()
    }
    fn names() -> Vec<String> {
        Vec::new()
    }
    fn resource_names() -> Vec<String> {
        Vec::new()
    }
}

fn main() {}
