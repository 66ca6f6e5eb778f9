//! A set of component types reaches the storages of a run-time world, which change only
//! through the world's change methods: a hand-made `ComponentSet` could change them behind the
//! groups' back. `ComponentSet` is sealed (and one of its functions returns a type
//! outside the crate's reach: the first error).
use sparse_groups::__private::ComponentSet;

struct Set;

impl ComponentSet for Set {}

fn main() {}
