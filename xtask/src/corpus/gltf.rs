//! glTF fuzz seeds: the other formats' `testdata/` samples read into scenes and exported by
//! `animbin-gltf`, as `.gltf` (buffer in a `data:` URI) and `.glb` (BIN chunk), one of them
//! Z-up in centimetres (the `animbin_root` node). Fuzz corpus only: glTF is what animbin
//! exports to, so its test files are made from the other formats' files when needed.

use animbin_core::scene::{ConversionReport, Scene};
use animbin_gltf::{Container, SceneOptions};

use super::Sample;

const TARGETS: &[&str] = &["parse_gltf"];

/// The bytes of the sample called `name`.
fn sample_bytes(samples: Vec<Sample>, name: &str) -> Vec<u8> {
    samples
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("the {name} sample exists"))
        .bytes
}

fn export(name: &'static str, scene: &Scene, container: Container, options: &SceneOptions) -> Sample {
    let bytes = animbin_gltf::to_bytes(scene, container, options, &mut ConversionReport::default())
        .unwrap_or_else(|e| panic!("{name}: the sample exports: {e}"));
    Sample::new(name, bytes, TARGETS, false)
}

pub(crate) fn samples() -> Vec<Sample> {
    let report = &mut ConversionReport::default();
    // A skinned, textured model with two animations.
    let dmf = animbin_dmf::read(&sample_bytes(super::dmf::samples(), "sample.dmf"))
        .expect("the DMF sample reads")
        .to_scene(&animbin_dmf::SceneOptions::default(), report)
        .expect("the DMF sample converts");
    // A skinned model with several meshes and materials named by file.
    let semodel = animbin_semodel::read(&sample_bytes(super::semodel::samples(), "sample.semodel"))
        .expect("the SEModel sample reads")
        .to_scene(&animbin_core::SceneOptions::default(), report)
        .expect("the SEModel sample converts");
    // An animation alone (nodes made from track names), with notes in animbin's extras.
    let seanim = animbin_seanim::read(&sample_bytes(super::seanim::samples(), "sample.seanim"))
        .expect("the SEAnim sample reads")
        .to_scene(&animbin_core::SceneOptions::default(), report)
        .expect("the SEAnim sample converts");
    // Curves on named nodes, at AnimX's 60 frames per second.
    let animx =
        animbin_animx::read(&sample_bytes(super::animx::samples(), "sample.animx")).expect("the AnimX sample reads");
    let animx = animx
        .to_scene(&animbin_core::SceneOptions::default(), report)
        .expect("the AnimX sample converts");
    // Unnamed slots keyed on a tick grid.
    let sf3 = animbin_sf3::read(&sample_bytes(super::sf3::samples(), "x8an00.bin")).expect("the SF3 sample reads");
    let sf3 = sf3
        .to_scene(&animbin_core::SceneOptions::default(), report)
        .expect("the SF3 sample converts");

    let plain = SceneOptions::default();
    let z_up = SceneOptions {
        z_up: true,
        unit_scale: 0.01,
        ..SceneOptions::default()
    };
    vec![
        export("sample-dmf.glb", &dmf, Container::Glb, &plain),
        export("sample-dmf.gltf", &dmf, Container::Gltf, &plain),
        export("sample-semodel-z-up.glb", &semodel, Container::Glb, &z_up),
        export("sample-seanim.gltf", &seanim, Container::Gltf, &plain),
        export("sample-animx.glb", &animx, Container::Glb, &plain),
        export("x8an00.gltf", &sf3, Container::Gltf, &plain),
        export("empty.glb", &Scene::default(), Container::Glb, &plain),
    ]
}
