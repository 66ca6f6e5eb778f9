//! The run-time world's resources: at most one value of each type, inserted and removed
//! at run time, found by `TypeId`.

use core::any::{Any, TypeId, type_name};
use std::collections::HashMap;

use super::World;
use crate::lend::AccessError;

/// The resources of a run-time world, by type.
#[derive(Default)]
pub(super) struct Resources {
    map: HashMap<TypeId, Held>,
}

/// A resource, the `TypeId` a schedule's lists name it by (`Resource<R>`'s), and its type's
/// name (for a snapshot's messages).
struct Held {
    value: Box<dyn Any + Send + Sync>,
    listed: TypeId,
    #[cfg(feature = "serde")]
    name: &'static str,
}

impl Resources {
    /// Each resource with its type and the type a schedule's lists name it by, mutably.
    pub(super) fn iter_mut(
        &mut self,
    ) -> impl Iterator<Item = ([TypeId; 2], &mut (dyn Any + Send + Sync))> {
        self.map
            .iter_mut()
            .map(|(&id, r)| ([id, r.listed], &mut *r.value))
    }

    /// Each resource with its type and the type a schedule's lists name it by.
    pub(super) fn iter(&self) -> impl Iterator<Item = ([TypeId; 2], &(dyn Any + Send + Sync))> {
        self.map.iter().map(|(&id, r)| ([id, r.listed], &*r.value))
    }

    /// Each resource's type and its name (without module paths).
    #[cfg(feature = "serde")]
    pub(crate) fn types(&self) -> impl Iterator<Item = (TypeId, String)> + '_ {
        self.map
            .iter()
            .map(|(&id, r)| (id, crate::component::short_name(r.name)))
    }
}

impl World {
    /// Makes `value` the world's resource of type `R`, returning the one it replaces.
    /// (A `#[world]` declares its resources as fields of type `Resource<R>` instead, and
    /// always holds them.)
    pub fn insert_resource<R: Send + Sync + 'static>(&mut self, value: R) -> Option<R> {
        let held = Held {
            value: Box::new(value),
            listed: TypeId::of::<crate::Resource<R>>(),
            #[cfg(feature = "serde")]
            name: type_name::<R>(),
        };
        let old = self.resources.map.insert(TypeId::of::<R>(), held)?;
        Some(
            *old.value
                .downcast::<R>()
                .expect("a resource is stored under its type"),
        )
    }

    /// Takes the world's resource of type `R` out of it.
    pub fn remove_resource<R: 'static>(&mut self) -> Option<R> {
        let old = self.resources.map.remove(&TypeId::of::<R>())?;
        Some(
            *old.value
                .downcast::<R>()
                .expect("a resource is stored under its type"),
        )
    }

    /// Whether the world holds a resource of type `R`.
    pub fn contains_resource<R: 'static>(&self) -> bool {
        self.resources.map.contains_key(&TypeId::of::<R>())
    }

    #[doc = crate::__method_doc!(resource)]
    ///
    /// # Errors
    /// [`AccessError::NoResource`] if the world holds no `R` (see
    /// [`insert_resource`](World::insert_resource)).
    pub fn resource<R: 'static>(&self) -> Result<&R, AccessError> {
        self.resources
            .map
            .get(&TypeId::of::<R>())
            .map(|r| {
                r.value
                    .downcast_ref::<R>()
                    .expect("a resource is stored under its type")
            })
            .ok_or(AccessError::NoResource(type_name::<R>()))
    }

    #[doc = crate::__method_doc!(resource_mut)]
    ///
    /// # Errors
    /// [`AccessError::NoResource`] if the world holds no `R` (see
    /// [`insert_resource`](World::insert_resource)).
    pub fn resource_mut<R: 'static>(&mut self) -> Result<&mut R, AccessError> {
        self.resources
            .map
            .get_mut(&TypeId::of::<R>())
            .map(|r| {
                r.value
                    .downcast_mut::<R>()
                    .expect("a resource is stored under its type")
            })
            .ok_or(AccessError::NoResource(type_name::<R>()))
    }
}
