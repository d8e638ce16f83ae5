//! The GLB container: a 12-byte header, a JSON chunk and an optional BIN chunk, read from
//! bytes and written either whole ([`Glb::to_vec`]) or streamed from the BIN chunk's pieces
//! ([`Glb::write`], [`BinPieces`]).
//!
//! Parsed here rather than by the `gltf` crate so that every length is checked with the
//! byte offset of the field that broke (a header length under 12, a chunk running past the
//! end), and nothing can underflow.

use std::borrow::Cow;
use std::io::Write;
use std::sync::Arc;

use animbin_core::scene::Scene;
use zerocopy::IntoBytes;

use crate::MAGIC;
use crate::error::{Error, Result};
use animbin_core::strings::show_bytes;

/// Chunk type of the JSON chunk ("JSON").
const CHUNK_JSON: u32 = 0x4E4F_534A;
/// Chunk type of the binary chunk ("BIN\0").
const CHUNK_BIN: u32 = 0x004E_4942;

/// The chunks of a GLB file, borrowed from its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Glb<'a> {
    /// The JSON chunk's bytes (trailing space padding included).
    pub json: &'a [u8],
    /// The BIN chunk's bytes (trailing zero padding included), when present.
    pub bin: Option<&'a [u8]>,
}

fn u32_at(bytes: &[u8], offset: usize, what: &str) -> Result<u32> {
    bytes
        .get(offset..offset + 4)
        .and_then(|b| b.try_into().ok())
        .map(u32::from_le_bytes)
        .ok_or_else(|| Error::glb(offset as u64, format!("the 4-byte {what}"), "the end of the file"))
}

impl<'a> Glb<'a> {
    /// Where the JSON chunk's data starts in a GLB file: after the 12-byte header and the
    /// chunk's own 8-byte header (the JSON chunk must come first).
    pub const JSON_START: u64 = 20;

