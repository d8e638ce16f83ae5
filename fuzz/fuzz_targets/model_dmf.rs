//! Writers proven from the model side: a random Dash model (records of any bytes: names,
//! ids, booleans, enums, floats with any bits, nop bytes; PNG bytes; animations of tracks)
//! is either refused by the writer with an `Unencodable` error naming the spec rule, or
//! written to canonical bytes that read back to the same model, bit for bit, and rewrite to
//! the same bytes.
#![no_main]

use animbin_core::zerocopy::{FromBytes, IntoBytes};
use animbin_dmf::{
    Animation, Bone, Dmf, Face, Material, MaterialRecord, Name, Texture, TextureRecord, Track, Vertex, read, to_bytes,
};
use animbin_fuzz::list;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// A record from arbitrary bytes, or `None` when the input runs out.
fn record<T: FromBytes>(u: &mut Unstructured) -> Result<T> {
    let bytes = u.bytes(size_of::<T>())?;
    T::read_from_bytes(bytes).map_err(|_| libfuzzer_sys::arbitrary::Error::NotEnoughData)
}

/// A name: mostly a valid one (its text, then NULs), sometimes any 32 bytes.
fn name(u: &mut Unstructured) -> Result<Name> {
    if u.ratio(1, 8)? {
        return record(u);
    }
    let n = u.int_in_range(0..=8usize)?;
    let text: String = (0..n)
        .map(|_| Ok(char::from(u.int_in_range(b'a'..=b'z')?)))
        .collect::<Result<_>>()?;
    Ok(Name::new(&text).unwrap_or_default())
}

fn model(u: &mut Unstructured) -> Result<Dmf> {
    let textures = list(u, 2, |u| {
        let mut r: TextureRecord = record(u)?;
        r.name = name(u)?;
        let mut png = animbin_dmf::PNG_SIGNATURE.to_vec();
        let extra = u.int_in_range(0..=8usize)?;
        png.extend_from_slice(u.bytes(extra)?);
        Ok(Texture::from_record(&r, png, 0).unwrap_or_default())
    })?;
    let materials = list(u, 2, |u| {
        let mut r: MaterialRecord = record(u)?;
        r.name = name(u)?;
        Ok(Material::from_record(&r, 0).unwrap_or_default())
    })?;
    let vertices = list(u, 4, record::<Vertex>)?;
    let faces = list(u, 2, record::<Face>)?;
    let bones = list(u, 3, |u| {
        let mut bone: Bone = record(u)?;
        bone.name = name(u)?;
        Ok(bone)
    })?;
    let animations = list(u, 2, |u| {
        Ok(Animation {
            id: u.arbitrary()?,
            name: name(u)?,
            fps: u.arbitrary()?,
            duration: f32::from_bits(u.arbitrary()?),
            tracks: list(u, 3, record::<Track>)?,
        })
    })?;
    let mut dmf = Dmf {
        textures,
        materials,
        vertices,
        faces,
        bones,
        animations,
    };
    // Mostly with ids that match positions, as the spec asks.
    if u.ratio(3, 4)? {
        dmf.renumber();
    }
    Ok(dmf)
}

/// Every field of the model, floats as their bits.
fn exact(dmf: &Dmf) -> Vec<u8> {
    let mut out = Vec::new();
    for t in &dmf.textures {
        out.extend_from_slice(format!("{t:?}").as_bytes());
    }
    for m in &dmf.materials {
        out.extend_from_slice(m.to_record().as_bytes());
    }
    out.extend_from_slice(dmf.vertices.as_bytes());
    out.extend_from_slice(dmf.faces.as_bytes());
    out.extend_from_slice(dmf.bones.as_bytes());
    for a in &dmf.animations {
        out.extend_from_slice(&a.id.to_le_bytes());
        out.extend_from_slice(a.name.as_bytes());
        out.extend_from_slice(&a.fps.to_le_bytes());
        out.extend_from_slice(&a.duration.to_bits().to_le_bytes());
        out.extend_from_slice(a.tracks.as_bytes());
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((dmf, bytes, back)) = animbin_fuzz::written_and_read(data, model, to_bytes, read) else {
        return;
    };
    assert_eq!(to_bytes(&back).expect("and writes again"), bytes);
    assert!(exact(&back) == exact(&dmf), "the model read back differs");
});
