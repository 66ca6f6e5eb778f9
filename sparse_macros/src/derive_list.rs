//! The `#[derive(...)]` list written on a world, sorted: the derives `#[world]` implements
//! itself (`Debug`, `Clone`, serde's `Serialize` and `Deserialize`; `Default` always
//! exists), those it refuses (they cannot mean anything for a world), and those passed
//! through to the struct; and the method names the implemented ones add, which a field's
//! accessor must not shadow. `expand/derives.rs` emits the impls.

use syn::{Error, Path};

/// Which derives `#[world]` implements for this world.
#[derive(Default)]
pub(crate) struct Requested {
    pub debug: bool,
    pub clone: bool,
    /// serde's `Serialize`, spelled as the user spelled it (for the error span).
    pub serialize: Option<Path>,
    /// serde's `Deserialize`.
    pub deserialize: Option<Path>,
}

fn name(path: &Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// Sorts the derives into those `#[world]` implements, those it refuses (an error each)
/// and those passed through.
pub(crate) fn classify<'a>(
    derives: &'a [Path],
    errors: &mut Vec<Error>,
) -> (Requested, Vec<&'a Path>) {
    let mut requested = Requested::default();
    let mut passthrough = Vec::new();
    for path in derives {
        let why = match name(path).as_str() {
            "Debug" => {
                requested.debug = true;
                continue;
            }
            "Clone" => {
                requested.clone = true;
                continue;
            }
            "Serialize" => {
                requested.serialize = Some(path.clone());
                continue;
            }
            "Deserialize" => {
                requested.deserialize = Some(path.clone());
                continue;
            }
            // A world always implements `Default` (an empty world).
            "Default" => continue,
            "Copy" => "a world owns its storages' memory, so it cannot be `Copy`; derive `Clone`",
            "PartialEq" | "Eq" | "PartialOrd" | "Ord" | "Hash" => {
                "a world is not compared or hashed as a whole; compare what its storages hold \
                 (`world.storage::<T>()`)"
            }
            _ => {
                passthrough.push(path);
                continue;
            }
        };
        errors.push(Error::new_spanned(
            path,
            format!(
                "`#[derive({})]` is not supported on a `#[world]`: {why}",
                name(path)
            ),
        ));
    }
    (requested, passthrough)
}

/// Whether an accessor named `field` would shadow the method of a derive.
pub(crate) fn shadows(derives: &[Path], field: &str) -> bool {
    derives.iter().any(|path| {
        matches!(
            (name(path).as_str(), field),
            ("Debug", "fmt")
                | ("Clone", "clone" | "clone_from")
                | ("Serialize", "serialize")
                | ("Deserialize", "deserialize")
        )
    })
}