    /// Splits a GLB file into its chunks.
    ///
    /// Chunks after the BIN chunk are skipped, as the specification asks of readers
    /// (unknown chunk types), but each must still fit in the file.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        if !bytes.starts_with(MAGIC) {
            return Err(Error::glb(
                0,
                "the magic \"glTF\"",
                show_bytes(bytes.get(..4).unwrap_or(bytes)),
            ));
        }
        let version = u32_at(bytes, 4, "version")?;
        if version != 2 {
            return Err(Error::glb(4, "version 2", version));
        }
        let length = u32_at(bytes, 8, "length")? as usize;
        if length < 12 || length > bytes.len() {
            return Err(Error::glb(
                8,
                format!("a total length between 12 and the file size {}", bytes.len()),
                length,
            ));
        }
        let bytes = &bytes[..length];
        let mut offset = 12;
        let mut json = None;
        let mut bin = None;
        let mut index = 0;
        while offset < bytes.len() {
            let chunk_length = u32_at(bytes, offset, "chunk length")? as usize;
            let chunk_type = u32_at(bytes, offset + 4, "chunk type")?;
            let start = offset + 8;
            let end = start
                .checked_add(chunk_length)
                .filter(|&end| end <= bytes.len())
                .ok_or_else(|| {
                    Error::glb(
                        offset as u64,
                        format!("a chunk length that fits in the {} bytes left", bytes.len() - start),
                        chunk_length,
                    )
                })?;
            let data = &bytes[start..end];
            match (index, chunk_type) {
                (0, CHUNK_JSON) => json = Some(data),
                (0, other) => {
                    return Err(Error::glb(
                        offset as u64 + 4,
                        "the JSON chunk first",
                        format!("chunk type {other:#010x}"),
                    ));
                }
                (1, CHUNK_BIN) => bin = Some(data),
                (_, CHUNK_JSON) => {
                    return Err(Error::glb(offset as u64 + 4, "one JSON chunk", "a second one"));
                }
                (_, CHUNK_BIN) => {
                    return Err(Error::glb(
                        offset as u64 + 4,
                        "the BIN chunk right after the JSON chunk",
                        "a later one",
                    ));
                }
                _ => {}
            }
            index += 1;
            offset = end;
        }
        let json = json.ok_or_else(|| Error::glb(12, "a JSON chunk", "the end of the file"))?;
        Ok(Self { json, bin })
    }

    /// Writes a GLB file: the JSON padded with spaces and the BIN chunk padded with zeros,
    /// each to a multiple of 4 bytes.
    pub fn to_vec(json: &[u8], bin: Option<&[u8]>) -> Result<Vec<u8>> {
        let sizes = Sizes::of(json.len(), bin.map(<[u8]>::len))?;
        let mut out = Vec::with_capacity(sizes.total);
        sizes.write(json, &mut out)?;
        if let Some(bin) = bin {
            out.extend_from_slice(bin);
            out.resize(sizes.total, 0);
        }
        Ok(out)
    }

    /// Writes a GLB file of `json` and the BIN chunk's `bin` pieces straight into `writer`,
    /// as [`Glb::to_vec`] lays them out: nothing is joined in memory first. Sizes are checked
    /// before the first byte is written.
    pub fn write(json: &[u8], bin: Option<&BinPieces>, writer: impl Write) -> Result<()> {
        Self::write_streamed(json.len(), |w| Ok(w.write_all(json)?), bin, writer)
    }

    /// [`Glb::write`] of a JSON chunk of `json_len` bytes that `write_json` writes as it makes
    /// them (and must write exactly), so the JSON text is never held whole. Sizes are checked
    /// before the first byte is written.
    pub(crate) fn write_streamed<W: Write>(
        json_len: usize,
        write_json: impl FnOnce(&mut W) -> Result<()>,
        bin: Option<&BinPieces>,
        mut writer: W,
    ) -> Result<()> {
        let sizes = Sizes::of(json_len, bin.map(BinPieces::len))?;
        sizes.write_head(&mut writer)?;
        write_json(&mut writer)?;
        sizes.write_json_end(json_len, &mut writer)?;
        if let Some(bin) = bin {
            bin.write(&mut writer)?;
            write_zeros(&mut writer, sizes.bin_padding)?;
        }
        Ok(())
    }

    /// [`Glb::write`] into a new vector, each piece of `bin` freed once it is copied.
    pub fn join(json: &[u8], bin: Option<BinPieces>) -> Result<Vec<u8>> {
        let sizes = Sizes::of(json.len(), bin.as_ref().map(BinPieces::len))?;
        let mut out = Vec::with_capacity(sizes.total);
        sizes.write(json, &mut out)?;
        if let Some(bin) = bin {
            bin.append_to(&mut out)?;
            out.resize(sizes.total, 0);
        }
        Ok(out)
    }

    /// The size of the GLB file of a JSON chunk of `json_len` bytes and a BIN chunk of
    /// `bin_len` bytes (before padding), or why the container cannot hold them.
    pub fn file_size(json_len: usize, bin_len: Option<usize>) -> Result<usize> {
        Sizes::of(json_len, bin_len).map(|sizes| sizes.total)
    }
}

/// The lengths a GLB header states, and the padding of its chunks.
struct Sizes {
    total: usize,
    json_padded: usize,
    /// The BIN chunk's length with padding, when there is one.
    bin_padded: Option<usize>,
    bin_padding: usize,
}

impl Sizes {
    fn of(json_len: usize, bin_len: Option<usize>) -> Result<Self> {
        let json_padded = json_len.next_multiple_of(4);
        let bin_padded = bin_len.map(|n| n.next_multiple_of(4));
        let total = 12 + 8 + json_padded + bin_padded.map_or(0, |n| 8 + n);
        if u32::try_from(total).is_err() {
            return Err(Error::Unencodable(format!(
                "a GLB file of {total} bytes (the limit is 4 GiB)"
            )));
        }
        Ok(Self {
            total,
            json_padded,
            bin_padded,
            bin_padding: bin_padded.unwrap_or(0) - bin_len.unwrap_or(0),
        })
    }

