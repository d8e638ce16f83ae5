//! Parent lists walked in time linear in their length, with no recursion: the order that
//! puts parents before children ([`parents_first`]), the bones on a cycle of parents
//! ([`in_cycles`]) and what each bone takes from its nearest ancestor that has it
//! ([`nearest`]).
//!
//! A parent list holds each bone's parent index, `None` for a root. Files hold whatever
//! their writer put there, so a parent past the end of the list or at the bone itself ends
//! a chain here (the bone is treated as a root), and a cycle of parents never loops: a
//! skeleton of 100,000 bones in one chain costs about what 100,000 roots cost.

/// The parent of bone `i` that a walk up the hierarchy follows: `None` for a root and for a
/// parent past the list or at the bone itself.
fn parent_of(parents: &[Option<usize>], i: usize) -> Option<usize> {
    parents[i].filter(|&p| p < parents.len() && p != i)
}

/// Each bone's children, in index order, as one list: the children of bone `p` are
/// `child[start[p]..start[p + 1]]` (a counting sort of the bones by parent).
struct Children {
    start: Vec<usize>,
    child: Vec<usize>,
}

impl Children {
    fn of(parents: &[Option<usize>]) -> Self {
        let n = parents.len();
        let mut start = vec![0usize; n + 1];
        for i in 0..n {
            if let Some(p) = parent_of(parents, i) {
                start[p + 1] += 1;
            }
        }
        for p in 0..n {
            start[p + 1] += start[p];
        }
        let mut next = start.clone();
        let mut child = vec![0usize; start[n]];
        for i in 0..n {
            if let Some(p) = parent_of(parents, i) {
                child[next[p]] = i;
                next[p] += 1;
            }
        }
        Self { start, child }
    }

    fn of_bone(&self, p: usize) -> &[usize] {
        &self.child[self.start[p]..self.start[p + 1]]
    }
}

/// Bone indices ordered so that each parent comes before its children; bones on a cycle of
/// parents, and the bones under them, come last, in index order.
///
/// The order is that of placing bones in passes over the list, each pass taking in index
/// order every bone that is a root or whose parent is already placed (earlier in the same
/// pass included): files and the formats written from a scene rely on it, so it is kept
/// exactly. A bone placed in pass `k` puts a child after it in the list in the same pass and
/// a child before it in pass `k + 1`, so the passes are found from the roots down, and the
/// bones sorted by pass and then index, in time linear in the bones.
pub fn parents_first(parents: &[Option<usize>]) -> Vec<usize> {
    let n = parents.len();
    let children = Children::of(parents);
    // The pass that places each bone, from 1; 0 for a bone never placed (on or under a cycle).
    let mut pass = vec![0usize; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| parent_of(parents, i).is_none()).collect();
    for &root in &stack {
        pass[root] = 1;
    }
    while let Some(p) = stack.pop() {
        for &c in children.of_bone(p) {
            pass[c] = pass[p] + usize::from(c < p);
            stack.push(c);
        }
    }
    // A counting sort by pass, bones never placed last; stable, so in index order within each.
    let last = pass.iter().copied().max().unwrap_or(0) + 1;
    let key = |i: usize| if pass[i] == 0 { last } else { pass[i] };
    let mut start = vec![0usize; last + 2];
    for i in 0..n {
        start[key(i) + 1] += 1;
    }
    for k in 0..=last {
        start[k + 1] += start[k];
    }
    let mut order = vec![0usize; n];
    for i in 0..n {
        let slot = &mut start[key(i)];
        order[*slot] = i;
        *slot += 1;
    }
    order
}

/// The bones that are on a cycle of parents (each its own ancestor), in index order; bones
/// that only lead into a cycle are not on it. Empty for a tree.
pub fn in_cycles(parents: &[Option<usize>]) -> Vec<usize> {
    const NEW: u8 = 0;
    const ON_WALK: u8 = 1;
    const DONE: u8 = 2;
    let n = parents.len();
    let mut state = vec![NEW; n];
    let mut cyclic = vec![false; n];
    let mut walk = Vec::new();
    // Each bone is walked over once: a walk stops at a root or at a bone seen before; when
    // that bone is on the current walk, the walk from it on is a cycle.
    for start in 0..n {
        let mut at = Some(start);
        while let Some(i) = at.filter(|&i| state[i] == NEW) {
            state[i] = ON_WALK;
            walk.push(i);
            at = parent_of(parents, i);
        }
        if let Some(i) = at.filter(|&i| state[i] == ON_WALK) {
            let mut j = i;
            loop {
                cyclic[j] = true;
                match parent_of(parents, j) {
                    Some(p) if p != i => j = p,
                    _ => break,
                }
            }
        }
        for i in walk.drain(..) {
            state[i] = DONE;
        }
    }
    (0..n).filter(|&i| cyclic[i]).collect()
}

