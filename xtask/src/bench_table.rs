//! The table `cargo xtask bench` prints after criterion has run: each benchmark's
//! throughput and its ratio to the memcpy of its group and, where the group has one, to the
//! peer library's reader (`peer:` in the function name).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

/// One measured function: its group, name, bytes per iteration and mean time.
struct Measured {
    function: String,
    bytes: f64,
    mean_ns: f64,
}

impl Measured {
    fn gib_per_s(&self) -> f64 {
        self.bytes / self.mean_ns * 1e9 / f64::from(1 << 30)
    }
}

/// Reads every `new/benchmark.json` and `new/estimates.json` under `criterion`.
fn measurements(criterion: &Path) -> Result<BTreeMap<String, Vec<Measured>>, String> {
    let mut groups: BTreeMap<String, Vec<Measured>> = BTreeMap::new();
    let mut stack = vec![criterion.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.file_name().is_none_or(|n| n != "benchmark.json")
                || !path.parent().is_some_and(|p| p.ends_with("new"))
            {
                continue;
            }
            let read = |p: &Path| -> Result<Value, String> {
                let text = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
                serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", p.display()))
            };
            let benchmark = read(&path)?;
            let estimates = read(&path.with_file_name("estimates.json"))?;
            let (Some(group), Some(function), Some(bytes), Some(mean_ns)) = (
                benchmark["group_id"].as_str(),
                benchmark["function_id"].as_str(),
                benchmark["throughput"]["Bytes"].as_f64(),
                estimates["mean"]["point_estimate"].as_f64(),
            ) else {
                continue;
            };
            groups.entry(group.to_string()).or_default().push(Measured {
                function: function.to_string(),
                bytes,
                mean_ns,
            });
        }
    }
    Ok(groups)
}

/// Prints the table as Markdown, groups in name order, each function beside its memcpy
/// and peer.
pub fn print(criterion: &Path) -> Result<(), String> {
    let groups = measurements(criterion)?;
    if groups.is_empty() {
        return Err(format!("no criterion results under {}", criterion.display()));
    }
    println!("| group | function | GiB/s | x memcpy | x peer |");
    println!("|---|---|---:|---:|---:|");
    for (group, mut functions) in groups {
        functions.sort_by(|a, b| a.function.cmp(&b.function));
        let memcpy = functions
            .iter()
            .find(|m| m.function == "memcpy")
            .map(Measured::gib_per_s);
        let peer = functions
            .iter()
            .find(|m| m.function.starts_with("peer:"))
            .map(Measured::gib_per_s);
        for m in &functions {
            let ratio = |base: Option<f64>| base.map_or(String::new(), |b| format!("{:.2}", m.gib_per_s() / b));
            println!(
                "| {group} | {} | {:.2} | {} | {} |",
                m.function,
                m.gib_per_s(),
                ratio(memcpy),
                ratio(peer)
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_criterions_files() {
        let dir = std::env::temp_dir().join(format!("animbin-bench-table-{}", std::process::id()));
        for (function, ns) in [("memcpy", 1e6), ("read", 4e6), ("peer: x", 8e6)] {
            let new = dir.join("g").join(function.replace(':', "_")).join("new");
            std::fs::create_dir_all(&new).unwrap();
            let benchmark =
                serde_json::json!({"group_id": "g", "function_id": function, "throughput": {"Bytes": 1 << 30}});
            std::fs::write(new.join("benchmark.json"), benchmark.to_string()).unwrap();
            std::fs::write(
                new.join("estimates.json"),
                serde_json::json!({"mean": {"point_estimate": ns}}).to_string(),
            )
            .unwrap();
        }
        let groups = measurements(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let g = &groups["g"];
        assert_eq!(g.len(), 3);
        let read = g.iter().find(|m| m.function == "read").unwrap();
        assert!((read.gib_per_s() - 250.0).abs() < 1e-9);
    }
}
