//! The reference files beside the project (`../shared/corpus/semodel`, written by the format
//! author's own Python writer, see `SOURCES-se.md`): each reads to what SOURCES-se.md says it
//! holds, passes `validate`, opens as a view that agrees with the reader, and is rewritten
//! byte for byte. Skipped when the folder is absent.

use std::path::Path;

use animbin_core::IndexWidth;
use animbin_semodel::{BoneFlags, MeshFlags, SceneOptions, SeModel, Trailer, View, deployed, read, to_bytes, validate};
use animbin_testing::{corpus_files, shared_corpus};

fn model(path: &Path) -> (Vec<u8>, deployed::Model) {
    let bytes = std::fs::read(path).unwrap();
    match read(&bytes) {
        Ok(SeModel::Deployed(m)) => (bytes, m),
        Ok(SeModel::Draft(_)) => panic!("{}: every reference file uses the deployed layout", path.display()),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

/// What SOURCES-se.md's table says of each file.
fn check_against_sources(name: &str, m: &deployed::Model, view: &View<'_>) {
    let meshes = m.meshes.items();
    match name {
        "ref_300bones_u16weights.semodel" => {
            // 300 bones (local matrix only), 1 mesh of 3 vertices, maxSkinInfluence 2 with bone
            // indices 299 / 256 / 255 -> u16 bone_t, no materials (material reference -1).
            assert_eq!(m.bones.items().len(), 300);
            assert_eq!(m.bone_flags, BoneFlags::LOCAL_MATRIX);
            assert_eq!(m.bone_index_width(), IndexWidth::U16);
            assert_eq!(view.meshes()[0].weights().width(), IndexWidth::U16);
            assert_eq!(meshes.len(), 1);
            assert_eq!(meshes[0].positions.len(), 3);
            assert_eq!(meshes[0].max_influence, 2);
            let bones: Vec<u32> = meshes[0].weights.iter().map(|w| w.bone).collect();
            for b in [299, 256, 255] {
                assert!(bones.contains(&b), "bone {b} in {bones:?}");
            }
            assert!(m.materials.items().is_empty());
            assert_eq!(meshes[0].material_indices, vec![-1]);
        }
        "ref_300verts_u16faces_2meshes.semodel" => {
            // No bones, 2 meshes: 300 verts / 99 faces (u16 indices) and 3 verts / 1 face (u8),
            // UV + normals, 1 material.
            assert!(m.bones.items().is_empty());
            assert_eq!(meshes.len(), 2);
            assert_eq!((meshes[0].positions.len(), meshes[0].faces.len()), (300, 99));
            assert_eq!((meshes[1].positions.len(), meshes[1].faces.len()), (3, 1));
            assert_eq!(view.meshes()[0].faces().width(), IndexWidth::U16);
            assert_eq!(view.meshes()[1].faces().width(), IndexWidth::U8);
            assert!(m.mesh_flags.contains(MeshFlags::UV_SET | MeshFlags::NORMALS));
            assert_eq!(m.materials.items().len(), 1);
        }
        "ref_skeleton_only.semodel" => {
            // 2 bones (global matrix only), no meshes, no materials.
            assert_eq!(m.bones.items().len(), 2);
            assert_eq!(m.bone_flags, BoneFlags::GLOBAL_MATRIX);
            assert!(m.bones.items().iter().all(|b| b.global.is_some() && b.local.is_none()));
            assert!(meshes.is_empty());
            assert!(m.materials.items().is_empty());
        }
        "ref_skinned_quad_2uv_colors.semodel" => {
            // 2 bones (global + local + scale), 1 mesh of 4 verts / 2 faces, 2 UV layers, normals,
            // RGBA colours, maxSkinInfluence 2 (u8 bone_t), material refs [0, -1], 2 materials
            // (one with empty map names).
            assert_eq!(m.bones.items().len(), 2);
            assert_eq!(m.bone_flags, BoneFlags::from_bits_retain(7));
            assert_eq!(meshes.len(), 1);
            let mesh = &meshes[0];
            assert_eq!((mesh.positions.len(), mesh.faces.len()), (4, 2));
            assert_eq!(mesh.layer_count(), 2);
            assert_eq!(mesh.uvs.len(), 8);
            assert_eq!(mesh.normals.len(), 4);
            assert_eq!(mesh.colors.len(), 4);
            assert_eq!(mesh.max_influence, 2);
            assert_eq!(view.meshes()[0].weights().width(), IndexWidth::U8);
            assert_eq!(mesh.material_indices, vec![0, -1]);
            let materials = m.materials.items();
            assert_eq!(materials.len(), 2);
            let empty = materials
                .iter()
                .filter_map(|m| m.maps.as_ref())
                .filter(|maps| maps.diffuse.is_empty() && maps.normal.is_empty() && maps.specular.is_empty())
                .count();
            assert_eq!(empty, 1, "one material has empty map names");
        }
        "ref_static_triangle.semodel" => {
            // No bones, 1 mesh of 3 verts / 1 face, 1 UV layer, normals, 1 simple material
            // with diffuse / normal / specular names.
            assert!(m.bones.items().is_empty());
            assert_eq!(meshes.len(), 1);
            assert_eq!(
                (
                    meshes[0].positions.len(),
                    meshes[0].faces.len(),
                    meshes[0].layer_count()
                ),
                (3, 1, 1)
            );
            assert_eq!(meshes[0].normals.len(), 3);
            let maps = m.materials.items()[0].maps.as_ref().expect("a simple material");
            assert!(!maps.diffuse.is_empty() && !maps.normal.is_empty() && !maps.specular.is_empty());
        }
        other => panic!("{other} is not in SOURCES-se.md's table: add what it holds here"),
    }
}

#[test]
fn every_reference_file_reads_as_described_and_rewrites_byte_for_byte() {
    let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "semodel") else {
        return;
    };
    let sources = std::fs::read_to_string(dir.join("../SOURCES-se.md")).unwrap_or_default();
    let files = corpus_files(&dir, "semodel");
    assert!(!files.is_empty(), "the corpus folder has no .semodel files");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            sources.contains(&format!("semodel/{name}")),
            "{name} is not listed in SOURCES-se.md"
        );
        let (bytes, m) = model(&path);
        let view = View::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_against_sources(&name, &m, &view);
        assert_eq!(view.to_model(), m, "{name}: the view and the reader disagree");
        assert_eq!(m.trailer, Trailer::None, "{name}");
        let model = SeModel::Deployed(m);
        assert_eq!(validate(&model), vec![], "{name}");
        assert_eq!(to_bytes(&model).unwrap(), bytes, "{name}: not rewritten byte for byte");
    }
}

