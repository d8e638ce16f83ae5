//! Bounds-checked accessor decoding.
//!
//! The `gltf` crate's own readers trust lengths and strides (a stride below the element size,
//! or an accessor running past its view, makes them panic or stop early), so accessors are
//! read here: every offset is computed with checked arithmetic and checked against the
//! buffer view and the buffer before a byte is read; sparse accessors are applied on top.

use gltf::accessor::{DataType, Dimensions};

use crate::error::{Error, Path, Result};

/// Elements that an accessor without a buffer view (all zeros, perhaps sparse) may ask for:
/// the file holds no bytes for them, so their number is otherwise unbounded.
const MAX_VIEWLESS_COMPONENTS: usize = 1 << 24;

/// How many values a document's accessors may give its reader per byte of its buffers,
/// unless the caller sets the budget ([`with_max_accessor_values`]): an accessor's element
/// takes at least one byte of its view per component, so a file whose accessors each stand
/// on bytes of their own gives at most one value per byte; more comes only from accessors
/// that share bytes, sparse accessors or accessors without bytes.
pub const ACCESSOR_VALUES_PER_BUFFER_BYTE: u64 = 16;

/// The fewest values any document's accessors may give, whatever its size, unless the
/// caller sets the budget: one accessor without a view at its largest.
pub const MIN_ACCESSOR_VALUES: u64 = MAX_VIEWLESS_COMPONENTS as u64;

/// The budget of a document whose buffers hold `buffer_bytes` bytes, when the caller sets
/// none: [`ACCESSOR_VALUES_PER_BUFFER_BYTE`] values a byte, at least [`MIN_ACCESSOR_VALUES`].
pub fn default_max_accessor_values(buffer_bytes: u64) -> u64 {
    buffer_bytes
        .saturating_mul(ACCESSOR_VALUES_PER_BUFFER_BYTE)
        .max(MIN_ACCESSOR_VALUES)
}

