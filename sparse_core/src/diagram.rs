//! Drawing a world's storages and groups as the nested-groups article draws them.

use core::fmt;

use crate::change::steps::WorldInfo;
use crate::component::short_name;
use crate::entity::Entity;
use crate::group::GroupInfo;
use crate::storage::SparseSet;

/// The most entities a row of the drawing shows; a world with a longer storage or member
/// set is shown as a table of lengths.
const MAX_CELLS: usize = 16;

/// A world's layout, captured by `world.diagram()`: each storage's packed entity array, with
/// one marker per group owning it where the group's prefix ends, innermost group (the
/// shortest prefix) first, and each non-owning group's member set.
///
/// ```text
/// entities: 5 alive, indices 0..6, 1 dead
/// sprites     [e3|e0|e4|e1|e2]
///              ___^            <Sprite, Renderable, Position>: 1
///              ______^         <Sprite, Renderable>: 2
/// renderables [e3|e0|e2]
///              ___^            <Sprite, Renderable, Position>: 1
///              ______^         <Sprite, Renderable>: 2
/// positions   [e3|e1]
///              ___^            <Sprite, Renderable, Position>: 1
/// get(Health) [e1|e4]          members of <get(Health)>: 2
/// ```
///
/// An entity of version 1 is written `e3`, of a later version `e3v2`. When a storage holds
/// more than sixteen components, or with the alternate flag (`{:#}`), the diagram is a table
/// of lengths instead:
///
/// ```text
/// entities: 200000 alive, indices 0..200000, 0 dead
/// sprites       200000 | <Sprite, Renderable>: 150000, <Sprite, Renderable, Position>: 100000
/// ```
///
/// The diagram is a copy: it does not borrow the world.
#[derive(Clone, Debug)]
pub struct Diagram {
    alive: usize,
    index_bound: usize,
    rows: Vec<Row>,
}

/// One storage, or the member set of one non-owning group.
#[derive(Clone, Debug)]
struct Row {
    name: String,
    len: usize,
    /// The first entities, at most [`MAX_CELLS`].
    cells: Vec<String>,
    /// The groups ending in this storage, `(name, len)`, shortest prefix first; for a
    /// member set, its group alone.
    marks: Vec<(String, usize)>,
    /// Whether the row is a non-owning group's member set.
    members: bool,
}

/// `e3` for version 1, `e3v2` otherwise.
fn cell(entity: Entity) -> String {
    match entity.version() {
        1 => format!("e{}", entity.index()),
        version => format!("e{}v{version}", entity.index()),
    }
}

fn cells(set: &SparseSet) -> Vec<String> {
    set.as_slice()
        .iter()
        .take(MAX_CELLS)
        .map(|&e| cell(e))
        .collect()
}

impl Diagram {
    /// Captures the layout of a world, as its check reads it.
    pub fn of(world: &WorldInfo<'_>) -> Diagram {
        let mut rows: Vec<Row> = world
            .storages
            .iter()
            .map(|&(name, storage)| {
                let set = storage.entity_set();
                let mut groups: Vec<&GroupInfo<'_>> = world
                    .groups
                    .iter()
                    .filter(|g| g.owned.iter().any(|&owned| core::ptr::eq(owned, set)))
                    .collect();
                // Innermost first: the shortest prefix, and of equal ones the most types.
                groups.sort_by_key(|g| {
                    let types = g.owned.len() + g.observed.len() + g.excluded.len();
                    (g.len, core::cmp::Reverse(types))
                });
                let marks = groups.iter().map(|g| (short_name(g.name), g.len)).collect();
                Row {
                    name: short_name(name),
                    len: set.len(),
                    cells: cells(set),
                    marks,
                    members: false,
                }
            })
            .collect();
        rows.extend(world.groups.iter().filter_map(|g| {
            let set = g.members?;
            let name = short_name(g.name);
            let label = name
                .strip_prefix('<')
                .and_then(|n| n.strip_suffix('>'))
                .unwrap_or(&name)
                .to_owned();
            Some(Row {
                name: label,
                len: set.len(),
                cells: cells(set),
                marks: vec![(name, set.len())],
                members: true,
            })
        }));
        Diagram {
            alive: world.entities.len(),
            index_bound: world.entities.index_bound(),
            rows,
        }
    }

    /// Whether the diagram is a table of lengths (some row is too long to draw).
    pub fn is_table(&self) -> bool {
        self.rows.iter().any(|r| r.len > MAX_CELLS)
    }

    fn draw(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name_width = self.rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let cell_width = self
            .rows
            .iter()
            .flat_map(|r| r.cells.iter().map(String::len))
            .max()
            .unwrap_or(2);
        // Row: `name [c0|c1|…]`; the marker of a prefix of `len` sits on the bar after
        // cell `len - 1` (on `[` for an empty prefix).
        let draw_width = |cells: usize| (cells * (cell_width + 1)).max(1) + 1;
        let widest = self.rows.iter().map(|r| draw_width(r.cells.len())).max();
        let widest = widest.unwrap_or(2);
        for row in &self.rows {
            let cells: Vec<String> = row
                .cells
                .iter()
                .map(|c| format!("{c:cell_width$}"))
                .collect();
            let drawn = format!("[{}]", cells.join("|"));
            if row.members {
                let (group, len) = &row.marks[0];
                writeln!(
                    f,
                    "{:name_width$} {drawn:widest$} members of {group}: {len}",
                    row.name
                )?;
                continue;
            }
            writeln!(f, "{:name_width$} {drawn}", row.name)?;
            for (group, len) in &row.marks {
                let marker = format!("{}^", "_".repeat(len * (cell_width + 1)));
                writeln!(f, "{:name_width$} {marker:widest$} {group}: {len}", "")?;
            }
        }
        Ok(())
    }

    fn table(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name_width = self.rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        let len_width = self
            .rows
            .iter()
            .map(|r| r.len.to_string().len())
            .max()
            .unwrap_or(1);
        for row in &self.rows {
            let groups: Vec<String> = row
                .marks
                .iter()
                .rev()
                .map(|(group, len)| format!("{group}: {len}"))
                .collect();
            let what = if row.members {
                "members of "
            } else if groups.is_empty() {
                "no group"
            } else {
                ""
            };
            writeln!(
                f,
                "{:name_width$} {:>len_width$} | {what}{}",
                row.name,
                row.len,
                groups.join(", ")
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for Diagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dead = self.index_bound.saturating_sub(self.alive);
        writeln!(
            f,
            "entities: {} alive, indices 0..{}, {dead} dead",
            self.alive, self.index_bound
        )?;
        if self.is_table() || f.alternate() {
            self.table(f)
        } else {
            self.draw(f)
        }
    }
}