#[test]
fn every_reference_file_converts_through_the_scene_and_back() {
    let Some(dir) = shared_corpus(env!("CARGO_MANIFEST_DIR"), "semodel") else {
        return;
    };
    for path in corpus_files(&dir, "semodel") {
        let (_, m) = model(&path);
        let model = SeModel::Deployed(m);
        let mut report = Default::default();
        let scene = model.to_scene(&SceneOptions::default(), &mut report).unwrap();
        let mut back_report = Default::default();
        let back = SeModel::from_scene_in(
            &scene,
            animbin_semodel::Layout::Deployed,
            &SceneOptions::default(),
            &mut back_report,
        )
        .unwrap();
        // The geometry survives exactly: counts, positions, faces, weights.
        assert_eq!(back.vertex_count(), model.vertex_count());
        assert_eq!(back.face_count(), model.face_count());
        let (SeModel::Deployed(a), SeModel::Deployed(b)) = (&model, &back) else {
            unreachable!()
        };
        for (x, y) in a.meshes.items().iter().zip(b.meshes.items()) {
            assert_eq!(x.positions, y.positions);
            assert_eq!(x.faces, y.faces);
            assert_eq!(x.uvs, y.uvs);
            assert_eq!(x.weights, y.weights);
            assert_eq!(x.material_indices, y.material_indices);
        }
        assert_eq!(a.materials.items(), b.materials.items());
        for (x, y) in a.bones.items().iter().zip(b.bones.items()) {
            assert_eq!((&x.name, x.parent), (&y.name, y.parent));
        }
    }
}