thread_local! {
    /// The budget the caller set for the reads of this thread ([`with_max_accessor_values`]).
    static MAX_VALUES: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Runs `read` with every glTF read on this thread (a file opened, converted, summarised or
/// checked: [`crate::to_scene`], [`GltfFile`](crate::GltfFile)'s `read`) allowed `max`
/// accessor values in all instead of [`default_max_accessor_values`] of its buffers; `None`
/// keeps the budget already in force (the default, outside any scope). A scope rather than an argument because the contract every format
/// implements reads a file from its bytes alone; the `animbin` library sets it from its
/// `ReadOptions::max_accessor_values` and `ConvertOptions::max_accessor_values`.
pub fn with_max_accessor_values<R>(max: Option<u64>, read: impl FnOnce() -> R) -> R {
    /// Puts the budget before the scope back, however the scope ends.
    struct Restore(Option<u64>);
    impl Drop for Restore {
        fn drop(&mut self) {
            MAX_VALUES.with(|slot| slot.set(self.0));
        }
    }
    let _restore = Restore(MAX_VALUES.with(|slot| slot.replace(max.or(slot.get()))));
    read()
}

#[cfg(test)]
thread_local! {
    /// How many times accessors were decoded on this thread: the work that sharing saves.
    pub(crate) static DECODES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// An accessor decoded and still to be read again: its values, its components per element
/// and its reads left.
type Kept = (std::rc::Rc<Vec<f64>>, usize, u32);

/// The decoded binary buffers of a document, by buffer index, each decoded once however
/// many buffers name the same bytes; the accessors that several places read, each decoded
/// once; and what reading accessors may still give.
pub(crate) struct Buffers<'a> {
    /// The bytes of each distinct buffer.
    data: Vec<std::borrow::Cow<'a, [u8]>>,
    /// For each buffer of the document, its bytes in `data`.
    of_buffer: Vec<usize>,
    /// The budget: the values all accessor reads may give in all.
    budget: u64,
    /// Values that accessor reads may still give. A small file whose accessors share one
    /// view, or ask for millions of zeros, expands to gigabytes otherwise (an 807-byte
    /// `.gltf` whose 8 primitives share a sparse accessor took 604 MiB). Every read counts,
    /// shared or not: each one's values go into the scene.
    left: std::cell::Cell<u64>,
    /// How many times the document refers to each accessor (by index): one read more than
    /// once is decoded once and kept until its last read.
    uses: Vec<u32>,
    /// The accessors decoded and still to be read again, with their reads left.
    shared: std::cell::RefCell<std::collections::HashMap<usize, Kept>>,
}

impl<'a> Buffers<'a> {
    /// The buffers of `document`, `data` by buffer index with `of_buffer` saying which of
    /// them each buffer is, with the budget the caller set ([`with_max_accessor_values`]) or
    /// [`default_max_accessor_values`] of their bytes (each distinct buffer counted once).
    pub(crate) fn new(document: &gltf::Document, data: Vec<std::borrow::Cow<'a, [u8]>>, of_buffer: Vec<usize>) -> Self {
        let bytes: u64 = data.iter().map(|d| d.len() as u64).sum();
        let budget = MAX_VALUES
            .with(std::cell::Cell::get)
            .unwrap_or_else(|| default_max_accessor_values(bytes));
        Self {
            data,
            of_buffer,
            budget,
            left: std::cell::Cell::new(budget),
            uses: uses(document),
            shared: Default::default(),
        }
    }

    /// The bytes of the buffer at `index`.
    pub(crate) fn buffer(&self, index: usize) -> Option<&[u8]> {
        self.of_buffer.get(index).and_then(|&i| self.data.get(i)).map(|d| &**d)
    }

    /// Takes `values` from the budget before they are given for the accessor at `path`,
    /// or refuses them, naming the accessor and the budget.
    fn spend(&self, values: usize, path: &Path) -> Result<()> {
        match self.left.get().checked_sub(values as u64) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => {
                let bytes: u64 = self.data.iter().map(|d| d.len() as u64).sum();
                let default = default_max_accessor_values(bytes);
                let rule = if self.budget == default {
                    format!(
                        "{ACCESSOR_VALUES_PER_BUFFER_BYTE} a byte of its {bytes} bytes of buffers, at least \
                         {MIN_ACCESSOR_VALUES}"
                    )
                } else {
                    "as set".to_string()
                };
                Err(Error::invalid(
                    path.clone(),
                    format!(
                        "at most {} accessor values in all ({rule}; accessors that share their bytes or have none \
                         expand past it; max_accessor_values, --max-accessor-values, raises it)",
                        self.budget
                    ),
                    format!("{values} more values"),
                ))
            }
        }
    }
}

/// How many times `document` refers to each accessor, by index: a primitive's attributes,
/// indices and morph targets, a skin's inverse bind matrices, an animation sampler's input
/// and output.
fn uses(document: &gltf::Document) -> Vec<u32> {
    let mut uses = vec![0u32; document.accessors().len()];
    let mut count = |accessor: gltf::Accessor| {
        if let Some(n) = uses.get_mut(accessor.index()) {
            *n = n.saturating_add(1);
        }
    };
    for mesh in document.meshes() {
        for primitive in mesh.primitives() {
            primitive.attributes().for_each(|(_, a)| count(a));
            primitive.indices().into_iter().for_each(&mut count);
            for target in primitive.morph_targets() {
                target.positions().into_iter().for_each(&mut count);
                target.normals().into_iter().for_each(&mut count);
                target.tangents().into_iter().for_each(&mut count);
            }
        }
    }
    for skin in document.skins() {
        skin.inverse_bind_matrices().into_iter().for_each(&mut count);
    }
    for animation in document.animations() {
        for sampler in animation.samplers() {
            count(sampler.input());
            count(sampler.output());
        }
    }
    uses
}

/// How many components an element of `dims` has.
pub(crate) fn component_count(dims: Dimensions) -> usize {
    match dims {
        Dimensions::Scalar => 1,
        Dimensions::Vec2 => 2,
        Dimensions::Vec3 => 3,
        Dimensions::Vec4 | Dimensions::Mat2 => 4,
        Dimensions::Mat3 => 9,
        Dimensions::Mat4 => 16,
    }
}

fn component_size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

/// The byte offset of each component within one element: matrix columns start on 4-byte
/// boundaries (glTF pads MAT2 of bytes and MAT3 of bytes or shorts).
fn component_offsets(dims: Dimensions, size: usize) -> (Vec<usize>, usize) {
    let columns = match dims {
        Dimensions::Mat2 => 2,
        Dimensions::Mat3 => 3,
        Dimensions::Mat4 => 4,
        _ => {
            let n = component_count(dims);
            return ((0..n).map(|c| c * size).collect(), n * size);
        }
    };
    let column_bytes = (columns * size).div_ceil(4) * 4;
    let offsets = (0..columns)
        .flat_map(|c| (0..columns).map(move |r| c * column_bytes + r * size))
        .collect();
    (offsets, columns * column_bytes)
}

/// Reads one component at `bytes[at..]`, normalising integers when asked.
fn component(bytes: &[u8], at: usize, t: DataType, normalized: bool) -> Option<f64> {
    let b = |n: usize| bytes.get(at..at + n);
    Some(match t {
        DataType::I8 => {
            let v = f64::from(i8::from_le_bytes(b(1)?.try_into().ok()?));
            if normalized { (v / 127.0).max(-1.0) } else { v }
        }
        DataType::U8 => {
            let v = f64::from(b(1)?[0]);
            if normalized { v / 255.0 } else { v }
        }
        DataType::I16 => {
            let v = f64::from(i16::from_le_bytes(b(2)?.try_into().ok()?));
            if normalized { (v / 32767.0).max(-1.0) } else { v }
        }
        DataType::U16 => {
            let v = f64::from(u16::from_le_bytes(b(2)?.try_into().ok()?));
            if normalized { v / 65535.0 } else { v }
        }
        DataType::U32 => f64::from(u32::from_le_bytes(b(4)?.try_into().ok()?)),
        DataType::F32 => f64::from(f32::from_le_bytes(b(4)?.try_into().ok()?)),
    })
}

/// The bytes of a buffer view, checked against its buffer.
fn view_bytes<'b>(view: &gltf::buffer::View, buffers: &'b Buffers, path: &Path) -> Result<&'b [u8]> {
    let buffer = buffers
        .buffer(view.buffer().index())
        .ok_or_else(|| Error::invalid(path.clone(), "a buffer that was loaded", view.buffer().index()))?;
    let end = view.offset().checked_add(view.length());
    end.and_then(|end| buffer.get(view.offset()..end)).ok_or_else(|| {
        Error::invalid(
            Path::item("bufferViews", view.index()),
            format!(
                "a range inside buffer {} of {} bytes",
                view.buffer().index(),
                buffer.len()
            ),
            format!(
                "bytes {}..{}",
                view.offset(),
                view.offset() as u128 + view.length() as u128
            ),
        )
    })
}

