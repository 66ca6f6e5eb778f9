//! A system does not read the messages it writes: a writer and a reader of one type are
//! the resource `Messages<E>` written and read by one system.
use sparse_groups::{MessageReader, MessageWriter, Messages, Resource, Schedule, world};

struct Hit(u32);

#[world]
struct Scene {
    hits: Resource<Messages<Hit>>,
}

fn echo(mut out: MessageWriter<'_, Hit>, mut hits: MessageReader<'_, Hit>) {
    let again: Vec<u32> = hits.read().map(|hit| hit.0).collect();
    out.extend(again.into_iter().map(Hit));
}

fn main() {
    let mut scene = Scene::new();
    Schedule::new((echo,)).run(&mut scene);
}
