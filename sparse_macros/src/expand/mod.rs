//! Code generation for `#[world]`.
//!
//! The user's struct keeps its name, visibility and attributes and gets one private field,
//! the world's storages. Everything else goes into an anonymous `const _: () = { … };` so
//! that no generated name can collide with the user's:
//!
//! * `storages.rs`: a module holding the storages struct, generic over the component
//!   types (so it names nothing of the user's module) and with fields private to it, plus
//!   the steps that change the storages' structure: the only code that can;
//! * `methods.rs`: the world's inherent methods, from one table of names;
//! * `impls.rs`: the trait impls per stored type and per group;
//! * `derives.rs`: `Debug` and `Clone`, when derived.

mod derives;
mod hooks;
mod impls;
mod methods;
mod parts;
mod steps;

mod storages;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

use crate::plan::Plan;
use crate::valid::{Model, StorageHooks, cfg_predicate};

/// Everything the generators read.
pub(crate) struct Cx<'a> {
    pub model: &'a Model<'a>,
    pub plan: &'a Plan,
    /// The user hooks, per storage.
    pub hooks: &'a [StorageHooks<'a>],
    /// Whether each storage has change detection (`#[track]`).
    pub tracked: &'a [bool],
    /// The path of the facade crate, e.g. `::sparse_groups`, for code next to the struct.
    pub krate: TokenStream,
    /// The item naming the facade `__sg` inside the expansion (see `krate::alias`).
    pub krate_alias: TokenStream,
    /// A number unique to this expansion (see `WorldStorages`).
    pub id: u64,
}

/// The storages module's methods for one storage (what the world's impls forward to).
pub(crate) struct StorageMethods {
    pub storage: Ident,
    pub get_mut: Ident,
    pub values_mut: Ident,
    pub insert: Ident,
    pub remove: Ident,
    pub insert_many: Ident,
    pub remove_many: Ident,
    pub clear: Ident,
    pub reserve: Ident,
    /// The storage, mutably, for the key's holder (see `Internals`).
    pub raw: Ident,
    pub sort: Ident,
    /// On the parts: the storage's slot.
    pub slot: Ident,
}

/// The storages module's methods for one group.
pub(crate) struct GroupMethods {
    pub group: Ident,
    pub group_ref: Ident,
    pub group_len: Ident,
    pub sort_group: Ident,
    /// On the parts: the group, lent.
    pub lend: Ident,
    pub lend_ref: Ident,
}

/// The name of the module holding the storages, inside the anonymous const.
fn module_name() -> Ident {
    format_ident!("__sparse")
}