/// Reads `count` elements from `bytes` starting at `offset`, `stride` bytes apart.
#[allow(clippy::too_many_arguments)]
fn read_elements(
    bytes: &[u8],
    offset: usize,
    stride: Option<usize>,
    count: usize,
    t: DataType,
    dims: Dimensions,
    normalized: bool,
    path: &Path,
) -> Result<Vec<f64>> {
    let size = component_size(t);
    let (offsets, element) = component_offsets(dims, size);
    let stride = stride.unwrap_or(element);
    if stride < element {
        return Err(Error::invalid(
            path.clone(),
            format!("a byte stride of at least the element size {element}"),
            stride,
        ));
    }
    if count == 0 {
        return Ok(Vec::new());
    }
    let needed = stride
        .checked_mul(count - 1)
        .and_then(|n| n.checked_add(element))
        .and_then(|n| n.checked_add(offset));
    if needed.is_none_or(|n| n > bytes.len()) {
        return Err(Error::invalid(
            path.clone(),
            format!(
                "{count} elements of {element} bytes (stride {stride}) from byte {offset} inside its buffer view of {} bytes",
                bytes.len()
            ),
            "a view that is too short",
        ));
    }
    let mut out = Vec::with_capacity(count * offsets.len());
    for i in 0..count {
        let base = offset + i * stride;
        for &o in &offsets {
            // In range: checked above.
            out.push(component(bytes, base + o, t, normalized).unwrap_or(0.0));
        }
    }
    Ok(out)
}

/// Every component of an accessor, element-major, integers normalised when the accessor
/// says so, sparse substitutions applied. Returns the values and the components per element.
///
/// An accessor that the document refers to more than once is decoded at its first read and
/// kept until its last; every read takes its values from the budget, as each one's values
/// go into the scene.
pub(crate) fn read(accessor: &gltf::Accessor, buffers: &Buffers) -> Result<(std::rc::Rc<Vec<f64>>, usize)> {
    let path = Path::item("accessors", accessor.index());
    let n = component_count(accessor.dimensions());
    let index = accessor.index();
    buffers.spend(accessor.count().saturating_mul(n), &path)?;
    let kept = {
        let mut shared = buffers.shared.borrow_mut();
        match shared.get_mut(&index) {
            Some((values, n, reads_left)) => {
                let found = (std::rc::Rc::clone(values), *n);
                *reads_left -= 1;
                if *reads_left == 0 {
                    shared.remove(&index);
                }
                Some(found)
            }
            None => None,
        }
    };
    if let Some(found) = kept {
        return Ok(found);
    }
    let values = std::rc::Rc::new(decode(accessor, buffers, &path)?);
    let reads = buffers.uses.get(index).copied().unwrap_or(0);
    if reads > 1 {
        buffers
            .shared
            .borrow_mut()
            .insert(index, (std::rc::Rc::clone(&values), n, reads - 1));
    }
    Ok((values, n))
}

