//! DMF fixtures shared by the DMF crate's tests and the front ends'.

use animbin_dmf::{MaterialRecord, TextureRecord, View};

/// `bytes`, a binary DMF file with textures and materials, with one enum field at a time set
/// to 0x7777, which no enum holds: the first texture's `wrap_t`, then the first material's
/// `blend_equation` and `shadow_side`. Each with the offset of the field.
pub fn enum_corruptions(bytes: &[u8]) -> Vec<(usize, Vec<u8>)> {
    let view = View::parse(bytes).unwrap();
    assert!(!view.textures().is_empty() && !view.materials().is_empty());
    let fields = [
        (0, std::mem::offset_of!(TextureRecord, wrap_t)),
        (1, std::mem::offset_of!(MaterialRecord, blend_equation)),
        (1, std::mem::offset_of!(MaterialRecord, shadow_side)),
    ];
    fields
        .into_iter()
        .map(|(section, field)| {
            let mut broken = bytes.to_vec();
            let at = view.attributes()[section].offset.get() as usize + field;
            broken[at..at + 2].copy_from_slice(&0x7777u16.to_le_bytes());
            (at, broken)
        })
        .collect()
}