/// For each bone, the value of the nearest bone among itself and its ancestors for which
/// `own` gives one; `None` when no bone up its chain has one (a chain that enters a cycle of
/// parents ends once it has gone round it). `own` is asked once per bone at most.
pub fn nearest<T: Copy>(parents: &[Option<usize>], mut own: impl FnMut(usize) -> Option<T>) -> Vec<Option<T>> {
    let n = parents.len();
    // `Some(found)` once a bone's answer is known.
    let mut known: Vec<Option<Option<T>>> = vec![None; n];
    let mut on_walk = vec![false; n];
    let mut walk = Vec::new();
    for start in 0..n {
        let mut at = start;
        let found = loop {
            if let Some(found) = known[at] {
                break found;
            }
            if let Some(value) = own(at) {
                known[at] = Some(Some(value));
                break Some(value);
            }
            if on_walk[at] {
                // Round a cycle in which no bone has a value.
                break None;
            }
            on_walk[at] = true;
            walk.push(at);
            match parent_of(parents, at) {
                Some(p) => at = p,
                None => break None,
            }
        };
        for i in walk.drain(..) {
            on_walk[i] = false;
            known[i] = Some(found);
        }
    }
    known.into_iter().map(Option::flatten).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::math::Transform;
    use crate::pose::TrackKinds;
    use crate::scene::{AnimKind, Animation, Bone, BoneTrack, ChannelKinds, Skeleton};

    /// The passes as the scene placed bones before (quadratic in a chain listed children
    /// first), kept as the reference that [`parents_first`] must match.
    fn parents_first_by_passes(parents: &[Option<usize>]) -> Vec<usize> {
        let n = parents.len();
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for _ in 0..=n {
            let before = order.len();
            for i in 0..n {
                if !placed[i] && parent_of(parents, i).is_none_or(|p| placed[p]) {
                    placed[i] = true;
                    order.push(i);
                }
            }
            if order.len() == before {
                break;
            }
        }
        order.extend((0..n).filter(|&i| !placed[i]));
        order
    }

    /// Each bone's walk up its chain, bounded by the bone count (the reference for
    /// [`in_cycles`] and [`nearest`]).
    fn ancestors(parents: &[Option<usize>], i: usize) -> Vec<usize> {
        let mut out = vec![i];
        let mut at = i;
        for _ in 0..parents.len() {
            match parent_of(parents, at) {
                Some(p) => {
                    out.push(p);
                    at = p;
                }
                None => break,
            }
        }
        out
    }

    /// Every parent list of up to `n` bones whose parents are `None`, a bone, the bone
    /// itself or one past the end.
    fn every_parent_list(n: usize) -> Vec<Vec<Option<usize>>> {
        let choices = n + 1;
        let total = (choices as u32 + 1).pow(n as u32);
        (0..total)
            .map(|mut code| {
                (0..n)
                    .map(|_| {
                        let c = (code % (choices as u32 + 1)) as usize;
                        code /= choices as u32 + 1;
                        (c > 0).then(|| c - 1)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn parents_first_matches_the_passes_for_every_list_of_up_to_five_bones() {
        for n in 0..=5 {
            for parents in every_parent_list(n) {
                assert_eq!(
                    parents_first(&parents),
                    parents_first_by_passes(&parents),
                    "{parents:?}"
                );
            }
        }
    }

    #[test]
    fn in_cycles_and_nearest_match_a_walk_up_every_chain() {
        for n in 0..=5 {
            for parents in every_parent_list(n) {
                let walks: Vec<Vec<usize>> = (0..n).map(|i| ancestors(&parents, i)).collect();
                let cyclic: Vec<usize> = (0..n).filter(|&i| walks[i][1..].contains(&i)).collect();
                assert_eq!(in_cycles(&parents), cyclic, "{parents:?}");
                // Odd bones hold their index: each bone finds the nearest odd one up its chain.
                let own = |i: usize| (i % 2 == 1).then_some(i);
                let expected: Vec<Option<usize>> = walks.iter().map(|w| w.iter().find_map(|&i| own(i))).collect();
                assert_eq!(nearest(&parents, own), expected, "{parents:?}");
            }
        }
    }

    #[test]
    fn a_chain_of_a_million_bones_listed_children_first_is_ordered_root_first() {
        let n = 1_000_000;
        // Bone i's parent is bone i + 1: the root is the last bone.
        let parents: Vec<Option<usize>> = (0..n).map(|i| (i + 1 < n).then_some(i + 1)).collect();
        let order = parents_first(&parents);
        assert!(order.iter().copied().eq((0..n).rev()));
        assert!(in_cycles(&parents).is_empty());
        let root_value = nearest(&parents, |i| (i == n - 1).then_some(7u8));
        assert!(root_value.iter().all(|&v| v == Some(7)));
    }

    /// The walk [`crate::pose::channel_kinds`] made before it was linear: per track and
    /// channel, from the parent of the track's bone up, at most one step per bone.
    fn channel_kinds_by_walks(anim: &Animation, skeleton: &Skeleton) -> Vec<TrackKinds> {
        let first: HashMap<&str, &BoneTrack> = anim.bones.iter().rev().map(|t| (t.bone.as_str(), t)).collect();
        let n = skeleton.bones.len();
        let set = |t: &BoneTrack, channel: fn(&ChannelKinds) -> Option<AnimKind>| {
            channel(&t.channel_overrides).or(t.kind_override)
        };
        let resolve = |track: &BoneTrack, channel: fn(&ChannelKinds) -> Option<AnimKind>| {
            let mut found = set(track, channel);
            if found.is_none() {
                let mut at = skeleton.find(&track.bone).and_then(|b| skeleton.bones[b].parent);
                for _ in 0..n {
                    let Some(i) = at.filter(|&i| i < n) else { break };
                    let bone = &skeleton.bones[i];
                    found = first.get(bone.name.as_str()).and_then(|t| set(t, channel));
                    if found.is_some() {
                        break;
                    }
                    at = bone.parent.filter(|&p| p != i);
                }
            }
            found.or(channel(&track.channel_kinds)).unwrap_or(anim.kind)
        };
        anim.bones
            .iter()
            .map(|t| TrackKinds {
                translation: resolve(t, |c| c.translation),
                rotation: resolve(t, |c| c.rotation),
                scale: resolve(t, |c| c.scale),
            })
            .collect()
    }

    #[test]
    fn channel_kinds_match_a_walk_up_from_each_track() {
        // Small skeletons and animations drawn from a fixed sequence: shared names, parents
        // that are roots, the bone itself, past the end or in cycles, and every kind of override.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let kinds = [
            AnimKind::Absolute,
            AnimKind::Relative,
            AnimKind::Additive,
            AnimKind::Delta,
        ];
        let names = ["a", "b", "c", "d"];
        for _ in 0..20_000 {
            let n = next(6);
            let mut skeleton = Skeleton::default();
            for _ in 0..n {
                let parent = match next(n + 2) {
                    0 => None,
                    p => Some(p - 1),
                };
                skeleton.bones.push(Bone {
                    kind: Default::default(),
                    name: names[next(3)].into(),
                    parent,
                    local: Transform::IDENTITY,
                    global: Transform::IDENTITY,
                    cosmetic: false,
                    scale_compensate: false,
                    rest_scale: crate::math::Vec3::ONE,
                });
            }
            let kind = |next: &mut dyn FnMut(usize) -> usize| match next(6) {
                k if k < 4 => Some(kinds[k]),
                _ => None,
            };
            let mut anim = Animation {
                kind: kinds[next(4)],
                ..Animation::default()
            };
            for _ in 0..next(6) {
                let channels = |next: &mut dyn FnMut(usize) -> usize| ChannelKinds {
                    translation: kind(next),
                    rotation: kind(next),
                    scale: kind(next),
                };
                anim.bones.push(BoneTrack {
                    bone: names[next(4)].into(),
                    kind_override: if next(3) == 0 { kind(&mut next) } else { None },
                    channel_overrides: if next(3) == 0 {
                        channels(&mut next)
                    } else {
                        ChannelKinds::NONE
                    },
                    channel_kinds: channels(&mut next),
                    ..BoneTrack::default()
                });
            }
            assert_eq!(
                crate::pose::channel_kinds(&anim, &skeleton),
                channel_kinds_by_walks(&anim, &skeleton),
                "{skeleton:?} {anim:?}"
            );
        }
    }

    #[test]
    fn a_cycle_and_what_hangs_from_it_come_last() {
        // 0 -> 1 -> 0 is a cycle, 2 hangs from it, 3 is a root with child 4.
        let parents = [Some(1), Some(0), Some(0), None, Some(3)];
        assert_eq!(parents_first(&parents), [3, 4, 0, 1, 2]);
        assert_eq!(in_cycles(&parents), [0, 1]);
        assert_eq!(
            nearest(&parents, |i| (i == 1).then_some(i)),
            [Some(1), Some(1), Some(1), None, None]
        );
    }
}
