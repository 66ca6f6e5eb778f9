//! The documentation of the methods a `#[world]` and the run-time [`World`](crate::World)
//! share, one text per method: the world traits' methods (`Access`, `HasGroup`, `Unowned`,
//! `Edit`, …), the run-time `World`'s and the `#[world]` macro's (which reads this table
//! when it is compiled) all expand `method_doc!(name)`. What only a `#[world]` has (a
//! misuse that does not compile) is `method_doc!(static name)`, read by the traits (which
//! only `#[world]`s implement) and the macro; what only the run-time `World` has (its
//! `# Errors` for those misuses) is written on its methods.
//!
//! The texts render in the user's crate too, where this crate's paths do not resolve: no
//! intra-doc links, names in backticks.

/// The shared documentation of the world method `$name` (see the module).
#[doc(hidden)]
#[macro_export]
macro_rules! __method_doc {
    (spawn) => {
"Creates an entity with no component.

# Panics
Panics if every entity index is in use (or retired)."
    };
    (spawn_with) => {
"Spawns an entity with the components of `bundle` (a tuple of distinct stored types),
entering its groups."
    };
    (spawn_batch) => {
"Spawns one entity per bundle: every storage is reserved once, the bundles' components are
appended to their storages, each storage files the new entities in one pass, then the
entities enter their groups. If the iterator panics, the entities spawned so far stay
alive with no component."
    };
    (is_alive) => {
"Whether `entity` is alive (a stale handle is never taken for the entity now at its index)."
    };
    (entities) => {
"The entity allocator, read only."
    };
    (insert) => {
"Stores `components` for `entity`: one component, or a tuple of distinct ones (a bundle),
each through its change in tuple order: leaves the groups excluding the type (innermost
first), then enters the groups it now completes (outermost first). Returns what each
replaced: `Option<T>`, or a tuple of `Option`s (a replaced value changes no group).

# Errors
`EntityError::Dead` if `entity` is not alive; nothing is written.

# Panics
Panics if a storage already holds `u32::MAX` components."
    };
    (remove) => {
"Removes `entity`'s `C` (one type, or each type of a tuple, in order): leaves the groups
requiring it (innermost first), removes it, then enters the groups excluding it that the
entity now passes (outermost first). Returns what was removed: `Option<T>`, or a tuple of
`Option`s; absent components and dead entities give `None`."
    };
    (destroy) => {
"Destroys `entity`: leaves every group innermost first, drops its components, then frees
its index (with a new version for the next entity there).

# Errors
`EntityError::Dead` if `entity` is not alive; nothing changes."
    };
    (despawn) => {
"`destroy` under bevy's and hecs' name: deprecated from the start, so that calling it warns
with the name this crate uses.

# Errors
As `destroy`."
    };
    (get) => {
"`entity`'s `C`: `Option<&T>` for one type, `Option<(&A, &B, …)>` for a tuple (`None`
unless the entity has them all)."
    };
    (get_mut) => {
"`entity`'s `T` mutably (`get_mut::<T>`), or several components at once through a query
(`get_mut::<(&mut A, &B, Option<&mut C>)>`): `None` unless the entity has every required
one."
    };
    (contains) => {
"Whether `entity` has a `C` (each type of a tuple)."
    };
    (storage) => {
"The storage of `T`, read only."
    };
    (values_mut) => {
"The components of `T`, mutable, with their entities fixed: values can change, the
structure cannot."
    };
    (group) => {
"The group named by `K`: aligned slices of its owned components, lookups of its observed
ones."
    };
    (group_ref) => {
"The group named by `K`, read only: shared slices of its owned components, lookups of its
observed ones. Any number can be out at once, next to any other shared access."
    };
    (group_len) => {
"The number of entities in the group named by `K`."
    };
    (sort_group) => {
"Sorts the group named by `K` with a comparator over its members' items (as iterating the
group yields them), std's unstable sort (members with equal items may change places). An
owning group is sorted layer by layer so that the groups nested in it stay valid: their
entities stay in front, and each layer between two nested groups is sorted on its own (the
innermost group fully). A non-owning group sorts its member set.

# Panics
Passes on a panic of `compare`; the group is then left as it was."
    };
    (sort_group_by_key) => {
"Sorts the group named by `K` by a key read once per member, stably (members with equal
keys keep their order), layer by layer as `sort_group` does.

# Panics
Passes on a panic of `key` or of the key's `Ord`; the group is then left as it was."
    };
    (sort_group_by_radix_key) => {
"Sorts the group named by `K` by an integer or float key (see `RadixKey`; floats in
`f64::total_cmp`'s order) with a radix sort, stably, layer by layer as `sort_group` does.

# Panics
Passes on a panic of `key`; the group is then left as it was."
    };
    (sort_group_by_entity) => {
"Sorts the group named by `K` by entity (index), layer by layer as `sort_group` does: the
order the entities were created in, if none reused a destroyed one's index. Entering nested
groups moves members across each layer, while what a game spawns together is usually used
together (an archetype ECS keeps each table in spawn order): this puts the members back in
that order, so that a system whose work follows it (drawing what was spawned row by row)
walks it forward."
    };
    (sort_group_as) => {
"Sorts the group named by `K` in the order its members have in the storage of `T` (members
without a `T` after the others, in their order), layer by layer as `sort_group` does: a
system that walks the group and looks `T` up then reads `T` forward through memory instead
of at scattered places. Meant for a `T` owned by another group or by none; a `T` this
group or a group nested in it owns is already in the group's order. The order is read into
a table of 4 bytes per entity index up to `T`'s largest, as a sparse array holds it."
    };
    (sort) => {
"Sorts the storage of `T` with `compare`: the mixed strategy, std's unstable sort
(components that compare equal may change places). Only a storage no group owns sorts on
its own (for an owned one a `#[world]` does not compile the call): sort the group instead.

# Panics
Passes on a panic of `compare`; the storage is then left as it was."
    };
    (sort_by_key) => {
"Sorts the storage of `T`, which no group owns (see `sort`), by a key, stably (components
with equal keys keep their order): the keys are read into a vector and sorted there, as
`Storage::sort_by_cached_key` does. Input already sorted costs one read of the keys.

