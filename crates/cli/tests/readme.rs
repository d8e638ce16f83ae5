//! The summaries of the command in docs/cli.md and the crate's README name every option
//! that `animbin COMMAND --help` lists, so that they stay in step with the command.

mod common;

use std::path::Path;

use common::{animbin, code, stdout};

/// The long options (`--json`) that `animbin COMMAND --help` lists, less --help.
fn options_of(command: &str) -> Vec<String> {
    let out = animbin(&[command, "--help"]);
    assert_eq!(code(&out), 0);
    stdout(&out)
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line.strip_prefix("-h, ").unwrap_or(line);
            let option = line.strip_prefix("--")?.split([' ', '=']).next()?;
            (option != "help").then(|| format!("--{option}"))
        })
        .collect()
}

/// The first ```text block of `readme`, split into each command's lines.
fn summaries(readme: &str) -> Vec<(String, String)> {
    let start = readme.find("```text\n").expect("a ```text block") + "```text\n".len();
    let block = &readme[start..];
    let block = &block[..block.find("```").expect("the block ends")];
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        if let Some(rest) = line.strip_prefix("animbin ") {
            let command = rest.split(' ').next().unwrap_or_default().to_string();
            out.push((command, String::new()));
        }
        if let Some((_, text)) = out.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

#[test]
fn each_readme_summary_names_every_option_of_every_command() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for readme in [root.join("../../docs/cli.md"), root.join("README.md")] {
        let text = std::fs::read_to_string(&readme).unwrap();
        let summaries = summaries(&text);
        for command in ["info", "dump", "convert", "validate"] {
            let lines: String = summaries
                .iter()
                .filter(|(c, _)| c == command)
                .map(|(_, text)| text.as_str())
                .collect();
            assert!(
                !lines.is_empty(),
                "{} has no `animbin {command}` line",
                readme.display()
            );
            for option in options_of(command) {
                assert!(
                    lines.contains(&option),
                    "{}: `animbin {command}` does not mention {option}",
                    readme.display()
                );
            }
        }
    }
}
