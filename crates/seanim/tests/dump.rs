//! The serde (JSON dump) form of key channels: an f32 channel writes f32 texts, and reads
//! back from them or from the f64 texts older dumps hold; a value no f32 holds in a
//! single-precision dump is refused, naming its place.

use animbin_core::{Quat, Vec3};
use animbin_seanim::{Bone, Key, Keys, Precision, PresenceFlags, PropertyFlags, SeAnim, to_bytes};

fn single() -> SeAnim {
    let mut bone = Bone::new("a");
    bone.location = Keys::Single(vec![
        Key::new(0, Vec3::new(0.1f32, f32::from_bits(0x7fc0_0001), f32::NEG_INFINITY)),
        Key::new(3, Vec3::new(-0.0, 1.5, 3.4e38)),
    ]);
    bone.rotation = Keys::Single(vec![Key::new(1, Quat::new(0.0, 0.0, 0.0, 1.0))]);
    SeAnim {
        framerate: 30.0,
        data_presence_flags: PresenceFlags::LOC | PresenceFlags::ROT,
        bones: vec![bone],
        ..SeAnim::default()
    }
}

fn undump(json: &str) -> Result<SeAnim, serde_json::Error> {
    serde_json::from_str(json)
}

#[test]
fn a_single_precision_channel_dumps_f32_texts_and_reads_back_as_f32() {
    let anim = single();
    let json = serde_json::to_string(&anim).unwrap();
    assert!(json.contains("\"x\":0.1,"), "{json}");
    assert!(json.contains("\"nan:0x7fc00001\""), "{json}");
    assert!(json.contains("3.4e+38"), "{json}");
    let back = undump(&json).unwrap();
    assert_eq!(back.bones[0].location.precision(), Precision::Single);
    assert_eq!(back.bones[0].rotation.precision(), Precision::Single);
    assert_eq!(to_bytes(&back).unwrap(), to_bytes(&anim).unwrap());
}

#[test]
fn an_older_dump_of_f64_texts_reads_back_as_the_same_f32_values() {
    let anim = single();
    let json = serde_json::to_string(&anim)
        .unwrap()
        .replace("\"x\":0.1,", &format!("\"x\":{},", f64::from(0.1f32)))
        .replace("nan:0x7fc00001", "nan:0x7ff8000020000000")
        .replace("3.4e+38", &format!("{:e}", f64::from(3.4e38f32)));
    assert!(json.contains("0.10000000149011612"), "{json}");
    let back = undump(&json).unwrap();
    assert_eq!(back.bones[0].location.precision(), Precision::Single);
    assert_eq!(to_bytes(&back).unwrap(), to_bytes(&anim).unwrap());
}

#[test]
fn the_precision_flag_may_come_after_the_bones() {
    let anim = single();
    let mut value: serde_json::Value = serde_json::to_value(&anim).unwrap();
    let object = value.as_object_mut().unwrap();
    let flags = object.remove("data_property_flags").unwrap();
    object.insert("data_property_flags".into(), flags);
    let json = serde_json::to_string(&value).unwrap();
    assert!(json.find("bones") < json.find("data_property_flags"));
    let back = undump(&json).unwrap();
    assert_eq!(back.bones[0].location.precision(), Precision::Single);
    assert_eq!(to_bytes(&back).unwrap(), to_bytes(&anim).unwrap());
}

#[test]
fn a_value_no_f32_holds_in_a_single_precision_dump_is_refused_by_its_place() {
    let json = serde_json::to_string(&single()).unwrap();
    let beyond = json.replace("3.4e+38", "1e300");
    let err = undump(&beyond).unwrap_err().to_string();
    assert!(
        err.contains("bones[0].location[1].value.z: 1e300 is beyond f32's range"),
        "{err}"
    );

    let payload = json.replace("nan:0x7fc00001", "nan:0x7ff0000000000001");
    let err = undump(&payload).unwrap_err().to_string();
    assert!(
        err.contains("bones[0].location[0].value.y: the NaN 0x7ff0000000000001 has a payload no f32 holds"),
        "{err}"
    );

    // The same values in a double-precision dump are f64s, and read.
    let double = beyond.replace("\"data_property_flags\":0", "\"data_property_flags\":1");
    let anim = undump(&double).unwrap();
    assert_eq!(anim.precision(), Precision::Double);
    assert_eq!(anim.bones[0].location.get(1).unwrap().value.z, 1e300);
}

#[test]
fn a_double_precision_channel_dumps_and_reads_f64_values() {
    let mut anim = single();
    anim.data_property_flags = PropertyFlags::PRECISION_HIGH;
    anim.bones[0].location = Keys::Double(vec![Key::new(
        0,
        Vec3::new(0.1, f64::from_bits(0x7ff0_0000_0000_0001), 1e300),
    )]);
    let json = serde_json::to_string(&anim).unwrap();
    assert!(
        json.contains("\"x\":0.1,") && json.contains("nan:0x7ff0000000000001"),
        "{json}"
    );
    let back = undump(&json).unwrap();
    assert_eq!(back.bones[0].location.precision(), Precision::Double);
    assert_eq!(to_bytes(&back).unwrap(), to_bytes(&anim).unwrap());
}