    /// Writes the file header, the JSON chunk and the BIN chunk's header (when there is one).
    fn write(&self, json: &[u8], writer: &mut impl Write) -> Result<()> {
        self.write_head(writer)?;
        writer.write_all(json)?;
        self.write_json_end(json.len(), writer)
    }

    /// Writes the file header and the JSON chunk's header.
    fn write_head(&self, writer: &mut impl Write) -> std::io::Result<()> {
        let mut head = [0u8; 20];
        head[..4].copy_from_slice(MAGIC);
        head[4..8].copy_from_slice(&2u32.to_le_bytes());
        head[8..12].copy_from_slice(&(self.total as u32).to_le_bytes());
        head[12..16].copy_from_slice(&(self.json_padded as u32).to_le_bytes());
        head[16..20].copy_from_slice(&CHUNK_JSON.to_le_bytes());
        writer.write_all(&head)
    }

    /// Writes the JSON chunk's padding after its `json_len` bytes, and the BIN chunk's header
    /// (when there is one).
    fn write_json_end(&self, json_len: usize, writer: &mut impl Write) -> Result<()> {
        writer.write_all(&b"   "[..self.json_padded - json_len])?;
        if let Some(bin_padded) = self.bin_padded {
            let mut head = [0u8; 8];
            head[..4].copy_from_slice(&(bin_padded as u32).to_le_bytes());
            head[4..].copy_from_slice(&CHUNK_BIN.to_le_bytes());
            writer.write_all(&head)?;
        }
        Ok(())
    }
}

/// Writes `n` zero bytes.
fn write_zeros(writer: &mut impl Write, mut n: usize) -> std::io::Result<()> {
    const ZEROS: [u8; 64] = [0; 64];
    while n > 0 {
        let k = n.min(ZEROS.len());
        writer.write_all(&ZEROS[..k])?;
        n -= k;
    }
    Ok(())
}

/// The BIN chunk of a GLB file being built: the buffer views' bytes, each at the next 4-byte
/// boundary after the one before (zeros between), held as pieces rather than one buffer,
/// so that a large view is kept in the vector it was encoded into (never copied into a
/// growing buffer) and the whole is written piece by piece ([`Glb::write`]). Small views
/// share a piece, so a file of many short accessors does not hold one allocation each.
///
/// A piece may also be an array of a scene that the encoding keeps ([`crate::encode_owned`]):
/// positions, UVs and indices that glTF stores as the scene holds them are then written
/// from the scene itself, never copied.
#[derive(Default)]
pub struct BinPieces {
    /// Each piece's offset in the buffer (a multiple of 4) and its bytes.
    pieces: Vec<(usize, Piece)>,
    /// Where the last view ends: the buffer's length before the chunk's padding.
    len: usize,
}

/// Bytes made as they are written: the function hands them to its sink in order, and is
/// called again for each time the file is written, so they are never held whole.
pub(crate) type Produce =
    Box<dyn Fn(&mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()> + Send + Sync>;

/// The bytes of one piece, in the form they were made in.
enum Piece {
    /// Bytes as they are written.
    Bytes(Vec<u8>),
    /// Values computed for an accessor, written little-endian.
    Floats(Vec<f32>),
    /// An array of a kept scene, written as it lies in memory (made only on little-endian
    /// targets, where that is glTF's byte order), with the length it had when it was added.
    Scene(Arc<Scene>, SceneArray, usize),
    /// Bytes made when written (values computed from a kept scene), with their length.
    Produced(Produce, usize),
}

/// An array of a scene whose bytes are already what a glTF buffer view holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SceneArray {
    /// A mesh's `f32` positions.
    Positions { mesh: usize },
    /// A mesh's `f32` normals (kept only when they are unit length already).
    Normals { mesh: usize },
    /// One UV layer of a mesh.
    Uvs { mesh: usize, layer: usize },
    /// A mesh's RGBA8 colour set: 0 is `colors`, then its extra layers.
    Colors { mesh: usize, set: usize },
    /// A mesh's triangles as `u32` indices.
    Faces { mesh: usize },
    /// A texture's PNG file.
    Texture { index: usize },
}

