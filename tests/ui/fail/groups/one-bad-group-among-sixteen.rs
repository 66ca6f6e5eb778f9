use sparse_groups::{Component, Storage, world};

macro_rules! components {
    ($($t:ident),*) => { $( #[derive(Component)] struct $t(u32); )* };
}
components!(C1, C2, C3, C4, C5, C6, C7, C8, D1, D2, D3, D4, E1, E2, E3, F1, F2, G1, G2, H1, H2);

/// A seven-deep chain, four more families, and one group (`<C3, C8>`) crossing the chain.
#[world]
#[group(C1, C2)]
#[group(C1, C2, C3)]
#[group(C1, C2, C3, C4)]
#[group(C1, C2, C3, C4, C5)]
#[group(C1, C2, C3, C4, C5, C6)]
#[group(C1, C2, C3, C4, C5, C6, C7)]
#[group(C1, C2, C3, C4, C5, C6, C7, C8)]
#[group(C3, C8)]
#[group(D1, D2)]
#[group(D1, D2, D3)]
#[group(D1, D2, D3, D4)]
#[group(E1, E2)]
#[group(F1, F2)]
#[group(G1, G2)]
#[group(H1, H2)]
#[group(E1, E2, E3)]
struct Big {
    c1: Storage<C1>,
    c2: Storage<C2>,
    c3: Storage<C3>,
    c4: Storage<C4>,
    c5: Storage<C5>,
    c6: Storage<C6>,
    c7: Storage<C7>,
    c8: Storage<C8>,
    d1: Storage<D1>,
    d2: Storage<D2>,
    d3: Storage<D3>,
    d4: Storage<D4>,
    e1: Storage<E1>,
    e2: Storage<E2>,
    e3: Storage<E3>,
    f1: Storage<F1>,
    f2: Storage<F2>,
    g1: Storage<G1>,
    g2: Storage<G2>,
    h1: Storage<H1>,
    h2: Storage<H2>,
}

fn main() {
    let mut big = Big::new();
    let e = big.spawn();
    big.insert(e, C1(1)).unwrap();
    // Code using the correct groups still type-checks: one error, on the bad group.
    let _ = big.group_len::<(C1, C2, C3)>();
}