/// Decodes an accessor (see [`read`]), its sparse values taken from the budget.
fn decode(accessor: &gltf::Accessor, buffers: &Buffers, path: &Path) -> Result<Vec<f64>> {
    #[cfg(test)]
    DECODES.with(|d| d.set(d.get() + 1));
    let path = path.clone();
    let dims = accessor.dimensions();
    let n = component_count(dims);
    let t = accessor.data_type();
    let count = accessor.count();
    let sparse_values = accessor.sparse().map_or(0, |s| s.count().saturating_mul(n + 1));
    buffers.spend(sparse_values, &path)?;
    let mut values = match accessor.view() {
        Some(view) => {
            let bytes = view_bytes(&view, buffers, &path)?;
            read_elements(
                bytes,
                accessor.offset(),
                view.stride(),
                count,
                t,
                dims,
                accessor.normalized(),
                &path,
            )?
        }
        None => {
            if count.checked_mul(n).is_none_or(|c| c > MAX_VIEWLESS_COMPONENTS) {
                return Err(Error::invalid(
                    path,
                    format!("at most {MAX_VIEWLESS_COMPONENTS} components in an accessor without a buffer view"),
                    format!("{count} elements"),
                ));
            }
            vec![0.0; count * n]
        }
    };
    if let Some(sparse) = accessor.sparse() {
        let sparse_path = path.field("sparse");
        let k = sparse.count();
        let indices = sparse.indices();
        let index_type = match indices.index_type() {
            gltf::accessor::sparse::IndexType::U8 => DataType::U8,
            gltf::accessor::sparse::IndexType::U16 => DataType::U16,
            gltf::accessor::sparse::IndexType::U32 => DataType::U32,
        };
        let index_bytes = view_bytes(&indices.view(), buffers, &sparse_path)?;
        let idx = read_elements(
            index_bytes,
            indices.offset(),
            None,
            k,
            index_type,
            Dimensions::Scalar,
            false,
            &sparse_path.field("indices"),
        )?;
        let values_view = sparse.values().view();
        let value_bytes = view_bytes(&values_view, buffers, &sparse_path)?;
        let substitutes = read_elements(
            value_bytes,
            sparse.values().offset(),
            None,
            k,
            t,
            dims,
            accessor.normalized(),
            &sparse_path.field("values"),
        )?;
        for (j, &i) in idx.iter().enumerate() {
            let i = i as usize;
            if i >= count {
                return Err(Error::invalid(
                    sparse_path.field("indices"),
                    format!("indices below the accessor's count {count}"),
                    i,
                ));
            }
            values[i * n..(i + 1) * n].copy_from_slice(&substitutes[j * n..(j + 1) * n]);
        }
    }
    Ok(values)
}

/// An accessor's values as `f32`, checking that each element has `want` components.
pub(crate) fn floats(
    accessor: &gltf::Accessor,
    buffers: &Buffers,
    want: &[usize],
    what: &str,
) -> Result<(Vec<f32>, usize)> {
    let (values, n) = read(accessor, buffers)?;
    if !want.contains(&n) {
        return Err(Error::invalid(
            Path::item("accessors", accessor.index()),
            format!(
                "{what} with {} components",
                want.iter().map(|w| w.to_string()).collect::<Vec<_>>().join(" or ")
            ),
            format!("{n} components"),
        ));
    }
    if accessor.data_type() == DataType::U32 {
        return Err(Error::invalid(
            Path::item("accessors", accessor.index()),
            format!("{what} of floats or normalised integers"),
            "unsigned ints",
        ));
    }
    if !accessor.normalized() && accessor.data_type() != DataType::F32 {
        return Err(Error::invalid(
            Path::item("accessors", accessor.index()),
            format!("{what} of floats or normalised integers"),
            "integers that are not normalised",
        ));
    }
    Ok((values.iter().map(|&v| v as f32).collect(), n))
}

