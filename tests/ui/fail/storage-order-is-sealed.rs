use sparse_groups::{Component, Storage, StorageOrder};

#[derive(Component)]
struct Depth(u32);

/// A hand-made order could move a storage's components without its entities.
struct Shuffled;

impl StorageOrder<Depth> for Shuffled {
    fn sort(self, storage: &mut Storage<Depth>) {
        let _ = storage;
    }
}

fn main() {}
