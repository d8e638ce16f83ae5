//! The options with values (`--framerate`, `--scale`, `--anim-type`, `--precision`) follow
//! the library's rules (`animbin::options`), as Python's keywords do: a value no conversion
//! can use is a usage error naming the option (exit 2) before anything is read or written,
//! in both forms of `convert`; a negative scale mirrors, as `--scale`'s help says.

mod common;

use common::{animbin, code, s, stderr, tempdir, testdata};

/// Each refused value, the option's text in the message and what the rule says.
const REFUSED: &[(&str, &str, &str)] = &[
    ("--scale", "0", "is not a finite, non-zero factor"),
    ("--scale", "-0", "is not a finite, non-zero factor"),
    ("--scale", "nan", "is not a finite, non-zero factor"),
    ("--scale", "inf", "is not a finite, non-zero factor"),
    ("--scale", "-inf", "is not a finite, non-zero factor"),
    ("--scale", "big", "\"big\" is not a number"),
    ("--framerate", "0", "is not a positive number of frames per second"),
    ("--framerate", "-30", "is not a positive number of frames per second"),
    ("--framerate", "nan", "is not a positive number of frames per second"),
    ("--framerate", "inf", "is not a positive number of frames per second"),
    ("--anim-type", "sideways", "unknown animation kind \"sideways\""),
    ("--precision", "half", "valid names: single, double"),
];

#[test]
fn values_the_rules_refuse_are_usage_errors_naming_the_option() {
    let dir = tempdir();
    let input = testdata("sample.seanim");
    let output = dir.path().join("out.glb");
    for &(option, value, rule) in REFUSED {
        // `--scale=-inf`: clap takes "-inf" after a space for a flag of its own.
        let arg = format!("{option}={value}");
        let out = animbin(&["convert", &arg, s(&input), s(&output)]);
        let message = stderr(&out);
        assert_eq!(code(&out), 2, "{option} {value}: {message}");
        assert!(message.contains(&format!("'{option} ")), "{option} {value}: {message}");
        assert!(message.contains(rule), "{option} {value}: {message}");
        // The input is not blamed: the message does not start with its path.
        assert!(!message.contains("sample.seanim"), "{option} {value}: {message}");
        assert!(!output.exists(), "{option} {value} wrote the output");
    }
}

#[test]
fn the_batch_form_refuses_the_same_values() {
    let dir = tempdir();
    let out_dir = dir.path().join("out");
    for &(option, value, rule) in REFUSED {
        let arg = format!("{option}={value}");
        let out = animbin(&[
            "convert",
            "--to",
            "seanim",
            "--out",
            s(&out_dir),
            &arg,
            s(&testdata("sample.seanim")),
        ]);
        let message = stderr(&out);
        assert_eq!(code(&out), 2, "{option} {value}: {message}");
        assert!(message.contains(rule), "{option} {value}: {message}");
        assert!(!out_dir.exists(), "{option} {value} made the output folder");
    }
}

#[test]
fn a_negative_scale_mirrors_and_a_fraction_scales() {
    let dir = tempdir();
    let input = testdata("sample.semodel");
    let plain = dir.path().join("plain.glb");
    let mirrored = dir.path().join("mirrored.glb");
    let small = dir.path().join("small.glb");
    for (scale, output) in [("1", &plain), ("-1", &mirrored), ("0.01", &small)] {
        let out = animbin(&["convert", "--scale", scale, s(&input), s(output)]);
        assert_eq!(code(&out), 0, "--scale {scale}: {}", stderr(&out));
    }
    let read = |path: &std::path::Path| std::fs::read(path).unwrap();
    assert_ne!(read(&plain), read(&mirrored));
    assert_ne!(read(&plain), read(&small));
    // The batch form takes it too.
    let out = animbin(&[
        "convert",
        "--to",
        "glb",
        "--out",
        s(&dir.path().join("batch")),
        "--scale",
        "-1",
        s(&input),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&dir.path().join("batch/sample.glb")), read(&mirrored));
}
