//! A query declares the storages it borrows, and the compile-time borrow rule trusts the
//! declaration: a hand-made `Query` could declare less than it takes. `Query` is sealed
//! (and one of its methods takes a type outside the crate's reach: the first error).
use sparse_groups::Query;

struct Everything;

impl Query for Everything {}

fn main() {}
