//! FBX fuzz seeds: the other formats' samples converted to FBX by animbin (a skinned,
//! textured DMF model with two animations, an SEModel with several meshes, an SEAnim alone,
//! a Cast with blend shapes, and Blender's graph assets through glb), and one in FBX 7.5.
//! Fuzz corpus only, like glTF's: FBX is what animbin exports to.

use animbin::{ConvertOptions, Document, Target};

use super::Sample;

const TARGETS: &[&str] = &["parse_fbx", "roundtrip_fbx"];

pub(crate) fn samples() -> Vec<Sample> {
    let mut sources: Vec<(&'static str, &'static str, Vec<u8>)> = Vec::new();
    let mut take = |from: Vec<Sample>, name: &'static str, seed: &'static str| {
        let sample = from
            .into_iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("the {name} sample exists"));
        sources.push((name, seed, sample.bytes));
    };
    take(super::dmf::samples(), "sample.dmf", "dmf.fbx");
    take(super::semodel::samples(), "sample.semodel", "semodel.fbx");
    take(super::seanim::samples(), "sample.seanim", "seanim.fbx");
    take(super::cast::samples(), "sample.cast", "cast.fbx");
    let mut out = Vec::new();
    for (name, seed, bytes) in sources {
        let document = Document::parse(&bytes, Some(std::path::Path::new(name)))
            .unwrap_or_else(|e| panic!("{name}: the sample reads: {e}"));
        let fbx = animbin::convert(&document, Target::Fbx, &ConvertOptions::default())
            .and_then(|c| c.to_bytes())
            .unwrap_or_else(|e| panic!("{name}: the sample converts to FBX: {e}"));
        out.push(Sample::new(seed, fbx, TARGETS, false));
    }
    // The same records in FBX 7.5 (64-bit offsets).
    let mut wide = animbin_fbx::node::parse(&out[0].bytes).expect("the FBX seed reads");
    wide.version = 7500;
    let wide = animbin_fbx::node::write_nodes(&wide).expect("and writes as 7.5");
    out.push(Sample::new("dmf-7500.fbx", wide, TARGETS, false));
    out
}
