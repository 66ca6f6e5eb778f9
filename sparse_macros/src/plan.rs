//! What the generated hooks do, computed once from the validated layout: for each storage
//! the groups its component enters (in order, with the storage's slot in each), the spawn
//! and destroy orders, and for each group its inner groups and what sorting it permutes.

use sparse_core::Layout;

use crate::ast::TypeKey;
use crate::valid::{self, CheckedGroup, Model};

/// The plan of a world.
pub(crate) struct Plan {
    /// The groups that get access impls, in declaration order.
    pub groups: Vec<GroupPlan>,
    /// Per storage (in field order).
    pub storages: Vec<StoragePlan>,
    /// Every group, outer groups first: what a new entity with a bundle tests-and-enters.
    pub spawn_order: Vec<usize>,
    /// Every group, innermost first: what destroying an entity leaves.
    pub destroy_order: Vec<usize>,
    /// `(outer, inner)` pairs of directly nested groups, for the invariant check.
    pub nesting: Vec<(usize, usize)>,
}

/// One group.
pub(crate) struct GroupPlan {
    /// Its declaration's index.
    pub decl: usize,
    /// Its owned storages, in declaration order.
    pub storages: Vec<usize>,
    /// The groups nested in it, from the next one in to the innermost.
    pub inner: Vec<usize>,
    /// What sorting it permutes: each storage with the group whose range it spans.
    pub sort_targets: Vec<(usize, usize)>,
    /// `<A, B>`, for messages.
    pub name: String,
}

/// One storage.
pub(crate) struct StoragePlan {
    /// The groups owning it, outer groups first, each with the storage's slot among the
    /// group's owned storages: what adding its component tests-and-enters, and (reversed)
    /// what removing it leaves.
    pub enter: Vec<(usize, usize)>,
    /// Whether it may be sorted on its own (no group owns it).
    pub sortable: bool,
}

impl Plan {
    /// The plan of a world whose groups are all sound: `checked` holds every group, in
    /// declaration order, and `layout` was validated from them.
    pub(crate) fn new(
        model: &Model<'_>,
        checked: &[CheckedGroup],
        layout: &Layout<TypeKey>,
    ) -> Plan {
        let groups: Vec<GroupPlan> = checked
            .iter()
            .enumerate()
            .map(|(g, c)| GroupPlan {
                decl: c.index,
                storages: c.storages.clone(),
                inner: layout.inner_groups(g),
                sort_targets: layout
                    .sort_targets(g)
                    .iter()
                    .map(|(key, owner)| (model.storage(key).expect("stored"), *owner))
                    .collect(),
                name: valid::display(&model.world.groups[c.index]),
            })
            .collect();
        let storages = model
            .storages
            .iter()
            .map(|storage| {
                let key = &storage.component.key;
                let enter: Vec<(usize, usize)> = layout
                    .enter_order(key)
                    .into_iter()
                    .map(|g| (g, layout.slot(g, key).expect("the group owns the type")))
                    .collect();
                StoragePlan {
                    sortable: enter.is_empty(),
                    enter,
                }
            })
            .collect();
        Plan {
            groups,
            storages,
            spawn_order: layout.spawn_order(),
            destroy_order: layout.destroy_order(),
            nesting: layout.nesting(),
        }
    }
}