/// An accessor's values as unsigned integers (indices, joints), checking the component type.
pub(crate) fn uints(accessor: &gltf::Accessor, buffers: &Buffers, want: usize, what: &str) -> Result<Vec<u32>> {
    let path = Path::item("accessors", accessor.index());
    if !matches!(accessor.data_type(), DataType::U8 | DataType::U16 | DataType::U32) || accessor.normalized() {
        return Err(Error::invalid(
            path,
            format!("{what} as unsigned integers"),
            format!(
                "{:?}{}",
                accessor.data_type(),
                if accessor.normalized() { " normalised" } else { "" }
            ),
        ));
    }
    let (values, n) = read(accessor, buffers)?;
    if n != want {
        return Err(Error::invalid(
            path,
            format!("{what} with {want} components"),
            format!("{n} components"),
        ));
    }
    Ok(values.iter().map(|&v| v as u32).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use animbin_core::SceneOptions;
    use animbin_core::scene::ConversionReport;
    use base64::Engine;
    use serde_json::json;

    fn data_uri(bytes: &[u8]) -> String {
        format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )
    }

    /// The shape, smaller: `primitives` primitives share one sparse accessor of
    /// `count` zero positions with one substitute.
    fn shared_sparse(primitives: usize, count: usize) -> Vec<u8> {
        let mut bytes = 0u32.to_le_bytes().to_vec();
        bytes.extend([1.0f32, 2.0, 3.0].iter().flat_map(|v| v.to_le_bytes()));
        serde_json::to_vec(&json!({
            "asset": {"version": "2.0"},
            "buffers": [{"uri": data_uri(&bytes), "byteLength": 16}],
            "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 12}],
            "accessors": [{
                "componentType": 5126, "count": count, "type": "VEC3",
                "min": [0.0, 0.0, 0.0], "max": [1.0, 2.0, 3.0],
                "sparse": {"count": 1, "indices": {"bufferView": 0, "componentType": 5125}, "values": {"bufferView": 1}}
            }],
            "meshes": [{"primitives": vec![json!({"attributes": {"POSITION": 0}}); primitives]}],
            "nodes": [{"mesh": 0}],
            "scenes": [{"nodes": [0]}],
            "scene": 0
        }))
        .unwrap()
    }

    /// Decodes counted on this thread while `f` runs.
    fn decodes(f: impl FnOnce()) -> usize {
        DECODES.with(|d| d.set(0));
        f();
        DECODES.with(std::cell::Cell::get)
    }

    fn scene(bytes: &[u8]) -> crate::Result<crate::Scene> {
        crate::to_scene(bytes, &SceneOptions::default(), &mut ConversionReport::default())
    }

    #[test]
    fn an_accessor_shared_by_8_or_32_primitives_is_decoded_once() {
        for primitives in [8, 32] {
            let file = shared_sparse(primitives, 50_000);
            let mut meshes = 0;
            let count = decodes(|| {
                let read = with_max_accessor_values(Some(u64::MAX), || scene(&file)).unwrap();
                meshes = read.meshes.len();
                assert!(
                    read.meshes
                        .iter()
                        .all(|m| m.positions.len() == 50_000 && m.positions[0].x == 1.0)
                );
            });
            assert_eq!((meshes, count), (primitives, 1), "{primitives} primitives");
        }
    }

    /// Every reference takes its values from the budget (each one's values go into the
    /// scene), and the sparse substitutes once; one value fewer than that is refused,
    /// naming the accessor and the budget set.
    #[test]
    fn the_budget_counts_every_reference_and_can_be_set() {
        let file = shared_sparse(8, 50_000);
        let needed = 8 * 150_000 + 4;
        with_max_accessor_values(Some(needed), || scene(&file)).unwrap();
        let error = with_max_accessor_values(Some(needed - 1), || scene(&file))
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("/accessors/0: expected at most 1200003 accessor values in all (as set;"),
            "{error}"
        );
        assert!(error.contains("max_accessor_values"), "{error}");
        // The scope ends with its call: the default is back.
        assert_eq!(MAX_VALUES.with(std::cell::Cell::get), None);
        // The default: 16 a byte of its 16 bytes of buffers, at least 16,777,216.
        let error = scene(&shared_sparse(8, 5_000_000)).unwrap_err().to_string();
        assert!(
            error.contains(
                "at most 16777216 accessor values in all (16 a byte of its 16 bytes of buffers, at least 16777216;"
            ),
            "{error}"
        );
        assert!(error.ends_with("found 15000000 more values"), "{error}");
    }

    /// 41 buffers with one `data:` URI are one buffer, decoded once, and count once toward
    /// the budget.
    #[test]
    fn buffers_with_one_uri_are_decoded_once_and_counted_once() {
        let bin: Vec<u8> = (0..4096u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
        let uri = data_uri(&bin);
        let file = serde_json::to_vec(&json!({
            "asset": {"version": "2.0"},
            "buffers": vec![json!({"uri": uri, "byteLength": bin.len()}); 41],
            "bufferViews": (0..41).map(|b| json!({"buffer": b, "byteLength": bin.len()})).collect::<Vec<_>>(),
        }))
        .unwrap();
        let (document, glb) = crate::import::parse(&file).unwrap();
        let buffers = crate::import::load_buffers(&document, glb).unwrap();
        assert_eq!((buffers.data.len(), buffers.of_buffer.len()), (1, 41));
        assert_eq!(buffers.buffer(40), Some(&bin[..]));
        assert_eq!(buffers.budget, default_max_accessor_values(bin.len() as u64));
    }

    /// 150 images on one buffer view are one texture: its bytes are held once.
    #[test]
    fn images_sharing_their_bytes_are_one_texture() {
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.resize(1024, 7);
        let file = serde_json::to_vec(&json!({
            "asset": {"version": "2.0"},
            "buffers": [{"uri": data_uri(&png), "byteLength": png.len()}],
            "bufferViews": [{"buffer": 0, "byteLength": png.len()}],
            "images": (0..150).map(|i| json!({"bufferView": 0, "mimeType": "image/png", "name": format!("i{i}")})).collect::<Vec<_>>(),
            "textures": (0..150).map(|i| json!({"source": i})).collect::<Vec<_>>(),
            "materials": (0..150).map(|i| json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}})).collect::<Vec<_>>(),
        }))
        .unwrap();
        let mut report = ConversionReport::default();
        let read = crate::to_scene(&file, &SceneOptions::default(), &mut report).unwrap();
        assert_eq!(read.textures.len(), 1);
        assert_eq!(read.textures[0].data, png);
        assert_eq!(read.textures[0].name, "i0");
        assert!(read.materials.iter().all(|m| m.texture == Some(0)));
        let lost = report.lost.join("\n");
        assert!(
            lost.contains("the names of 149 image(s) that share the bytes of an earlier image"),
            "{lost}"
        );
    }

    #[test]
    fn matrix_columns_of_bytes_are_padded_to_four() {
        let (offsets, element) = component_offsets(Dimensions::Mat3, 1);
        assert_eq!(element, 12);
        assert_eq!(offsets, vec![0, 1, 2, 4, 5, 6, 8, 9, 10]);
        let (_, element) = component_offsets(Dimensions::Mat4, 4);
        assert_eq!(element, 64);
    }

    #[test]
    fn reads_are_refused_past_the_view_and_below_the_element_size() {
        let bytes = [0u8; 24];
        let path = Path::from("/accessors/0");
        assert!(read_elements(&bytes, 0, None, 2, DataType::F32, Dimensions::Vec3, false, &path).is_ok());
        assert!(read_elements(&bytes, 4, None, 2, DataType::F32, Dimensions::Vec3, false, &path).is_err());
        assert!(read_elements(&bytes, 0, Some(8), 2, DataType::F32, Dimensions::Vec3, false, &path).is_err());
        assert!(
            read_elements(
                &bytes,
                usize::MAX,
                None,
                2,
                DataType::F32,
                Dimensions::Vec3,
                false,
                &path
            )
            .is_err()
        );
        assert!(
            read_elements(
                &bytes,
                0,
                Some(usize::MAX),
                3,
                DataType::U8,
                Dimensions::Scalar,
                false,
                &path
            )
            .is_err()
        );
    }

    #[test]
    fn normalised_integers_follow_the_gltf_rules() {
        assert_eq!(component(&[255], 0, DataType::U8, true), Some(1.0));
        assert_eq!(component(&[0x80], 0, DataType::I8, true), Some(-1.0));
        assert_eq!(component(&[0xff, 0x7f], 0, DataType::I16, true), Some(1.0));
        assert_eq!(component(&[7], 0, DataType::U8, false), Some(7.0));
    }
}
