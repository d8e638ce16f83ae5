//! Any bytes: reading an SEModel file (either layout), the zero-copy view and a full walk of
//! it, validate and the scene conversion must return, never panic, hang or over-allocate;
//! the summary through the view is the reader's.
#![no_main]

use animbin_core::{ConversionReport, SceneOptions};
use animbin_semodel::{FileFormat, Layout, SeModel, View};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let read = animbin_semodel::read(data);
    if let Err(e) = &read {
        assert!(e.offset <= data.len() as u64, "error offset past the input: {e}");
    }
    let view = View::parse(data);
    let draft = matches!(animbin_semodel::sniff(data), Ok(Layout::Draft));
    match (&read, &view) {
        // The view covers the deployed layout only.
        (_, Err(_)) if draft => {}
        // Otherwise one structure check decides for both readers, at the same byte.
        (Ok(SeModel::Deployed(_)), Ok(_)) => {}
        (Err(a), Err(b)) => assert_eq!(a.offset, b.offset, "{a} / {b}"),
        _ => panic!(
            "read and view disagree: {:?} / {:?}",
            read.as_ref().map(|_| ()),
            view.as_ref().map(|_| ())
        ),
    }
    assert_eq!(
        SeModel::summary_of(data).ok(),
        read.as_ref().ok().map(SeModel::summary),
        "the view's summary and the reader's disagree"
    );
    if let Ok(view) = &view {
        let mut sum = 0.0f64;
        for bone in view.bones() {
            sum += f64::from(bone.head.parent.get()) + bone.global.map_or(0.0, |p| f64::from(p.position.x.get()));
        }
        for mesh in view.meshes() {
            sum += mesh.positions().iter().map(|p| f64::from(p.x.get())).sum::<f64>();
            sum += mesh.uvs().iter().map(|p| f64::from(p.y.get())).sum::<f64>();
            sum += mesh.normals().iter().map(|p| f64::from(p.z.get())).sum::<f64>();
            sum += mesh.colors().iter().map(|c| f64::from(c.a)).sum::<f64>();
            sum += mesh.weights().iter().map(|w| f64::from(w.bone)).sum::<f64>();
            sum += mesh.faces().iter().map(|f| f64::from(f[2])).sum::<f64>();
        }
        let _ = (sum, view.materials().len(), view.trailer());
    }
    if let Ok(model) = read {
        let _ = animbin_semodel::validate(&model);
        let mut report = ConversionReport::default();
        if let Ok(scene) = model.to_scene(&SceneOptions::default(), &mut report) {
            let _ = SeModel::from_scene_in(&scene, Layout::Draft, &SceneOptions::default(), &mut report);
        }
    }
});
