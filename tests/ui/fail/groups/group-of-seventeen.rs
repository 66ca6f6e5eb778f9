use sparse_groups::{Component, Storage, world};

macro_rules! components {
    ($($t:ident),*) => { $( #[derive(Component)] struct $t(u32); )* };
}
components!(C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16);

#[world]
#[group(C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16)]
struct Wide {
    c0: Storage<C0>,
    c1: Storage<C1>,
    c2: Storage<C2>,
    c3: Storage<C3>,
    c4: Storage<C4>,
    c5: Storage<C5>,
    c6: Storage<C6>,
    c7: Storage<C7>,
    c8: Storage<C8>,
    c9: Storage<C9>,
    c10: Storage<C10>,
    c11: Storage<C11>,
    c12: Storage<C12>,
    c13: Storage<C13>,
    c14: Storage<C14>,
    c15: Storage<C15>,
    c16: Storage<C16>,
}

fn main() {
    let mut w = Wide::new();
    let e = w.spawn();
    w.insert(e, C0(0)).unwrap();
}
