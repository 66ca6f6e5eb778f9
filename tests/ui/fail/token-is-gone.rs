//! Hole 4 of the soundness issue: a hand-made `Edit<T>` received the crate's `Token` in
//! `push_pending` and kept it, then filed one entity twice in a real world. No trait
//! method a user can implement receives a capability any more: the pending rows of a
//! spawn are only reached with the world's own key.
use sparse_groups::{Component, Edit, Entity, EntityError, InsertManyError};

#[derive(Component)]
struct A(u32);

struct Evil;

impl Edit<A> for Evil {
    fn insert(&mut self, _: Entity, _: A) -> Result<Option<A>, EntityError> {
        Ok(None)
    }
    fn remove(&mut self, _: Entity) -> Option<A> {
        None
    }
    fn insert_many(&mut self, _: Vec<(Entity, A)>) -> Result<usize, InsertManyError<A>> {
        Ok(0)
    }
    fn remove_many(&mut self, _: &[Entity]) -> usize {
        0
    }
    fn clear(&mut self) {}
    fn push_pending(&mut self, token: sparse_groups::__private::Token, _: A) {
        let _ = token;
    }
}

fn main() {}
