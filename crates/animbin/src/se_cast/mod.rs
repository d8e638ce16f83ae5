//! SEAnim and SEModel to Cast and back without the scene model, so that a round trip gives
//! back the same bytes.
//!
//! The scene model is the common ground of every format, and so it is narrower than either
//! side here: it has no place for an SEAnim's bone flags, keyless bones, modifier order,
//! reserved bytes or custom block, nor for an SEModel's per-layer material indices or
//! header flags. These mappings go straight from one format's model to the other's:
//! [`seanim_to_cast`] and [`semodel_to_cast`] write everything an SE file holds into a Cast
//! file, [`cast_to_seanim`] and [`cast_to_semodel`] read it back. [`crate::convert`] takes
//! them for SEAnim or SEModel into Cast, and for Cast into SEAnim or SEModel when the Cast
//! file is one they made (else it goes through the scene, with its report).
//!
//! ## What goes where
//!
//! What both formats hold goes where Cast keeps it, so that every Cast reader sees it. What
//! Cast has no place for goes into extra properties whose names start with `se.` (the SE
//! specification's field name after the dot). The format allows properties it does not
//! document on every node and its readers skip them; each is written only when the SE file
//! holds something other than what the Cast side already says. Hashes count up from
//! [`animbin_cast::FIRST_HASH`] in file order, as the reference writer hands them out, and
//! index buffers take the narrowest width that holds them.
//!
//! ### SEAnim
//! One Root holding one Animation:
//!
//! | SEAnim | Cast |
//! |---|---|
//! | `framerate` | `fr` (the same `f32`) |
//! | `animFlags` LOOPED | `lo`; other bits in `se.animFlags` (`b`) |
//! | `animType` | each curve's `m` (`delta` is written `relative`); `se.animType` (`s`) for `delta`, and for a type no curve carries |
//! | each bone's rotation keys | an `rq` curve: `kb` the frames, `kv` the `4v` values |
//! | each bone's location and scale keys | `tx` `ty` `tz` and `sx` `sy` `sz` curves on the same frames |
//! | bone order | the curves' order (bone after bone: `rq`, then `t*`, then `s*`) |
//! | bones without keys, repeated names, bone `flags` | an Animation Skeleton whose Bones (`n`) list every SE bone in order, with `se.flags` (`b`, when not 0) and `se.keys` (`b`: 1 rotation, 2 location, 4 scale: the curves that bone has) |
//! | key values of a high precision file that `f32` does not hold | the exact `f64` values in the curve's `se.kv` (`d`) |
//! | `dataPresenceFlags` | derived from the keys, notes and custom block; else `se.dataPresenceFlags` (`b`) |
//! | `dataPropertyFlags` (precision) | `se.dataPropertyFlags` (`b`) when not 0 |
//! | modifiers | one CurveModeOverride each, in the list's order (each just before its bone's curves when the list is in bone order, else all before the curves): `nn` the bone's name, `m` its type, `ot` `or` `os` 1; `se.animType` for `delta`, `se.bone` (`i`) when the name does not find that bone (repeated names, an index past the bones) |
//! | notes | one NotificationTrack per name (in order of first appearance) with the frames in file order; `se.noteOrder` (indices of tracks) when the notes are not in frame order |
//! | `frameCount` other than the last frame plus 1 | `se.frameCount` (`i`) |
//! | `reserved1`, `reserved2`, bytes past `headerSize` 0x1C, counts of absent blocks | `se.reserved1` (`b`), `se.reserved2` (`b`), `se.headerExtra` (`b`), `se.strayCounts` (`i`: bones, modifiers, notes), when not zero or empty |
//! | the custom block | `se.custom` (`b`) |
//! | the SEBlend trailer, other bytes after the last block | `se.trailer` (`b`, the bytes as written) |
//!
//! ### SEModel
//! One Root holding one Model (no name: SEModel has none):
//!
//! | SEModel | Cast |
//! |---|---|
//! | bones | a Skeleton of Bones: `n`, `p` (`i`, -1 as 0xFFFFFFFF), `wp` `wr` (the global pose), `lp` `lr` (the local pose), `s` (the scale), each as present; `se.flags` (`b`) when not 0 |
//! | materials | Materials: `n`, `t` "pbr", the `diffuse`, `normal` and `specular` names as File children in those slots (empty names have no File; `se.simple` 1 when every name is empty) |
//! | meshes | Meshes: `vp`, `vn`, `u0`... with `ul`, colours packed in `c0` with `cl` 1, `wb` `wv` `mi`, `f`, and `m` naming the material of the first UV layer; `se.flags` (`b`) when not 0, `se.materialIndices` (`i`) when the layers' material indices are other than that material then -1s, `se.maxInfluence` (`b`) for a `maxInfluence` without weights |
//! | `dataFlags`, `boneFlags`, `meshFlags` | derived from what the Model holds; else `se.dataFlags`, `se.boneFlags`, `se.meshFlags` (`b`) |
//! | reserved bytes, counts of absent blocks | `se.reserved` (`b`), `se.strayCounts` (`i`: bones, meshes, materials) |
//! | the SEBlend trailer, other bytes after the last block | `se.trailer` (`b`, the bytes as written); and each SEBlend shape that moves a mesh's vertices as a BlendShape node after everything else (`n`, `b` the mesh, `vi` the vertices, `vp` base position + offset), which Cast readers use and the way back skips |
//! | the draft layout | `se.layout` "draft" on the Model, and its own header fields (`se.modelType`, `se.modelFlags`, `se.reserved1`, `se.reserved2`, `se.collisionCount`, `se.materialCount`, `se.maxSkinInfluence`, `se.uvSetCount`), its per-vertex UV material indices (`se.uvMaterials`) and, where `f32` does not give back its half floats bit for bit, their bits (`se.normals`, `se.weights`, `h`) |
//!
//! ## What does not travel
//! Nothing an SE file holds is left out: every file that reads comes back byte for byte
//! (an SEAnim read with the old `frame_t` rule comes back as its own rewrite does, under the
//! current rule). What Cast readers other than these functions do not see is what the `se.`
//! properties hold; among it, the SEBlend keys of an SEAnim, which Cast could hold as `bs`
//! curves but which travel only as the trailer's bytes (their layout is unconfirmed): the
//! conversion reports them. An SEModel's SEBlend shapes are BlendShape nodes as well.
//!
//! Going back, a Cast file is read as an SE file only when the mapping gives back that very
//! file (the same bytes): anything else in it, an edit, another node, other hashes, would
//! not survive, so such a file goes through the scene model, whose report names what is
//! lost.

