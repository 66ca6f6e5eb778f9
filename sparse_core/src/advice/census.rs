//! What occurs together on a world's entities: each distinct set of component types an
//! entity holds (its *kind*), with how many entities hold exactly that set.
//!
//! ```text
//! storages:  Pos  Vel  Data  Sprite
//! e0         x    x          x        kind {Pos, Vel, Sprite}: 2
//! e1         x         x     x        kind {Pos, Data, Sprite}: 1
//! e2         x    x          x
//! ```
//!
//! A view's matches are the entities of every kind holding its required types and none of
//! its excluded ones; the types every such kind holds are what the view could require too
//! without losing a match (its *closure*, for the entities in the world now).

use std::collections::HashMap;

use crate::change::steps::WorldInfo;
use crate::component::ComponentKey;

/// A set of storages of one world, by index: one bit each.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Types(Vec<u64>);

impl Types {
    /// The empty set, for a world of `storages` storages.
    pub(crate) fn empty(storages: usize) -> Self {
        Types(vec![0; storages.div_ceil(64).max(1)])
    }

    /// The set of `members`, for a world of `storages` storages.
    pub(crate) fn of(storages: usize, members: impl IntoIterator<Item = usize>) -> Self {
        let mut set = Self::empty(storages);
        for member in members {
            set.insert(member);
        }
        set
    }

    pub(crate) fn insert(&mut self, member: usize) {
        self.0[member / 64] |= 1 << (member % 64);
    }

    pub(crate) fn contains(&self, member: usize) -> bool {
        self.0[member / 64] >> (member % 64) & 1 == 1
    }

    pub(crate) fn is_subset(&self, of: &Types) -> bool {
        self.0.iter().zip(&of.0).all(|(a, b)| a & !b == 0)
    }

    pub(crate) fn is_disjoint(&self, from: &Types) -> bool {
        self.0.iter().zip(&from.0).all(|(a, b)| a & b == 0)
    }

    #[must_use]
    pub(crate) fn union(&self, other: &Types) -> Types {
        Types(self.0.iter().zip(&other.0).map(|(a, b)| a | b).collect())
    }

    #[must_use]
    pub(crate) fn intersection(&self, other: &Types) -> Types {
        Types(self.0.iter().zip(&other.0).map(|(a, b)| a & b).collect())
    }

    #[must_use]
    pub(crate) fn difference(&self, other: &Types) -> Types {
        Types(self.0.iter().zip(&other.0).map(|(a, b)| a & !b).collect())
    }

    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The members, in index order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            (0..64)
                .filter(move |bit| word >> bit & 1 == 1)
                .map(move |bit| w * 64 + bit)
        })
    }
}

/// A world's storages and the kinds of its entities.
pub(crate) struct Census {
    /// Each storage's component type.
    pub(crate) keys: Vec<ComponentKey>,
    /// Each storage's length.
    pub(crate) lens: Vec<usize>,
    /// Each kind of entity and how many entities are of it, most common first.
    pub(crate) kinds: Vec<(Types, usize)>,
}

impl Census {
    /// The census of the world `info` describes.
    pub(crate) fn of(info: &WorldInfo<'_>) -> Census {
        let storages = info.storages.len();
        let words = storages.div_ceil(64).max(1);
        let bound = info.entities.index_bound();
        // Each index's kind, as `words` words side by side.
        let mut bits = vec![0u64; bound * words];
        for (i, (_, storage)) in info.storages.iter().enumerate() {
            for entity in storage.entity_set().iter() {
                let index = entity.index() as usize;
                if index < bound {
                    bits[index * words + i / 64] |= 1 << (i % 64);
                }
            }
        }
        let mut counts: HashMap<&[u64], usize> = HashMap::new();
        for kind in bits.chunks_exact(words) {
            if kind.iter().any(|&w| w != 0) {
                *counts.entry(kind).or_default() += 1;
            }
        }
        let mut kinds: Vec<(Types, usize)> = counts
            .into_iter()
            .map(|(kind, count)| (Types(kind.to_vec()), count))
            .collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Census {
            keys: info
                .storages
                .iter()
                .map(|(_, s)| s.component_key())
                .collect(),
            lens: info
                .storages
                .iter()
                .map(|(_, s)| s.entity_set().len())
                .collect(),
            kinds,
        }
    }

    /// The number of storages.
    pub(crate) fn storages(&self) -> usize {
        self.keys.len()
    }

    /// The storage of the type `id`, if the world has one.
    pub(crate) fn index(&self, id: core::any::TypeId) -> Option<usize> {
        self.keys.iter().position(|k| k.type_id() == id)
    }

    /// The number of entities holding every type of `required` and none of `excluded`.
    pub(crate) fn count(&self, required: &Types, excluded: &Types) -> usize {
        self.kinds
            .iter()
            .filter(|(kind, _)| required.is_subset(kind) && excluded.is_disjoint(kind))
            .map(|(_, count)| count)
            .sum()
    }

    /// The types every entity holding `required` and none of `excluded` holds (`required`
    /// itself when no entity does).
    pub(crate) fn closure(&self, required: &Types, excluded: &Types) -> Types {
        self.kinds
            .iter()
            .filter(|(kind, _)| required.is_subset(kind) && excluded.is_disjoint(kind))
            .map(|(kind, _)| kind.clone())
            .reduce(|a, b| a.intersection(&b))
            .unwrap_or_else(|| required.clone())
    }

    /// The number of entities with at least one component.
    pub(crate) fn entities(&self) -> usize {
        self.kinds.iter().map(|(_, count)| count).sum()
    }
}
