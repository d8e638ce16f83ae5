//! Exported scenes checked by the Khronos glTF validator (skipped when it is not installed,
//! except under CI, where that fails).

mod common;

use animbin_core::scene::{ConversionReport, Scene};
use animbin_gltf::{Container, SceneOptions};
use animbin_testing::gltf::{error_lines, khronos_validate, provide_external_images};

fn export_all(dir: &std::path::Path, name: &str, scene: &Scene, options: &SceneOptions) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for (container, ext) in [(Container::Gltf, "gltf"), (Container::Glb, "glb")] {
        let mut report = ConversionReport::default();
        let bytes = animbin_gltf::to_bytes(scene, container, options, &mut report).unwrap();
        let path = dir.join(format!("{name}.{ext}"));
        std::fs::write(&path, bytes).unwrap();
        provide_external_images(&path);
        files.push(path);
    }
    files
}

#[test]
fn exported_scenes_have_no_validator_errors() {
    let dir = std::env::temp_dir().join(format!("animbin-gltf-validator-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let z_up = SceneOptions {
        z_up: true,
        unit_scale: 0.01,
        ..SceneOptions::default()
    };
    let mut files = Vec::new();
    files.extend(export_all(
        &dir,
        "full",
        &common::full_scene(),
        &SceneOptions::default(),
    ));
    files.extend(export_all(&dir, "full_z_up", &common::full_scene(), &z_up));
    files.extend(export_all(
        &dir,
        "anim_only",
        &common::animation_only(),
        &SceneOptions::default(),
    ));
    files.extend(export_all(&dir, "anim_only_z_up", &common::animation_only(), &z_up));
    files.extend(export_all(&dir, "empty", &Scene::default(), &SceneOptions::default()));
    // Hair as lines and points, instances as nodes without a mesh.
    files.extend(export_all(
        &dir,
        "groomed",
        &common::groomed_scene(),
        &SceneOptions::default(),
    ));
    files.extend(export_all(&dir, "groomed_z_up", &common::groomed_scene(), &z_up));
    let hair_only = Scene {
        hairs: common::groomed_scene().hairs,
        instances: common::groomed_scene().instances,
        ..Scene::default()
    };
    files.extend(export_all(&dir, "hair_only", &hair_only, &SceneOptions::default()));
    let Some(reports) = khronos_validate(&files) else {
        return;
    };
    for report in &reports {
        println!(
            "{}: {} errors, {} warnings {:?}",
            report.file, report.errors, report.warnings, report.issues
        );
    }
    for report in reports {
        assert_eq!(report.errors, 0, "{}:\n{}", report.file, error_lines(&report));
    }
    std::fs::remove_dir_all(&dir).ok();
}
