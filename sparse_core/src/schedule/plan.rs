//! What a schedule runs, span by span: sync points, and *spans* of consecutive stages
//! whose systems go in *chains*, one chain per group of systems that conflict with each
//! other (directly or through others of the span). Chains are apart from one another, so
//! they run at once; a chain runs its systems one after the other, in stage order.
//!
//! ```text
//! stages:  0: movement, data, health   1: more_complex, damage   2: sprite   3: render
//! spans:   stages 0..3                 chain movement → data → more_complex
//!                                      chain health → damage → sprite
//!          stage 3                     chain render
//! ```
//!
//! A span of one stage is the stage itself (its systems are pairwise apart: each its own
//! chain). Which stages go together is decided from what each system costs (measured, or
//! one unit each): the spans whose chains, packed on the threads there are, finish first,
//! counting what starting threads costs each span of several chains.

use core::any::TypeId;
use core::ops::Range;

use super::stages::ElementAccess;

/// The most stages one span covers (the search's cost grows with it).
const MAX_SPAN: usize = 16;

/// One span of a schedule.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Span {
    /// The sync point at this element: the commands queued before it are applied.
    Sync(usize),
    /// Systems of consecutive stages, in chains.
    Systems(SystemSpan),
}

/// Systems of the stages `stages`, in chains that are apart from each other.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SystemSpan {
    /// The stages covered.
    pub(super) stages: Range<usize>,
    /// The chains, each in the order its systems run.
    pub(super) chains: Vec<Chain>,
}

/// Systems that run one after the other, and what they take of the world between them.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Chain {
    /// The elements, by stage, then in the written order.
    pub(super) elements: Vec<usize>,
    /// The types the chain's systems write.
    pub(super) writes: Vec<TypeId>,
    /// The types they read (or watch).
    pub(super) reads: Vec<TypeId>,
}

impl SystemSpan {
    /// Every element of the span, by stage, then in the written order: an order of the
    /// systems that keeps every conflicting pair's (a stage is after every stage it
    /// conflicts with), for running them on one thread.
    pub(super) fn in_stage_order(&self, stages: &[usize]) -> Vec<usize> {
        let mut all: Vec<usize> = self
            .chains
            .iter()
            .flat_map(|chain| chain.elements.iter().copied())
            .collect();
        all.sort_unstable_by_key(|&k| (stages[k], k));
        all
    }
}

/// Whether the two elements may not run at once (see `stages.rs`).
fn conflicts(a: &ElementAccess, b: &ElementAccess) -> bool {
    let meets = |x: &[TypeId], y: &[TypeId]| x.iter().any(|t| y.contains(t));
    a.barrier
        || b.barrier
        || meets(&a.writes, &b.writes)
        || meets(&a.writes, &b.reads)
        || meets(&b.writes, &a.reads)
}

/// One span per stage, each system a chain of its own: a schedule's spans before any is
/// planned.
pub(super) fn stage_by_stage(stages: &[usize], access: &[ElementAccess]) -> Vec<Span> {
    let count = stages.iter().max().map_or(0, |last| last + 1);
    (0..count)
        .map(|stage| span_of(stage..stage + 1, stages, access))
        .collect()
}

/// The span of `range`'s stages (a sync point's stage is its sync span).
fn span_of(range: Range<usize>, stages: &[usize], access: &[ElementAccess]) -> Span {
    let elements: Vec<usize> = (0..stages.len())
        .filter(|&k| range.contains(&stages[k]))
        .collect();
    if let [only] = elements[..]
        && access[only].barrier
    {
        return Span::Sync(only);
    }
    Span::Systems(SystemSpan {
        chains: chains_of(&elements, stages, access),
        stages: range,
    })
}

/// The elements in groups that conflict among themselves, apart from each other: the
/// connected parts of the conflict graph, each by stage, then in the written order.
fn chains_of(elements: &[usize], stages: &[usize], access: &[ElementAccess]) -> Vec<Chain> {
    let mut part: Vec<usize> = (0..elements.len()).collect();
    fn root(part: &mut [usize], mut i: usize) -> usize {
        while part[i] != i {
            part[i] = part[part[i]];
            i = part[i];
        }
        i
    }
    for i in 0..elements.len() {
        for j in 0..i {
            if conflicts(&access[elements[i]], &access[elements[j]]) {
                let (a, b) = (root(&mut part, i), root(&mut part, j));
                part[a.max(b)] = a.min(b);
            }
        }
    }
    let mut chains: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, &element) in elements.iter().enumerate() {
        let r = root(&mut part, i);
        match chains.iter_mut().find(|(root, _)| *root == r) {
            Some((_, chain)) => chain.push(element),
            None => chains.push((r, vec![element])),
        }
    }
    chains
        .into_iter()
        .map(|(_, mut elements)| {
            elements.sort_unstable_by_key(|&k| (stages[k], k));
            let mut writes = Vec::new();
            let mut reads = Vec::new();
            for &k in &elements {
                writes.extend_from_slice(&access[k].writes);
                reads.extend_from_slice(&access[k].reads);
            }
            Chain {
                elements,
                writes,
                reads,
            }
        })
        .collect()
}