impl SceneArray {
    /// The array's bytes in `scene` (native order), if it is there.
    pub(crate) fn bytes(self, scene: &Scene) -> Option<&[u8]> {
        let mesh = |i: usize| scene.meshes.get(i);
        Some(match self {
            Self::Positions { mesh: i } => mesh(i)?.positions.as_bytes(),
            Self::Normals { mesh: i } => mesh(i)?.normals.as_bytes(),
            Self::Uvs { mesh: i, layer } => mesh(i)?.uv_layers.get(layer)?.as_bytes(),
            Self::Colors { mesh: i, set: 0 } => mesh(i)?.colors.as_bytes(),
            Self::Colors { mesh: i, set } => mesh(i)?.extra_color_layers.get(set - 1)?.as_bytes(),
            Self::Faces { mesh: i } => mesh(i)?.faces.as_bytes(),
            Self::Texture { index } => &scene.textures.get(index)?.data,
        })
    }
}

impl Piece {
    /// Hands the piece's bytes to `sink`, in one slice or (produced) in several.
    fn write_to(&self, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<()> {
        match self {
            Self::Produced(produce, len) => {
                let mut written = 0;
                produce(&mut |chunk| {
                    written += chunk.len();
                    sink(chunk)
                })?;
                if written == *len {
                    Ok(())
                } else {
                    // The scene is shared read-only, so this would be a bug of the encoder.
                    Err(std::io::Error::other(format!(
                        "a computed view made {written} bytes where it was sized at {len}"
                    )))
                }
            }
            _ => sink(&self.bytes()?),
        }
    }

    /// The bytes written for this piece.
    fn bytes(&self) -> std::io::Result<Cow<'_, [u8]>> {
        Ok(match self {
            Self::Produced(..) => {
                let mut bytes = Vec::with_capacity(self.len());
                self.write_to(&mut |chunk| {
                    bytes.extend_from_slice(chunk);
                    Ok(())
                })?;
                Cow::Owned(bytes)
            }
            Self::Bytes(bytes) => Cow::Borrowed(bytes),
            Self::Floats(values) => floats_le(values),
            Self::Scene(scene, array, len) => match array.bytes(scene) {
                Some(bytes) if bytes.len() == *len => Cow::Borrowed(bytes),
                // The scene is shared read-only, so this would be a bug of the encoder.
                _ => {
                    return Err(std::io::Error::other(format!(
                        "the scene array {array:?} is not what was encoded"
                    )));
                }
            },
        })
    }

    fn len(&self) -> usize {
        match self {
            Self::Bytes(bytes) => bytes.len(),
            Self::Floats(values) => values.len() * 4,
            Self::Scene(_, _, len) | Self::Produced(_, len) => *len,
        }
    }
}

/// `f32` values as little-endian bytes: their own bytes on a little-endian target.
fn floats_le(values: &[f32]) -> Cow<'_, [u8]> {
    if cfg!(target_endian = "little") {
        Cow::Borrowed(values.as_bytes())
    } else {
        Cow::Owned(values.iter().flat_map(|v| v.to_le_bytes()).collect())
    }
}

