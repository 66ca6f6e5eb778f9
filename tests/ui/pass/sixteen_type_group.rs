//! Groups, views and bundles of up to 16 types (as in sparsey and bevy).

use sparse_groups::{Component, Storage, world};

macro_rules! components {
    ($($t:ident),*) => { $( #[derive(Component, Debug, PartialEq)] struct $t(u32); )* };
}
components!(
    C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15
);

#[world]
#[group(C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15)]
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
}

type All = (
    C0,
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    C7,
    C8,
    C9,
    C10,
    C11,
    C12,
    C13,
    C14,
    C15,
);
type AllMut<'a> = (
    &'a mut C0,
    &'a C1,
    &'a C2,
    &'a C3,
    &'a C4,
    &'a C5,
    &'a C6,
    &'a C7,
    &'a C8,
    &'a C9,
    &'a C10,
    &'a C11,
    &'a C12,
    &'a C13,
    &'a C14,
    &'a mut C15,
);

pub fn main() {
    let mut w = Wide::new();
    let e = w.spawn_with((
        C0(0),
        C1(1),
        C2(2),
        C3(3),
        C4(4),
        C5(5),
        C6(6),
        C7(7),
        C8(8),
        C9(9),
        C10(10),
        C11(11),
        C12(12),
        C13(13),
        C14(14),
        C15(15),
    ));
    assert_eq!(w.group_len::<All>(), 1);
    let mut seen = 0;
    let view = w.view::<AllMut>();
    assert!(view.is_dense(), "the 16-type group drives the view");
    view.for_each(|_, refs| {
        assert_eq!(refs.15, &mut C15(15));
        seen += 1;
    });
    assert_eq!(seen, 1);
    w.remove::<C15>(e);
    assert_eq!(w.group_len::<All>(), 0);
    w.check().unwrap();
}
