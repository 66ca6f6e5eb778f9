//! A resource is `Send + Sync + 'static`, as a component is: every world stays `Send + Sync`.
use std::rc::Rc;

use sparse_groups::{Resource, world};

#[derive(Default)]
struct Shared(Rc<u32>);

#[world]
struct Scene {
    shared: Resource<Shared>,
}

fn main() {}