impl BinPieces {
    /// Views shorter than this are copied into a shared piece (none with the `small-pieces`
    /// feature, so that fuzzing small scenes reaches every kind of piece).
    pub(crate) const SMALL: usize = if cfg!(feature = "small-pieces") { 1 } else { 64 * 1024 };
    /// Bytes and values made for a view are kept in their own vector from this length on:
    /// copying them into a shared piece would cost a copy and fresh pages, where keeping them
    /// costs only a piece (an animation's channels of a few thousand keys each were about a
    /// tenth of an SEAnim's conversion to glb).
    const KEPT_OWNED: usize = if cfg!(feature = "small-pieces") { 1 } else { 4 * 1024 };
    /// The capacity of a shared piece.
    const SHARED: usize = 1024 * 1024;

    /// The buffer's length: where the last view ends.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no view has been added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a view's bytes at the next 4-byte boundary and gives its offset. Bytes given
    /// owned are kept as they are, without a copy, from 4 KiB on.
    pub fn push(&mut self, bytes: Cow<'_, [u8]>) -> usize {
        match bytes {
            Cow::Borrowed(bytes) => self.push_small_or(bytes, || Piece::Bytes(bytes.to_vec())),
            Cow::Owned(bytes) => self.push_piece(Piece::Bytes(bytes)),
        }
    }

    /// Adds a view of `f32` values (little-endian), keeping the vector unless it is shorter
    /// than [`Self::KEPT_OWNED`].
    pub(crate) fn push_floats(&mut self, values: Vec<f32>) -> usize {
        self.push_piece(Piece::Floats(values))
    }

    /// Adds a view of `array` of `scene` (which must be what the encoding keeps, on a
    /// little-endian target), written from the scene when it is not small.
    pub(crate) fn push_scene(&mut self, scene: &Arc<Scene>, array: SceneArray, bytes: &[u8]) -> usize {
        self.push_small_or(bytes, || Piece::Scene(Arc::clone(scene), array, bytes.len()))
    }

    /// Adds a view of `len` bytes that `produce` makes when the file is written (made now
    /// and copied when small, or when `produce` fails, which the write would repeat).
    pub(crate) fn push_produced(&mut self, len: usize, produce: Produce) -> usize {
        self.push_piece(Piece::Produced(produce, len))
    }

    /// Adds a piece made for one view: copied into a shared piece when small (owned bytes and
    /// values: shorter than [`Self::KEPT_OWNED`]; produced ones: [`Self::SMALL`]).
    fn push_piece(&mut self, piece: Piece) -> usize {
        match &piece {
            Piece::Bytes(bytes) if bytes.len() < Self::KEPT_OWNED => self.push_small(bytes),
            Piece::Floats(values) if values.len() * 4 < Self::KEPT_OWNED => self.push_small(&floats_le(values)),
            Piece::Produced(_, len) if *len < Self::SMALL => match piece.bytes() {
                Ok(bytes) => self.push_small(&bytes),
                Err(_) => self.push_large(piece),
            },
            _ => self.push_large(piece),
        }
    }

    /// Copies `bytes` into a shared piece when they are small, else adds `large()`.
    fn push_small_or(&mut self, bytes: &[u8], large: impl FnOnce() -> Piece) -> usize {
        if bytes.len() >= Self::SMALL {
            self.push_large(large())
        } else {
            self.push_small(bytes)
        }
    }

    /// Copies `bytes` (shorter than [`Self::SMALL`]) into the last shared piece, or a new one.
    fn push_small(&mut self, bytes: &[u8]) -> usize {
        let n = bytes.len();
        let offset = self.len.next_multiple_of(4);
        if n == 0 {
            self.len = offset;
            return offset;
        }
        match self.pieces.last_mut() {
            Some((start, Piece::Bytes(shared))) if offset - *start + n <= shared.capacity() => {
                // Zeros from the piece's end (empty views may have moved the buffer's end
                // past it) up to the view.
                shared.resize(offset - *start, 0);
                shared.extend_from_slice(bytes);
            }
            _ => {
                let mut shared = Vec::with_capacity(Self::SHARED);
                shared.extend_from_slice(bytes);
                self.pieces.push((offset, Piece::Bytes(shared)));
            }
        }
        self.len = offset + n;
        offset
    }

