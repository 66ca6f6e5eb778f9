//! A hand-made storage order could move a storage's components without their entities.
//! `StorageOrder` is sealed.
use sparse_groups::__private::StorageOrder;
use sparse_groups::{Component, Storage};

#[derive(Component)]
struct Depth(u32);

struct Shuffled;

impl StorageOrder<Depth> for Shuffled {
    fn sort(self, storage: &mut Storage<Depth>) {
        let _ = storage;
    }
}

fn main() {}