# Panics
Passes on a panic of `key` or of the key's `Ord`; the storage is then left as it was."
    };
    (sort_by_radix_key) => {
"Sorts the storage of `T`, which no group owns (see `sort`), by an integer or float key
(see `RadixKey`; floats in `f64::total_cmp`'s order) with a radix sort, stably. Input
already sorted costs one read of the keys.

# Panics
Passes on a panic of `key`; the storage is then left as it was."
    };
    (sort_as) => {
"Sorts the storage of `T`, which no group owns (see `sort`), in the order of the storage of
`U` (EnTT's `sort<T, U>`): the entities both hold first, in `U`'s order, then those `U`
lacks, in their order. A view driven by `U` then looks `T` up forward through memory."
    };
    (view) => {
"The entities matching the query `Q` (`&T`, `&mut T`, `Mut<T>`, `Option<…>` of those,
tuples of those), with their components: driven by the cheapest storage or group, dense
(plain slices) when a group matches it. Filters follow the query in the same tuple:
`view::<(&mut Position, &Velocity, Without<Frozen>)>()`."
    };
    (view_ref) => {
"A read-only view (`&T`, `Option<&T>`, filters last) through a shared reference."
    };
    (borrow) => {
"Borrows several parts at once: a tuple of `GroupMut<K>`, `GroupRef<K>`, `View<Q, F>`,
`ValuesMut<T>`, `&Storage<T>` and `&Entities`."
    };
    (borrow_ref) => {
"Borrows several read-only parts at once through a shared reference."
    };
    (resource) => {
"The world's resource of type `R`, read only."
    };
    (resource_mut) => {
"The world's resource of type `R`, mutably."
    };
    (retain) => {
"Destroys every entity matching `Q` for which `keep` returns `false`, in one pass over each
storage once the walk is over (as `destroy_many` does). Returns the number destroyed."
    };
    (retain_component) => {
"Removes `T` from every entity matching `Q` for which `keep` returns `false`, in bulk once
the walk is over (as `remove_many` does). Returns the number removed."
    };
    (apply) => {
"Applies `commands` in the order they were recorded, through the world's change methods,
and empties them. Commands about entities no longer alive are skipped and reported, never
applied to another entity at the same index."
    };
    (insert_many) => {
"Inserts every `(entity, value)`, as many `insert`s in a row would (a later value for the
same entity replaces an earlier one), but in bulk: each group step runs for every entity
before the next step. Returns the number of components added (the others replaced a
value). User hooks see the batch as one change per entity: one hook each once the batch
is in place, a replace hook given the value from before the batch.

# Errors
`InsertManyError` if an entity is not alive: nothing is written and every item is handed
back."
    };
    (remove_many) => {
"Removes `T` from each of `entities` that has one (others, and repeats, are skipped), as
many `remove`s in a row would, in bulk. Returns the number removed."
    };
    (destroy_many) => {
"Destroys every alive entity of `entities` (dead ones and repeats are skipped) in one pass
over each storage, which keeps the survivors' order: groups stay packed with no move, only
new lengths. Returns the number destroyed."
    };
    (clear) => {
"Removes every `T`: the groups requiring `T` are emptied at once."
    };
    (tick) => {
"Starts a new tick of change detection: from now on no component of a tracked type counts
as added or changed, and no entity as having lost one, until it is again. Call it once per
frame, after the systems that read changes."
    };
    (removed) => {
"The entities that lost their `T` since the last `tick`, in removal order (by `remove`,
`destroy`, `clear`, …; an entity that got a `T` back and lost it again is listed twice)."
    };
    (check) => {
"Checks every invariant of the world: storages consistent and holding only alive entities,
every group exactly the entities passing its filter (packed, or in its member set), nested
groups inside their outer groups.

# Errors
A description of the first broken invariant."
    };
    (diagram) => {
"A drawing of the world's storages and groups: each storage's packed entity array with a
marker where each group owning it ends, as the nested-groups article draws them; a table
of lengths for worlds too large to draw (see `Diagram`). Print it with `{}`; `{:#}` always
gives the table."
    };
    (static spawn_with) => {
"Naming a type twice does not compile."
    };
    (static get_mut) => {
"A query that writes a type twice, or writes and reads it, does not compile."
    };
    (static view) => {
        $crate::__method_doc!(static get_mut)
    };
    (static borrow) => {
"A request that borrows a type mutably twice, or mutably and shared, does not compile."
    };
    (static group) => {
"`K` is the group's key: its owned types in declaration order, then `Get<…>`, `Exclude<…>`."
    };
    (static tick) => {
"A no-op in a world that tracks nothing."
    };
}