    /// The arrays of the pieces written from a kept scene, in buffer order.
    #[cfg(test)]
    pub(crate) fn scene_pieces(&self) -> Vec<SceneArray> {
        let arrays = self.pieces.iter().filter_map(|(_, piece)| match piece {
            Piece::Scene(_, array, _) => Some(*array),
            _ => None,
        });
        arrays.collect()
    }

    /// The lengths of the pieces made when written.
    #[cfg(test)]
    pub(crate) fn produced_pieces(&self) -> Vec<usize> {
        let lengths = self.pieces.iter().filter_map(|(_, piece)| match piece {
            Piece::Produced(_, len) => Some(*len),
            _ => None,
        });
        lengths.collect()
    }

    fn push_large(&mut self, piece: Piece) -> usize {
        let offset = self.len.next_multiple_of(4);
        self.len = offset + piece.len();
        self.pieces.push((offset, piece));
        offset
    }

    /// Writes the buffer's bytes, zeros between the pieces, into `writer`.
    pub fn write(&self, writer: &mut impl Write) -> std::io::Result<()> {
        let mut written = 0;
        for (offset, piece) in &self.pieces {
            write_zeros(writer, offset - written)?;
            piece.write_to(&mut |bytes| writer.write_all(bytes))?;
            written = offset + piece.len();
        }
        write_zeros(writer, self.len - written)
    }

    /// The buffer as one vector, each piece freed once it is copied.
    pub fn into_vec(self) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(self.len);
        self.append_to(&mut out)?;
        Ok(out)
    }

    /// Appends the buffer's bytes to `out`, each piece freed once it is copied.
    fn append_to(self, out: &mut Vec<u8>) -> std::io::Result<()> {
        let start = out.len();
        for (offset, piece) in self.pieces {
            out.resize(start + offset, 0);
            piece.write_to(&mut |bytes| {
                out.extend_from_slice(bytes);
                Ok(())
            })?;
        }
        out.resize(start + self.len, 0);
        Ok(())
    }
}

impl std::fmt::Debug for BinPieces {
    // The pieces can be megabytes: their count and length say enough.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BinPieces")
            .field("pieces", &self.pieces.len())
            .field("len", &self.len)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Views of every length up to past a small view, added in one order, each found at its
    /// offset and 4-byte aligned, with zeros between them.
    fn pieces_of(lengths: &[usize]) -> (BinPieces, Vec<u8>) {
        let mut pieces = BinPieces::default();
        let mut joined = Vec::new();
        for (i, &n) in lengths.iter().enumerate() {
            let bytes: Vec<u8> = (0..n).map(|k| (k * 7 + i + 1) as u8 | 1).collect();
            joined.resize(joined.len().next_multiple_of(4), 0);
            assert_eq!(joined.len(), pieces.push(Cow::Owned(bytes.clone())), "view {i}");
            joined.extend_from_slice(&bytes);
        }
        (pieces, joined)
    }

    #[test]
    fn streamed_pieces_are_the_file_built_whole() {
        let (small, kept) = (BinPieces::SMALL, BinPieces::KEPT_OWNED);
        for lengths in [
            &[][..],
            &[0],
            &[3],
            &[1, 2, 0, 5, 4],
            &[small + 1, 3, small, 6, 0],
            &[kept - 1, kept, 2, kept + 3, 1, kept - 2],
            &[5, small * 3 + 2, 1, 0],
            &[7; 400],
        ] {
            let (pieces, joined) = pieces_of(lengths);
            assert_eq!(pieces.len(), joined.len());
            let mut streamed = Vec::new();
            pieces.write(&mut streamed).unwrap();
            assert_eq!(streamed, joined, "{lengths:?}");
            for json in [&b"{}"[..], b"{\"a\":1}", b"{\"ab\":1}", b"{\"abc\":1}"] {
                let mut file = Vec::new();
                Glb::write(json, Some(&pieces), &mut file).unwrap();
                assert_eq!(file, Glb::to_vec(json, Some(&joined)).unwrap(), "{lengths:?}");
                assert_eq!(Glb::file_size(json.len(), Some(pieces.len())).unwrap(), file.len());
                let mut file = Vec::new();
                Glb::write(json, None, &mut file).unwrap();
                assert_eq!(file, Glb::to_vec(json, None).unwrap());
            }
            let glb = Glb::to_vec(b"{}", Some(&joined)).unwrap();
            assert_eq!(Glb::join(b"{}", Some(pieces)).unwrap(), glb, "{lengths:?}");
            assert_eq!(pieces_of(lengths).0.into_vec().unwrap(), joined, "{lengths:?}");
        }
    }

