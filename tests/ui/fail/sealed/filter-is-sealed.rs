//! A filter declares the entity sets it reads, and the compile-time borrow rule trusts the
//! declaration: a hand-made `Filter` could read what it does not declare. `Filter` is
//! sealed (and one of its methods takes a type outside the crate's reach: the first
//! error).
use sparse_groups::Filter;

struct Anything;

impl Filter for Anything {}

fn main() {}
