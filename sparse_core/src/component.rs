//! The `Component` marker and tuples of component types.

use core::any::{Any, TypeId};
use core::fmt;
use core::hash::{Hash, Hasher};

use crate::entity::Entity;
use crate::storage::Storage;
use crate::world::ErasedStorage;

/// A type that can be stored in a world. Derive it with `#[derive(Component)]` from the
/// `sparse` crate, or implement it by hand: it has no methods.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a component",
    label = "not a component",
    note = "add `#[derive(sparse::Component)]` to the declaration of `{Self}`, or wrap a foreign type in a newtype that derives it"
)]
pub trait Component: 'static {}

/// Names a component type at run time: its `TypeId`, displayed as its type name.
#[derive(Clone, Copy, Debug)]
pub struct ComponentKey {
    id: TypeId,
    name: &'static str,
}

impl ComponentKey {
    /// The key of `T`.
    pub fn of<T: Component>() -> Self {
        ComponentKey {
            id: TypeId::of::<T>(),
            name: core::any::type_name::<T>(),
        }
    }

    /// The `TypeId` of the component type.
    pub fn type_id(&self) -> TypeId {
        self.id
    }

    /// The type's name as given by `core::any::type_name`.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl PartialEq for ComponentKey {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for ComponentKey {}

impl Hash for ComponentKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl fmt::Display for ComponentKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A tuple of distinct component types, `(A, B, …)` up to eight: the types of a group or
/// of a view. The associated types are the tuples of slices, references and storages
/// that group and view access hands out.
pub trait ComponentSet: Sized + 'static {
    /// `(&[A], &[B], …)`
    type Slices<'a>;
    /// `(&mut [A], &mut [B], …)`
    type SlicesMut<'a>;
    /// `(&A, &B, …)`
    type Refs<'a>;
    /// `(&mut A, &mut B, …)`
    type RefsMut<'a>;
    /// `(&mut Storage<A>, &mut Storage<B>, …)`
    type Storages<'a>;

    /// The keys of the types, in tuple order.
    fn keys() -> Vec<ComponentKey>;

    /// Whether the types are pairwise distinct (folds to a constant once optimized).
    fn distinct() -> bool;

    #[doc(hidden)]
    fn for_each_in(
        entities: &[Entity],
        slices: Self::SlicesMut<'_>,
        f: impl FnMut(Entity, Self::RefsMut<'_>),
    );
    #[doc(hidden)]
    fn shared<'s>(slices: &'s Self::SlicesMut<'_>) -> Self::Slices<'s>;
    #[doc(hidden)]
    fn refs_at<'s>(slices: &Self::Slices<'s>, position: usize) -> Self::Refs<'s>;
    #[doc(hidden)]
    fn prefixes(storages: Self::Storages<'_>, len: usize) -> (&[Entity], Self::SlicesMut<'_>);
    #[doc(hidden)]
    fn new_storages() -> Vec<Box<dyn ErasedStorage>>;
    #[doc(hidden)]
    fn erased<'s>(
        storages: &'s mut [Box<dyn ErasedStorage>],
        indices: &[usize],
    ) -> Option<Self::Storages<'s>>;
    #[doc(hidden)]
    fn view_for_each(storages: &mut Self::Storages<'_>, f: impl FnMut(Entity, Self::RefsMut<'_>));
    #[doc(hidden)]
    fn view_get<'s>(
        storages: &'s mut Self::Storages<'_>,
        entity: Entity,
    ) -> Option<Self::RefsMut<'s>>;
    #[doc(hidden)]
    fn view_len_hint(storages: &Self::Storages<'_>) -> usize;
}

fn downcast<T: Component>(storage: &mut Box<dyn ErasedStorage>) -> Option<&mut Storage<T>> {
    let any: &mut dyn Any = storage.as_mut();
    any.downcast_mut::<Storage<T>>()
}

macro_rules! component_set {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T: Component),+> ComponentSet for ($($T,)+) {
            type Slices<'a> = ($(&'a [$T],)+);
            type SlicesMut<'a> = ($(&'a mut [$T],)+);
            type Refs<'a> = ($(&'a $T,)+);
            type RefsMut<'a> = ($(&'a mut $T,)+);
            type Storages<'a> = ($(&'a mut Storage<$T>,)+);

            fn keys() -> Vec<ComponentKey> {
                vec![$(ComponentKey::of::<$T>()),+]
            }

            #[inline]
            fn distinct() -> bool {
                let ids = [$(TypeId::of::<$T>()),+];
                (0..ids.len()).all(|i| !ids[..i].contains(&ids[i]))
            }

            #[inline]
            fn for_each_in(entities: &[Entity], slices: Self::SlicesMut<'_>, mut f: impl FnMut(Entity, Self::RefsMut<'_>)) {
                let n = entities.len();
                // Re-slicing to `n` lets the optimizer drop every bounds check in the loop.
                $(let $t = &mut slices.$i[..n];)+
                for i in 0..n {
                    f(entities[i], ($(&mut $t[i],)+));
                }
            }

            #[inline]
            fn shared<'s>(slices: &'s Self::SlicesMut<'_>) -> Self::Slices<'s> {
                ($(&*slices.$i,)+)
            }

            #[inline]
            fn refs_at<'s>(slices: &Self::Slices<'s>, position: usize) -> Self::Refs<'s> {
                ($(&slices.$i[position],)+)
            }

            #[inline]
            fn prefixes(storages: Self::Storages<'_>, len: usize) -> (&[Entity], Self::SlicesMut<'_>) {
                let ($($t,)+) = storages;
                let entities = first!($($t),+).set.as_slice();
                (&entities[..len], ($(&mut $t.components[..len],)+))
            }

            fn new_storages() -> Vec<Box<dyn ErasedStorage>> {
                vec![$(Box::new(Storage::<$T>::new())),+]
            }

            fn erased<'s>(storages: &'s mut [Box<dyn ErasedStorage>], indices: &[usize]) -> Option<Self::Storages<'s>> {
                let [$($t),+] = storages.get_disjoint_mut([$(*indices.get($i)?),+]).ok()?;
                Some(($(downcast::<$T>($t)?,)+))
            }

            fn view_for_each(storages: &mut Self::Storages<'_>, mut f: impl FnMut(Entity, Self::RefsMut<'_>)) {
                let ($($t,)+) = storages;
                $(let $t = (&$t.set, &mut $t.components[..]);)+
                // Drive the join with the smallest storage.
                let driver = [$($t.0.as_slice()),+].into_iter().min_by_key(|s| s.len()).unwrap_or(&[]);
                for &entity in driver {
                    let item = 'item: {
                        Some(($(match $t.0.index_of(entity) {
                            Some(position) => &mut $t.1[position],
                            None => break 'item None,
                        },)+))
                    };
                    if let Some(item) = item {
                        f(entity, item);
                    }
                }
            }

            fn view_get<'s>(storages: &'s mut Self::Storages<'_>, entity: Entity) -> Option<Self::RefsMut<'s>> {
                let ($($t,)+) = storages;
                Some(($($t.get_mut(entity)?,)+))
            }

            fn view_len_hint(storages: &Self::Storages<'_>) -> usize {
                [$(storages.$i.len()),+].into_iter().min().unwrap_or(0)
            }
        }
    };
}

for_each_tuple!(component_set);
