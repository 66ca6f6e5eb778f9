//! The compile-pass cases: layouts and forms that must compile and run, one module per
//! case (each file of this folder but this one), built with the other tests. A case that
//! stops compiling fails this target's build; each runs its checks below. `tests/ui.rs`
//! fails when a file of this folder is not a module here, and runs trybuild on the
//! compile-fail cases only.

mod access_forms;
mod any_order;
mod cfg_fields;
mod derives;
mod exclude_chain;
mod facade_only;
mod game_layout;
mod no_groups;
mod non_owning_groups;
mod partial_in_full_owning;
mod pub_world_in_module;
mod sixteen_type_group;
mod three_deep_chain;
mod tree_family;
mod two_families;
mod types_through_macro_rules;
mod world_in_function_body;

fn main() {
    access_forms::main();
    any_order::main();
    cfg_fields::main();
    derives::main();
    exclude_chain::main();
    facade_only::main();
    game_layout::main();
    no_groups::main();
    non_owning_groups::main();
    partial_in_full_owning::main();
    pub_world_in_module::main();
    sixteen_type_group::main();
    three_deep_chain::main();
    tree_family::main();
    two_families::main();
    types_through_macro_rules::main();
    world_in_function_body::main();
}
