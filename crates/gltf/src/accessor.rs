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

/// How many values decoding may make per byte of a document's buffers: an accessor's
/// element takes at least one byte of its view per component, so a file whose accessors
/// each stand on bytes of their own decodes to at most one value per byte; more comes only
/// from accessors that share bytes, sparse accessors or accessors without bytes.
const DECODED_PER_BUFFER_BYTE: u64 = 16;

/// The fewest values any document may decode to, whatever its size: one accessor without a
/// view at its largest ([`MAX_VIEWLESS_COMPONENTS`]).
const MIN_DECODED: u64 = MAX_VIEWLESS_COMPONENTS as u64;

/// The decoded binary buffers of a document, by buffer index, and what decoding may still
/// make of them.
pub(crate) struct Buffers<'a> {
    pub data: Vec<std::borrow::Cow<'a, [u8]>>,
    /// Values that accessor reads may still decode: a small file whose accessors share one
    /// view, or ask for millions of zeros, expands to gigabytes otherwise (a 912-byte
    /// `.gltf` whose 8 primitives share a sparse accessor took 604 MiB).
    left: std::cell::Cell<u64>,
}

impl<'a> Buffers<'a> {
    /// The buffers, with a budget of [`DECODED_PER_BUFFER_BYTE`] values per byte of them,
    /// and at least [`MIN_DECODED`].
    pub(crate) fn new(data: Vec<std::borrow::Cow<'a, [u8]>>) -> Self {
        let bytes: u64 = data.iter().map(|d| d.len() as u64).sum();
        let budget = bytes.saturating_mul(DECODED_PER_BUFFER_BYTE).max(MIN_DECODED);
        Self {
            data,
            left: std::cell::Cell::new(budget),
        }
    }

    /// Takes `values` from the budget before they are decoded for the accessor at `path`,
    /// or refuses them.
    fn spend(&self, values: usize, path: &Path) -> Result<()> {
        let bytes: u64 = self.data.iter().map(|d| d.len() as u64).sum();
        match self.left.get().checked_sub(values as u64) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => Err(Error::invalid(
                path.clone(),
                format!(
                    "at most {} values decoded in all from buffers of {bytes} bytes ({DECODED_PER_BUFFER_BYTE} a byte, \
                     at least {MIN_DECODED}): accessors that share their bytes or have none expand past it",
                    bytes.saturating_mul(DECODED_PER_BUFFER_BYTE).max(MIN_DECODED)
                ),
                format!("{values} more values"),
            )),
        }
    }
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
        .data
        .get(view.buffer().index())
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
pub(crate) fn read(accessor: &gltf::Accessor, buffers: &Buffers) -> Result<(Vec<f64>, usize)> {
    let path = Path::item("accessors", accessor.index());
    let dims = accessor.dimensions();
    let n = component_count(dims);
    let t = accessor.data_type();
    let count = accessor.count();
    let sparse_values = accessor.sparse().map_or(0, |s| s.count().saturating_mul(n + 1));
    buffers.spend(count.saturating_mul(n).saturating_add(sparse_values), &path)?;
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
    Ok((values, n))
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
    Ok((values.into_iter().map(|v| v as f32).collect(), n))
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
    Ok(values.into_iter().map(|v| v as u32).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

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