mod seanim;
mod semodel;

pub use seanim::{cast_to_seanim, seanim_to_cast};
pub use semodel::{cast_to_semodel, semodel_to_cast};

pub(crate) use seanim::seanim_from_cast_unchecked;
pub(crate) use semodel::semodel_from_cast_unchecked;

use std::io::Write;

use animbin_cast::{CastFile, Node, NodeKind, Property, Value};
use animbin_core::io::MatchingWriter;
use animbin_core::scene::ConversionReport;
use animbin_semodel::Layout;

use crate::{Document, Target};

/// The report line for an SEAnim's SEBlend trailer, which travels as bytes.
pub(crate) const SEBLEND_LOSS: &str = "SEBlend blend shapes as Cast blend shapes (the trailer travels as the bytes of se.trailer, which Cast readers skip)";

use animbin_cast::NodeHashes as Hashes;

/// Whether two files have the same bytes (so that NaN values compare by their bits): `b`
/// is compared with `a`'s bytes as it is encoded, not encoded into memory beside them.
fn same_file(a: &CastFile, b: &CastFile) -> bool {
    animbin_cast::to_bytes(a).is_ok_and(|a| writes_exactly(&a, |w| animbin_cast::write(b, w)))
}

/// Whether `write` succeeds and writes exactly `expected`. What it writes is compared as it
/// is written, so the check holds one encoding in memory, not two.
fn writes_exactly<E>(expected: &[u8], write: impl FnOnce(&mut MatchingWriter<'_>) -> Result<(), E>) -> bool {
    let mut matches = MatchingWriter::new(expected);
    write(&mut matches).is_ok() && matches.matched_all()
}

/// The bytes a [`Chunks`] writer sends at a time.
const CHUNK: usize = 1 << 20;

/// A [`Write`] that sends what is written through a bounded channel, a chunk at a time, or
/// (with no channel: where there are no threads) keeps the chunks.
struct Chunks {
    sender: Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
    kept: Vec<Vec<u8>>,
    chunk: Vec<u8>,
}

impl Chunks {
    fn send(&mut self) -> std::io::Result<()> {
        if self.chunk.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.chunk, Vec::with_capacity(CHUNK));
        match &self.sender {
            Some(sender) => sender
                .send(chunk)
                .map_err(|_| std::io::Error::other("the comparison stopped")),
            None => {
                self.kept.push(chunk);
                Ok(())
            }
        }
    }
}

