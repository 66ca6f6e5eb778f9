//! What the generated steps do, computed once from the validated layout: for each storage
//! the steps adding and removing its component takes (which groups to enter or leave, in
//! order, with the storage's slot where the group owns it), the spawn and destroy orders,
//! and for each group its inner groups and what sorting it permutes.

use sparse_core::{GroupDecl, Layout, Step};

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
    /// `(outer, inner)` pairs of nested groups, for the invariant check.
    pub nesting: Vec<(usize, usize)>,
}

/// One group.
pub(crate) struct GroupPlan {
    /// Its declaration's index.
    pub decl_index: usize,
    /// Its owned, observed and excluded storages, in declaration order.
    pub decl: GroupDecl<usize>,
    /// The groups nested in it, from the next one in to the innermost.
    pub inner: Vec<usize>,
    /// The closest outer group keeping some of its owned storages aligned, with their
    /// slots (see `Layout::aligned_with_outer`).
    pub aligned: Option<(usize, Vec<usize>)>,
    /// What sorting it permutes: each storage with the group whose range it spans.
    pub sort_targets: Vec<(usize, usize)>,
    /// `<A, B, get(C)>`, for messages.
    pub name: String,
}

impl GroupPlan {
    /// Whether the group owns nothing: its members are kept in a set of their own.
    pub(crate) fn is_non_owning(&self) -> bool {
        self.decl.owned.is_empty()
    }

    /// Every storage the group names.
    pub(crate) fn storages(&self) -> impl Iterator<Item = usize> + '_ {
        self.decl
            .owned
            .iter()
            .chain(&self.decl.observed)
            .chain(&self.decl.excluded)
            .copied()
    }
}

/// One storage.
pub(crate) struct StoragePlan {
    /// Adding its component: leave the groups excluding it, enter the groups requiring it.
    pub on_add: Vec<Step>,
    /// Removing its component, before it goes: leave the groups requiring it.
    pub before_remove: Vec<Step>,
    /// Removing its component, once gone: enter the groups excluding it.
    pub after_remove: Vec<Step>,
    /// Whether it may be sorted on its own (no group owns it).
    pub sortable: bool,
}

impl GroupPlan {
    fn new(model: &Model<'_>, checked: &CheckedGroup) -> GroupPlan {
        GroupPlan {
            decl_index: checked.index,
            decl: checked.decl.clone(),
            inner: Vec::new(),
            aligned: None,
            sort_targets: Vec::new(),
            name: valid::display(&model.world.groups[checked.index]),
        }
    }
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
                inner: layout.inner_groups(g),
                aligned: layout.aligned_with_outer(g),
                sort_targets: layout
                    .sort_targets(g)
                    .iter()
                    .map(|(key, owner)| (model.storage(key).expect("stored"), *owner))
                    .collect(),
                ..GroupPlan::new(model, c)
            })
            .collect();
        let storages = model
            .storages
            .iter()
            .map(|storage| {
                let key = &storage.component.key;
                StoragePlan {
                    on_add: layout.on_add(key),
                    before_remove: layout.before_remove(key),
                    after_remove: layout.after_remove(key),
                    sortable: (0..groups.len()).all(|g| layout.slot(g, key).is_none()),
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

    /// A plan that maintains no group (see `fallback.rs`).
    pub(crate) fn without_steps(model: &Model<'_>, groups: &[&CheckedGroup]) -> Plan {
        Plan {
            groups: groups
                .iter()
                .enumerate()
                .map(|(g, c)| GroupPlan {
                    sort_targets: c.decl.owned.iter().map(|&s| (s, g)).collect(),
                    ..GroupPlan::new(model, c)
                })
                .collect(),
            storages: model
                .storages
                .iter()
                .map(|_| StoragePlan {
                    on_add: Vec::new(),
                    before_remove: Vec::new(),
                    after_remove: Vec::new(),
                    sortable: true,
                })
                .collect(),
            spawn_order: Vec::new(),
            destroy_order: Vec::new(),
            nesting: Vec::new(),
        }
    }
}