/// How long chains of these costs take on `threads` threads: each, longest first, on the
/// least loaded thread (the end of the last).
fn makespan(mut chains: Vec<f64>, threads: usize) -> f64 {
    chains.sort_unstable_by(|a, b| b.total_cmp(a));
    let mut loads = vec![0.0f64; threads.max(1)];
    for cost in chains {
        let least = loads
            .iter_mut()
            .min_by(|a, b| a.total_cmp(b))
            .expect("a thread at least");
        *least += cost;
    }
    loads.into_iter().fold(0.0, f64::max)
}

/// The spans that finish the schedule first on `threads` threads, each system costing
/// `costs[k]` and each span of several chains `overhead` more (starting threads, and the
/// wait for the last): between sync points, the spans of consecutive stages (up to
/// `MAX_SPAN`) whose costs add up to the least.
pub(super) fn planned(
    stages: &[usize],
    access: &[ElementAccess],
    costs: &[f64],
    threads: usize,
    overhead: f64,
) -> Vec<Span> {
    let count = stages.iter().max().map_or(0, |last| last + 1);
    let mut by_stage: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (k, &stage) in stages.iter().enumerate() {
        by_stage[stage].push(k);
    }
    let is_sync = |stage: usize| by_stage[stage].iter().any(|&k| access[k].barrier);
    // The cost of the span of the stages `from..to`: its chains' makespan, plus the
    // overhead if it has several.
    let cost_of = |from: usize, to: usize| {
        let elements: Vec<usize> = (from..to).flat_map(|s| by_stage[s].clone()).collect();
        let chains = chains_of(&elements, stages, access);
        let lengths: Vec<f64> = chains
            .iter()
            .map(|c| c.elements.iter().map(|&k| costs[k]).sum())
            .collect();
        let several = lengths.len() > 1;
        makespan(lengths, threads) + if several { overhead } else { 0.0 }
    };
    let mut spans = Vec::new();
    let mut stage = 0;
    while stage < count {
        if is_sync(stage) {
            spans.push(span_of(stage..stage + 1, stages, access));
            stage += 1;
            continue;
        }
        let end = (stage..count).find(|&s| is_sync(s)).unwrap_or(count);
        // best[i]: the least cost of the stages `stage..stage + i`, and where its last
        // span starts.
        let len = end - stage;
        let mut best = vec![(0.0f64, 0usize); len + 1];
        for to in 1..=len {
            best[to] = (to.saturating_sub(MAX_SPAN)..to)
                .map(|from| (best[from].0 + cost_of(stage + from, stage + to), from))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
                .expect("one span at least");
        }
        let mut cuts = vec![len];
        while let Some(&to) = cuts.last()
            && to > 0
        {
            cuts.push(best[to].1);
        }
        cuts.reverse();
        for pair in cuts.windows(2) {
            spans.push(span_of(stage + pair[0]..stage + pair[1], stages, access));
        }
        stage = end;
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An element writing and reading the types numbered in `writes` and `reads`.
    fn access(writes: &[u8], reads: &[u8]) -> ElementAccess {
        let ids = [
            TypeId::of::<u8>(),
            TypeId::of::<u16>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<i8>(),
            TypeId::of::<i16>(),
            TypeId::of::<i32>(),
            TypeId::of::<i64>(),
            TypeId::of::<f32>(),
        ];
        let of = |list: &[u8]| list.iter().map(|&t| ids[usize::from(t)]).collect();
        ElementAccess {
            writes: of(writes),
            reads: of(reads),
            ..ElementAccess::default()
        }
    }

    /// The chains of each span, as element lists (a sync point as `[[k]]`).
    fn shape(spans: &[Span]) -> Vec<Vec<Vec<usize>>> {
        spans
            .iter()
            .map(|span| match span {
                Span::Sync(k) => vec![vec![*k]],
                Span::Systems(run) => run.chains.iter().map(|c| c.elements.clone()).collect(),
            })
            .collect()
    }

    /// The realistic frame (docs/performance.md): types 0 Pos, 1 Vel, 2 Data, 3 Health,
    /// 4 Damage, 5 Sprite, 6 Player, 7 the frame buffer; its systems' stages.
    fn frame() -> (Vec<ElementAccess>, Vec<usize>) {
        let access = vec![
            access(&[0], &[1]),    // movement (With<Sprite> borrows nothing)
            access(&[2], &[]),     // data
            access(&[1], &[0, 2]), // more_complex
            access(&[3], &[]),     // health
            access(&[3], &[4]),    // damage
            access(&[5], &[6, 3]), // sprite
            access(&[7], &[0, 5]), // render
        ];
        let stages = super::super::stages::stages_of_ids(&access);
        (access, stages)
    }

    #[test]
    fn stage_by_stage_gives_each_system_a_chain_of_its_own() {
        let (access, stages) = frame();
        assert_eq!(stages, [0, 0, 1, 0, 1, 2, 3]);
        assert_eq!(
            shape(&stage_by_stage(&stages, &access)),
            [
                vec![vec![0], vec![1], vec![3]],
                vec![vec![2], vec![4]],
                vec![vec![5]],
                vec![vec![6]]
            ]
        );
    }

    #[test]
    fn the_frame_runs_its_two_families_at_once_then_renders() {
        let (access, stages) = frame();
        // At 1M entities (ms): movement 0.39, data 1.31, more_complex 0.67, health 0.44,
        // damage 0.40, sprite 1.36, render 2.77.
        let costs = [0.39, 1.31, 0.67, 0.44, 0.40, 1.36, 2.77];
        let spans = planned(&stages, &access, &costs, 2, 0.01);
        assert_eq!(
            shape(&spans),
            [vec![vec![0, 1, 2], vec![3, 4, 5]], vec![vec![6]]]
        );
        let Span::Systems(span) = &spans[0] else {
            panic!("systems first")
        };
        assert_eq!(span.stages, 0..3);
        assert_eq!(span.in_stage_order(&stages), [0, 1, 3, 2, 4, 5]);
        // The same with a unit cost each.
        let unit = planned(&stages, &access, &[1.0; 7], 2, 0.01);
        assert_eq!(shape(&unit), shape(&spans));
        // On one thread nothing is gained by several chains: each span is one chain or a
        // stage, never worth the overhead.
        let one = planned(&stages, &access, &costs, 1, 0.01);
        assert!(
            one.iter()
                .all(|s| matches!(s, Span::Systems(r) if r.chains.len() == 1)),
            "{one:?}"
        );
    }

    #[test]
    fn a_span_that_would_lose_a_stages_parallelism_is_not_made() {
        // 0 and 1 apart; 2 after both: merged, one chain of three (3 units) against the
        // stage of two then the third (2 units).
        let access = vec![access(&[0], &[]), access(&[1], &[]), access(&[2], &[0, 1])];
        let stages = super::super::stages::stages_of_ids(&access);
        assert_eq!(stages, [0, 0, 1]);
        let spans = planned(&stages, &access, &[1.0; 3], 2, 0.01);
        assert_eq!(shape(&spans), [vec![vec![0], vec![1]], vec![vec![2]]]);
    }

    #[test]
    fn spans_stop_at_sync_points_and_chains_keep_stage_order() {
        // 0 writes A; 1 reads A (after 0); a sync point; 3 writes A and 4 writes C, apart;
        // 5 reads A (after 3): no span crosses the sync point, chains are in stage order.
        let sync = ElementAccess {
            barrier: true,
            ..ElementAccess::default()
        };
        let access = vec![
            access(&[0], &[]),
            access(&[1], &[0]),
            sync,
            access(&[0], &[]),
            access(&[2], &[]),
            access(&[3], &[0]),
        ];
        let stages = super::super::stages::stages_of_ids(&access);
        assert_eq!(stages, [0, 1, 2, 3, 3, 4]);
        let spans = planned(&stages, &access, &[1.0; 6], 2, 0.01);
        assert_eq!(shape(&spans)[1], [vec![2]], "the sync point alone");
        assert!(matches!(spans[1], Span::Sync(2)));
        let systems: Vec<&SystemSpan> = spans
            .iter()
            .filter_map(|s| match s {
                Span::Systems(r) => Some(r),
                Span::Sync(_) => None,
            })
            .collect();
        assert!(
            systems
                .iter()
                .all(|r| r.stages.end <= 2 || r.stages.start >= 3)
        );
        for span in systems {
            for chain in &span.chains {
                assert!(chain.elements.is_sorted_by_key(|&k| (stages[k], k)));
            }
        }
    }

    #[test]
    fn costs_decide_which_stages_go_together() {
        // 0 long apart from everything; 1 then 2 conflicting, short. Merged: chains [0]
        // and [1, 2] at once (10 units); by stages: max(10, 1) + 1 = 11.
        let access = vec![access(&[0], &[]), access(&[1], &[]), access(&[1], &[])];
        let stages = super::super::stages::stages_of_ids(&access);
        assert_eq!(stages, [0, 0, 1]);
        let spans = planned(&stages, &access, &[10.0, 1.0, 1.0], 2, 0.01);
        assert_eq!(shape(&spans), [vec![vec![0], vec![1, 2]]]);
        // A chain's writes and reads are its systems'.
        let Span::Systems(span) = &spans[0] else {
            panic!("systems")
        };
        assert_eq!(span.chains[1].writes.len(), 2);
    }
}
