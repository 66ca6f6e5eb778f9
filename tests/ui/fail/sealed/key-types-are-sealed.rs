//! `Get<…>` and `Exclude<…>` in a group's key hold component types: a hand-made `Types`
//! could hand out a group's observed components as other types. `Types` is sealed.
use sparse_groups::Component;
use sparse_groups::__private::Types;

#[derive(Component)]
struct A(u32);

struct Pair;

impl Types for Pair {
    type Set = (A,);
    type RefsMut<'a> = &'a mut A;
    type Refs<'a> = &'a A;
    fn refs_mut<'a>(refs: (&'a mut A,)) -> &'a mut A
    where
        'a: 'a,
    {
        refs.0
    }
    fn refs<'a>(refs: (&'a A,)) -> &'a A
    where
        'a: 'a,
    {
        refs.0
    }
    fn shorten_mut<'a: 'b, 'b>(refs: &'a mut A) -> &'b mut A {
        refs
    }
}

fn main() {}