impl Cx<'_> {
    /// The world's name.
    fn ident(&self) -> &Ident {
        &self.model.world.ident
    }

    /// The world's visibility, given to every generated method.
    fn vis(&self) -> &syn::Visibility {
        &self.model.world.vis
    }

    /// The field of storage `i` in the storages struct.
    fn storage_field(i: usize) -> Ident {
        format_ident!("s{}", i)
    }

    /// The storages module's methods for storage `i`: `storage_0`, `insert_0`, … (what the
    /// world's impls forward to).
    fn storage_methods(i: usize) -> StorageMethods {
        let name = |name: &str| format_ident!("{}_{}", name, i);
        StorageMethods {
            storage: name("storage"),
            get_mut: name("get_mut"),
            values_mut: name("values_mut"),
            insert: name("insert"),
            remove: name("remove"),
            insert_many: name("insert_many"),
            remove_many: name("remove_many"),
            clear: name("clear"),
            reserve: name("reserve"),
            raw: name("raw_storage"),
            sort: name("sort"),
            slot: name("slot"),
        }
    }

    /// The storages module's methods for group `g`: `group_0`, `group_len_0`, …
    fn group_methods(g: usize) -> GroupMethods {
        let name = |name: &str| format_ident!("{}_{}", name, g);
        GroupMethods {
            group: name("group"),
            group_ref: name("group_ref"),
            group_len: name("group_len"),
            sort_group: name("sort_group"),
            lend: name("lend_group"),
            lend_ref: name("lend_group_ref"),
        }
    }

    /// The field holding the length of group `g`.
    fn len_field(g: usize) -> Ident {
        format_ident!("g{}", g)
    }

    /// The type parameter standing for storage `i`'s component type.
    fn param(i: usize) -> Ident {
        format_ident!("T{}", i)
    }

    /// Every type parameter of the storages struct: the storages' component types, then
    /// the resources' types.
    fn params(&self) -> Vec<Ident> {
        (0..self.model.storages.len())
            .map(Self::param)
            .chain((0..self.model.resources.len()).map(Self::resource_param))
            .collect()
    }

    /// The storages struct's arguments: every storage's type as
    /// [`storage_type`](Cx::storage_type) gives it, then every resource's.
    fn args(&self) -> Vec<TokenStream> {
        let resources = (0..self.model.resources.len()).map(|j| {
            let alias = self.resource_type(j);
            quote!(#alias)
        });
        self.storage_types().into_iter().chain(resources).collect()
    }

    /// The type parameter standing for resource `j`'s type.
    fn resource_param(j: usize) -> Ident {
        format_ident!("R{}", j)
    }

    /// The field of resource `j` in the storages struct (and its slot in the parts).
    fn resource_field(j: usize) -> Ident {
        format_ident!("r{}", j)
    }

    /// The storages module's methods for resource `j`: the resource shared, mutably, and
    /// its slot among the parts.
    fn resource_methods(j: usize) -> [Ident; 3] {
        [
            format_ident!("resource_{}", j),
            format_ident!("resource_mut_{}", j),
            format_ident!("resource_slot_{}", j),
        ]
    }

    /// The alias of resource `j`'s type, declared next to the struct as the storages'
    /// are (see [`aliases`](Cx::aliases)), spanned at the type.
    fn resource_type(&self, j: usize) -> Ident {
        Ident::new(
            &format!("__SparseResource{}x{:x}", j, self.id),
            self.model.resources[j].resource.ty.span(),
        )
    }

    /// The component type of storage `i`, as written by the user.
    fn component(&self, i: usize) -> &Type {
        &self.model.storages[i].component.ty
    }

    /// The type standing for storage `i`'s component type in the anonymous const: an
    /// alias declared next to the struct (see [`aliases`](Cx::aliases)), never the user's
    /// tokens themselves.
    pub(crate) fn storage_type(&self, i: usize) -> TokenStream {
        let alias = self.alias(i);
        quote!(#alias)
    }

    /// Every storage's type as [`storage_type`](Cx::storage_type) gives it.
    pub(crate) fn storage_types(&self) -> Vec<TokenStream> {
        (0..self.model.storages.len())
            .map(|i| self.storage_type(i))
            .collect()
    }

    /// The alias of storage `i`'s component type, spanned at the type (errors about it
    /// point there).
    fn alias(&self, i: usize) -> Ident {
        Ident::new(
            &format!("__SparseComponent{}x{:x}", i, self.id),
            self.component_span(i),
        )
    }

    /// One alias per storage's component type, next to the struct: the anonymous const
    /// names component types through them only. A type is the user's tokens, which may
    /// hold a macro call or a const block; expanded inside the const, they could name what
    /// only the expansion may (its key). Next to the struct they see what the user's
    /// module sees. A field under `#[cfg]` stands for `Absent` when it is configured out,
    /// so that the storages keep a type parameter for every field.
    fn aliases(&self) -> TokenStream {
        let krate = &self.krate;
        let aliases = (0..self.model.storages.len()).map(|i| {
            let (ty, alias) = (self.component(i), self.alias(i));
            match &self.model.storages[i].cfg {
                None => quote! {
                    #[doc(hidden)]
                    type #alias = #ty;
                },
                Some(predicate) => quote! {
                    #[doc(hidden)]
                    #[cfg(#predicate)]
                    type #alias = #ty;
                    #[doc(hidden)]
                    #[cfg(not(#predicate))]
                    type #alias = #krate::__private::Absent;
                },
            }
        });
        let resources = (0..self.model.resources.len()).map(|j| {
            let (ty, alias) = (&self.model.resources[j].resource.ty, self.resource_type(j));
            quote! {
                #[doc(hidden)]
                type #alias = #ty;
            }
        });
        quote!(#(#aliases)* #(#resources)*)
    }

    /// The span of storage `i`'s component type: errors about it point there.
    fn component_span(&self, i: usize) -> Span {
        self.component(i).span()
    }

    /// `#[cfg(…)]` for storage `i`, if its field has one.
    fn cfg_storage(&self, i: usize) -> TokenStream {
        self.cfg_of(&[i])
    }

    /// `#[cfg(…)]` for group `g`: every `#[cfg]` of its storages.
    fn cfg_group(&self, g: usize) -> TokenStream {
        let storages: Vec<usize> = self.plan.groups[g].storages().collect();
        self.cfg_of(&storages)
    }

    pub(crate) fn cfg_of(&self, storages: &[usize]) -> TokenStream {
        let predicates: Vec<TokenStream> = storages
            .iter()
            .filter_map(|&i| self.model.storages[i].cfg.clone())
            .collect();
        match cfg_predicate(&predicates) {
            Some(predicate) => quote!(#[cfg(#predicate)]),
            None => TokenStream::new(),
        }
    }

    /// The group's tuple of component types as declared, e.g. `(A, B)` (through the
    /// aliases: see [`aliases`](Cx::aliases)).
    fn group_tuple(&self, g: usize) -> TokenStream {
        self.key(g, |i| self.storage_type(i))
    }

    /// The group's key over type parameters, e.g. `(T0, Get<T2>)`.
    fn group_params(&self, g: usize) -> TokenStream {
        self.key(g, |i| {
            let param = Self::param(i);
            quote!(#param)
        })
    }

    /// The key naming group `g` (see `GroupKey`): owned types, then `Get<…>` and
    /// `Exclude<…>` holding one type or a tuple; a lone `Get<…>` is not wrapped.
    fn key(&self, g: usize, ty: impl Fn(usize) -> TokenStream) -> TokenStream {
        let decl = &self.plan.groups[g].decl;
        let list = |storages: &[usize]| match storages {
            [one] => ty(*one),
            many => {
                let types = many.iter().map(|&i| ty(i));
                quote!((#(#types,)*))
            }
        };
        let mut elements: Vec<TokenStream> = decl.owned.iter().map(|&i| ty(i)).collect();
        if !decl.observed.is_empty() {
            let observed = list(&decl.observed);
            elements.push(quote!(__sg::Get<#observed>));
        }
        if !decl.excluded.is_empty() {
            let excluded = list(&decl.excluded);
            elements.push(quote!(__sg::Exclude<#excluded>));
        }
        match &elements[..] {
            [lone] if decl.owned.is_empty() => lone.clone(),
            _ => quote!((#(#elements,)*)),
        }
    }

    /// The span of group `g`'s declaration.
    fn group_span(&self, g: usize) -> Span {
        self.model.world.groups[self.plan.groups[g].decl_index].span
    }

    /// The whole expansion.
    pub(crate) fn expand(&self) -> TokenStream {
        let world = self.model.world;
        let (attrs, vis, ident, krate) = (&world.attrs, &world.vis, &world.ident, &self.krate);
        let krate_alias = &self.krate_alias;
        let id = self.id;
        let passthrough = &self.model.passthrough;
        let derive = (!passthrough.is_empty()).then(|| quote!(#[derive(#(#passthrough),*)]));
        let module = module_name();
        let storages = storages::module(self);
        let methods = methods::emit(self);
        let impls = impls::emit(self);
        let hooks = hooks::consts(self);
        let derives = derives::emit(self);
        let cfg_errors = &self.model.cfg_errors;
        let aliases = self.aliases();
        let args = self.args();
        // A field without an accessor still names its type, as the user's imports expect.
        let unused = self
            .model
            .storages
            .iter()
            .flat_map(|s| &s.fields)
            .filter(|(_, accessor)| !accessor)
            .map(|(field, _)| {
                let (ty, cfg) = (&field.ty, field_cfg(field));
                quote!(#cfg const _: ::core::option::Option<&#ty> = ::core::option::Option::None;)
            })
            .chain(self.model.resources.iter().enumerate().map(|(j, r)| {
                // The field's type as written, through the user's imports, must be this
                // crate's `Resource<R>` (a type of another crate named `Resource` is a
                // mismatched-types error at the field's type).
                let (ty, alias) = (&r.field.ty, self.resource_type(j));
                quote_spanned! {ty.span()=>
                    const _: fn(#ty) -> #krate::Resource<#alias> = |resource| resource;
                }
            }));
        let world_storages = quote_spanned! {Span::call_site()=>
            #[automatically_derived]
            #[doc(hidden)]
            impl __sg::__private::WorldStorages<#id> for #ident {
                type Storages = #module::Storages<#(#args),*>;
            }
        };
        quote! {
            #(#attrs)*
            #derive
            #vis struct #ident {
                __sparse: <#ident as #krate::__private::WorldStorages<#id>>::Storages,
            }

            #methods
            #aliases
            #(#unused)*

            const _: () = {
                #krate_alias

                #storages
                #world_storages
                #hooks
                #impls
                #derives
            };

            #(#cfg_errors)*
        }
    }
}

/// `#[cfg(…)]` for one field, if it has one.
fn field_cfg(field: &crate::ast::Field) -> TokenStream {
    match cfg_predicate(&field.cfg) {
        Some(predicate) => quote!(#[cfg(#predicate)]),
        None => TokenStream::new(),
    }
}