    #[test]
    fn small_views_share_a_piece_and_large_ones_keep_their_vector() {
        let (pieces, _) = pieces_of(&[10, 20, 30, BinPieces::KEPT_OWNED - 1]);
        assert_eq!(pieces.pieces.len(), 1);
        // Borrowed bytes are copied below SMALL, owned ones kept from KEPT_OWNED on.
        let (pieces, _) = pieces_of(&[10, BinPieces::KEPT_OWNED, 20]);
        assert_eq!(pieces.pieces.len(), 3);
        let mut pieces = BinPieces::default();
        pieces.push(Cow::Borrowed(&[7; BinPieces::KEPT_OWNED]));
        pieces.push(Cow::Borrowed(&[8; 12]));
        assert_eq!(pieces.pieces.len(), 1);
        let large = vec![9u8; BinPieces::KEPT_OWNED];
        let at = large.as_ptr();
        let mut pieces = BinPieces::default();
        pieces.push(Cow::Borrowed(&[1, 2, 3]));
        pieces.push(Cow::Owned(large));
        assert_eq!(pieces.pieces.len(), 2);
        assert_eq!(pieces.pieces[1].0, 4);
        match &pieces.pieces[1].1 {
            Piece::Bytes(bytes) => assert_eq!(bytes.as_ptr(), at, "the large view was copied"),
            _ => panic!("the large view is not kept as bytes"),
        }
    }

    #[test]
    fn written_glb_parses_back_with_padding() {
        let bytes = Glb::to_vec(b"{}", Some(&[1, 2, 3, 4, 5])).unwrap();
        assert_eq!(bytes.len(), 12 + 8 + 4 + 8 + 8);
        let glb = Glb::parse(&bytes).unwrap();
        assert_eq!(glb.json, b"{}  ");
        assert_eq!(glb.bin, Some(&[1, 2, 3, 4, 5, 0, 0, 0][..]));
    }

    #[test]
    fn header_length_under_12_is_an_error_at_byte_8() {
        let mut bytes = Glb::to_vec(b"{}", None).unwrap();
        bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
        match Glb::parse(&bytes) {
            Err(Error::Glb { offset: 8, .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chunk_running_past_the_end_names_its_header_offset() {
        let mut bytes = Glb::to_vec(b"{}", Some(&[0; 8])).unwrap();
        let at = 12 + 8 + 4;
        bytes[at..at + 4].copy_from_slice(&1000u32.to_le_bytes());
        match Glb::parse(&bytes) {
            Err(Error::Glb { offset, .. }) => assert_eq!(offset, at as u64),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_wrong_magic_is_shown_as_text_or_hex() {
        let err = Glb::parse(b"PK\x03\x04").unwrap_err().to_string();
        assert!(err.contains("found 0x504b0304"), "{err}");
        let err = Glb::parse(b"glTX").unwrap_err().to_string();
        assert!(err.contains("found \"glTX\""), "{err}");
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = Glb::to_vec(b"{\"asset\":{}}", Some(&[7; 12])).unwrap();
        for len in 0..bytes.len() {
            assert!(Glb::parse(&bytes[..len]).is_err(), "length {len}");
        }
    }
}
