//! Any FBX that ufbx reads becomes a scene that animbin writes as FBX again (or refuses as
//! unencodable), and what it writes reads back through the strict reader and ufbx with the
//! same nodes, meshes and animation stacks.
#![no_main]

use animbin_core::ConversionReport;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(scene) = animbin_fbx::to_scene(data, &Default::default(), &mut ConversionReport::default()) else {
        return;
    };
    let Some(bytes) = animbin_fuzz::written_or_refused(animbin_fbx::to_bytes(&scene, &mut ConversionReport::default()))
    else {
        return;
    };
    animbin_fbx::node::parse(&bytes).expect("what animbin writes reads as records");
    let back =
        animbin_fbx::to_scene(&bytes, &Default::default(), &mut ConversionReport::default()).expect("and through ufbx");
    let names =
        |s: &animbin_core::scene::Scene| -> Vec<String> { s.skeleton.bones.iter().map(|b| b.name.clone()).collect() };
    assert_eq!(names(&back), names(&scene), "the nodes come back");
    assert_eq!(back.meshes.len(), scene.meshes.len(), "the meshes come back");
    assert_eq!(back.animations.len(), scene.animations.len(), "the stacks come back");
});
