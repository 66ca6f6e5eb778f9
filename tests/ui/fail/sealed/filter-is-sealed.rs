//! A view walks the entity sets its filter hands it, and a schedule orders systems by the
//! stamps a filter declares it watches: a hand-made `Filter` could hand out any set, or
//! watch what it does not declare. `Filter` is
//! sealed (and one of its methods takes a type outside the crate's reach: the first
//! error).
use sparse_groups::Filter;

struct Anything;

impl Filter for Anything {}

fn main() {}