impl Write for Chunks {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.chunk.extend_from_slice(buf);
        if self.chunk.len() >= CHUNK {
            self.send()?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A [`Write`] that checks what is written against the chunks a [`Chunks`] writer sends,
/// refusing the first bytes that differ (or run past them).
struct MatchesChunks<'a> {
    receiver: &'a std::sync::mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Write for MatchesChunks<'_> {
    fn write(&mut self, mut buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len();
        while !buf.is_empty() {
            if self.at == self.chunk.len() {
                self.chunk = self
                    .receiver
                    .recv()
                    .map_err(|_| std::io::Error::other("longer than the other file"))?;
                self.at = 0;
            }
            let k = buf.len().min(self.chunk.len() - self.at);
            if buf[..k] != self.chunk[self.at..self.at + k] {
                return Err(std::io::Error::other("the bytes differ"));
            }
            self.at += k;
            buf = &buf[k..];
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether `a` and `b` both succeed and write the same bytes. Neither encoding is held: `a`
/// writes on a thread of its own, a chunk at a time through a channel of a few chunks, and
/// what `b` writes is compared with them as it comes.
#[cfg(not(target_arch = "wasm32"))]
fn write_the_same<EA, EB>(
    a: impl FnOnce(&mut Chunks) -> Result<(), EA> + Send,
    b: impl FnOnce(&mut MatchesChunks<'_>) -> Result<(), EB>,
) -> bool {
    let (sender, receiver) = std::sync::mpsc::sync_channel(2);
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || {
            let mut chunks = Chunks {
                sender: Some(sender),
                kept: Vec::new(),
                chunk: Vec::with_capacity(CHUNK),
            };
            a(&mut chunks).is_ok() && chunks.send().is_ok()
        });
        let same = matches_to_the_end(&receiver, b);
        // A writer still sending (a longer file, or `b` stopped early) fails once nothing
        // receives.
        drop(receiver);
        writer.join().unwrap_or(false) && same
    })
}

/// [`write_the_same`] where there are no threads (the browser): `a`'s chunks are kept whole,
/// then what `b` writes is compared with them.
#[cfg(target_arch = "wasm32")]
fn write_the_same<EA, EB>(
    a: impl FnOnce(&mut Chunks) -> Result<(), EA> + Send,
    b: impl FnOnce(&mut MatchesChunks<'_>) -> Result<(), EB>,
) -> bool {
    let mut chunks = Chunks {
        sender: None,
        kept: Vec::new(),
        chunk: Vec::with_capacity(CHUNK),
    };
    if !(a(&mut chunks).is_ok() && chunks.send().is_ok()) {
        return false;
    }
    let (sender, receiver) = std::sync::mpsc::sync_channel(chunks.kept.len());
    for chunk in chunks.kept {
        if sender.send(chunk).is_err() {
            return false;
        }
    }
    drop(sender);
    matches_to_the_end(&receiver, b)
}

/// Whether `b` succeeds and writes what `receiver` brings, to its end.
fn matches_to_the_end<EB>(
    receiver: &std::sync::mpsc::Receiver<Vec<u8>>,
    b: impl FnOnce(&mut MatchesChunks<'_>) -> Result<(), EB>,
) -> bool {
    let mut matches = MatchesChunks {
        receiver,
        chunk: Vec::new(),
        at: 0,
    };
    // The end of `b` must be the end of `a`: every chunk used up, and no more to come.
    b(&mut matches).is_ok() && matches.at == matches.chunk.len() && receiver.recv().is_err()
}

/// The only top-level node, when it is a Root with one child of `kind`.
fn only_child(file: &CastFile, kind: NodeKind) -> Option<&Node> {
    let [root] = file.roots.as_slice() else {
        return None;
    };
    match root.children.as_slice() {
        [child] if root.is(NodeKind::Root) && child.is(kind) => Some(child),
        _ => None,
    }
}

/// Extra properties: written with a name and read back by it.
fn bytes(name: &'static str, values: &[u8]) -> Property {
    Property::new(name, Value::Byte(values.to_vec()))
}

fn byte(name: &'static str, value: u8) -> Property {
    bytes(name, &[value])
}

fn integers(name: &'static str, values: &[u32]) -> Property {
    Property::new(name, Value::Integer(values.to_vec()))
}

/// The `b` array of property `name` as a fixed-size array, or zeros when it is absent.
fn array_of<const N: usize>(node: &Node, name: &str) -> Option<[u8; N]> {
    match node.array::<u8>(name) {
        None => Some([0; N]),
        Some(b) => b.try_into().ok(),
    }
}

/// The index values (`b`, `h` or `i`) of property `name`, widened.
fn indices_of(node: &Node, name: &str) -> Option<Vec<u32>> {
    Some(node.indices(name)?.to_vec())
}

/// Pushes a `b` array property when it holds anything but zeros.
fn push_unless_zero(node: &mut Node, name: &'static str, values: &[u8]) {
    if values.iter().any(|&b| b != 0) {
        node.push(bytes(name, values));
    }
}

/// Pushes a `b` array property when it holds anything.
fn push_unless_empty(node: &mut Node, name: &'static str, values: &[u8]) {
    if !values.is_empty() {
        node.push(bytes(name, values));
    }
}

/// The conversion of `document` to `target` that goes straight between SE and Cast, when one
/// applies: an SEAnim or SEModel into Cast, or a Cast file that [`seanim_to_cast`] or
/// [`semodel_to_cast`] made back into its format (for an SEModel, in the layout it had,
/// unless `target` asks for the other, which the scene path converts). `None` sends the
/// conversion through the scene model.
pub(crate) fn convert(document: &Document, target: Target) -> Option<(Document, ConversionReport)> {
    let mut report = ConversionReport::default();
    let converted = match (document, target) {
        (Document::SeAnim(anim), Target::Cast) => {
            let cast = seanim_to_cast(anim);
            if anim.trailer.seblend().is_some() {
                report.lose(SEBLEND_LOSS);
            }
            let back = seanim_from_cast_unchecked(&cast);
            let same = back.is_some_and(|back| {
                write_the_same(|w| animbin_seanim::write(anim, w), |w| animbin_seanim::write(&back, w))
            });
            // An SEAnim this crate cannot encode is not the mapping's loss.
            if !same && animbin_seanim::write(anim, std::io::sink()).is_ok() {
                report.lose(UNMAPPED);
            }
            Document::Cast(cast)
        }
        (Document::SeModel(model), Target::Cast) => {
            let cast = semodel_to_cast(model);
            let back = semodel_from_cast_unchecked(&cast);
            let same = back.is_some_and(|back| {
                write_the_same(
                    |w| animbin_semodel::write(model, w),
                    |w| animbin_semodel::write(&back, w),
                )
            });
            // An SEModel this crate cannot encode is not the mapping's loss.
            if !same && animbin_semodel::write(model, std::io::sink()).is_ok() {
                report.lose(UNMAPPED);
            }
            Document::Cast(cast)
        }
        (Document::Cast(file), Target::SeAnim) => Document::SeAnim(cast_to_seanim(file)?),
        (Document::Cast(file), Target::SeModel | Target::SeModelDeployed | Target::SeModelDraft) => {
            let model = cast_to_semodel(file)?;
            let wanted = match target {
                Target::SeModelDeployed => Some(Layout::Deployed),
                Target::SeModelDraft => Some(Layout::Draft),
                _ => None,
            };
            if wanted.is_some_and(|layout| layout != model.layout()) {
                return None;
            }
            Document::SeModel(model)
        }
        _ => return None,
    };
    Some((converted, report))
}

/// The report line for an SE file that the mapping does not give back whole (which would be
/// a gap in the mapping: it is meant to carry everything).
const UNMAPPED: &str = "fields of this SE file that the Cast mapping does not give back (Cast -> SE gives other bytes)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_exactly_accepts_only_the_same_bytes() {
        let write_all = |bytes: &'static [u8]| move |w: &mut MatchingWriter<'_>| w.write_all(bytes);
        let expected = b"abcdef";
        assert!(writes_exactly(expected, write_all(b"abcdef")));
        assert!(writes_exactly(b"", write_all(b"")));
        // Shorter, longer, one byte changed.
        assert!(!writes_exactly(expected, write_all(b"abcde")));
        assert!(!writes_exactly(expected, write_all(b"abcdefg")));
        assert!(!writes_exactly(expected, write_all(b"abcdXf")));
        // In pieces, as writers write.
        assert!(writes_exactly(expected, |w: &mut MatchingWriter<'_>| {
            w.write_all(b"ab")?;
            w.write_all(b"")?;
            w.write_all(b"cdef")
        }));
        // A writer's own error is a difference.
        assert!(!writes_exactly(expected, |_: &mut MatchingWriter<'_>| Err("refused")));
    }

    #[test]
    fn write_the_same_compares_every_byte_across_chunks() {
        let long: Vec<u8> = (0..CHUNK * 3 + 17).map(|i| (i % 251) as u8).collect();
        let write_in = |bytes: &[u8], piece: usize, w: &mut dyn Write| -> std::io::Result<()> {
            bytes.chunks(piece.max(1)).try_for_each(|c| w.write_all(c))
        };
        for (a, b, same) in [
            (&long[..], &long[..], true),
            (&long[..CHUNK], &long[..CHUNK], true),
            (&b""[..], &b""[..], true),
            (&long[..], &long[..long.len() - 1], false),
            (&long[..long.len() - 1], &long[..], false),
            (&long[..CHUNK], &long[..], false),
            (&long[..], &b""[..], false),
            (&b""[..], &long[..1], false),
        ] {
            for (pa, pb) in [(7, 100_003), (CHUNK + 5, 3), (a.len(), b.len())] {
                assert_eq!(
                    write_the_same(|w| write_in(a, pa, w), |w| write_in(b, pb, w)),
                    same,
                    "{} and {} bytes, in pieces of {pa} and {pb}",
                    a.len(),
                    b.len()
                );
            }
        }
        let mut changed = long.clone();
        changed[CHUNK * 2 + 3] ^= 1;
        assert!(!write_the_same(
            |w| write_in(&long, 4096, w),
            |w| write_in(&changed, 999, w)
        ));
        // Either side's own error is a difference.
        assert!(!write_the_same(|_| Err("refused"), |w| write_in(&long, 10, w)));
        assert!(!write_the_same(|w| write_in(&long, 10, w), |_| Err("refused")));
    }

    #[test]
    fn same_file_compares_the_encoded_bytes() {
        let file = |value: f32| CastFile {
            flags: 0,
            roots: vec![Node::with(
                NodeKind::Root,
                1,
                vec![Property::new("v", Value::Float(vec![1.0, value]))],
                vec![],
            )],
        };
        assert!(same_file(&file(2.0), &file(2.0)));
        assert!(!same_file(&file(2.0), &file(3.0)));
        // NaN compares by its bits: the same NaN is the same file, another NaN is not.
        assert!(same_file(&file(f32::NAN), &file(f32::NAN)));
        assert!(!same_file(&file(f32::NAN), &file(f32::from_bits(0x7fc0_0001))));
        let mut longer = file(2.0);
        longer.roots.push(file(2.0).roots.remove(0));
        assert!(!same_file(&file(2.0), &longer));
        assert!(!same_file(&longer, &file(2.0)));
    }
}
