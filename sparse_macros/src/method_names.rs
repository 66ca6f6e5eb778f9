//! The names of the methods every `#[world]` generates: one list, which `expand/methods.rs`
//! turns into its emitters and `valid.rs` checks field names against (an accessor named
//! like a method would shadow it).

/// Calls `$then!` with the name of every method `#[world]` generates, and `default` (from
/// the `Default` impl, which an accessor would shadow too). Each name is also the name of
/// the function emitting the method in `expand/methods.rs`.
macro_rules! with_generated_methods {
    ($then:ident) => {
        $then! {
            new default spawn spawn_with spawn_batch is_alive entities insert remove destroy
            despawn get tick removed get_mut contains storage values_mut group group_ref
            group_len sort_group sort_group_by_key sort_group_by_radix_key sort_group_by_entity
            sort_group_as sort
            sort_by_key sort_by_radix_key sort_as view view_ref borrow borrow_ref retain
            retain_component apply insert_many remove_many destroy_many clear check diagram resource
            resource_mut
        }
    };
}
pub(crate) use with_generated_methods;

/// Lists names as strings.
macro_rules! names {
    ($($method:ident)*) => {
        &[$(stringify!($method)),*]
    };
}

/// Every method `#[world]` generates, by name.
const GENERATED: &[&str] = with_generated_methods!(names);

/// Whether `name` is a method every generated world has.
pub(crate) fn is_generated(name: &str) -> bool {
    GENERATED.contains(&name)
}
