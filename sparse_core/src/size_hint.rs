//! What an iterator's size hint may reserve. A hint is a promise nobody checks: a lower
//! bound of 2⁴⁰ must not abort the process on a failed allocation, and one of a million
//! from an iterator that yields three must not leave megabytes reserved. So a hint
//! reserves at most [`CAP`] items, fallibly, and everything grows as items arrive
//! (amortized doubling, which for large arrays the allocator does by remapping pages).

/// The most items a size hint reserves room for.
pub(crate) const CAP: usize = 1 << 16;

/// `hint`, capped at [`CAP`].
#[inline]
pub(crate) fn capped(hint: usize) -> usize {
    hint.min(CAP)
}

/// A vector with room for `capacity` items if the allocator grants it, else empty.
pub(crate) fn vec_with_capacity<T>(capacity: usize) -> Vec<T> {
    let mut vec = Vec::new();
    // On failure, the vector simply grows as items arrive.
    let _ = vec.try_reserve_exact(capacity);
    vec
}

/// The items of `iter`, collected with room reserved for at most `CAP` of them up front
/// (`Vec::from_iter` and `Vec::extend` reserve whatever the hint claims).
pub fn collect<T>(iter: impl IntoIterator<Item = T>) -> Vec<T> {
    let iter = iter.into_iter();
    let mut vec = vec_with_capacity(capped(iter.size_hint().0));
    for item in iter {
        vec.push(item);
    }
    vec
}
