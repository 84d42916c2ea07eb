//! An evaluation split over machines, as `docs/cluster.md` runs it: three `--shard K/3`
//! processes, then `cargo xtask report` over their folders, give the games and the summary of
//! the same run made in one piece (timing columns aside).

use std::path::Path;
use std::process::Command;

fn xtask(args: &[&str]) {
    let output = run(args);
    assert!(
        output.status.success(),
        "xtask {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("xtask runs")
}

/// The games of a folder, one line each, without the fields that depend on the machine's speed.
fn games(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let mut lines: Vec<String> = text
        .lines()
        .map(|line| {
            let mut game: serde_json::Value = serde_json::from_str(line).unwrap();
            let map = game.as_object_mut().unwrap();
            map.remove("seconds");
            serde_json::to_string(map).unwrap()
        })
        .collect();
    lines.sort();
    lines
}

/// The summary's tables without the columns measured in time.
fn summary_without_times(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    let mut timed: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.iter().any(|c| c.trim() == "row") {
            timed = cells
                .iter()
                .enumerate()
                .filter(|(_, c)| ["s/game", "/s"].iter().any(|t| c.contains(t)))
                .map(|(i, _)| i)
                .collect();
        }
        let kept: Vec<&str> =
            cells.iter().enumerate().filter(|(i, _)| !timed.contains(i)).map(|(_, c)| *c).collect();
        out.push(kept.join("|"));
    }
    out
}

#[test]
fn three_shard_processes_merge_into_the_whole_run() {
    let root = std::env::temp_dir().join(format!("shards-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = |name: &str| root.join(name);
    let common =
        ["eval", "--game", "2048", "--tier", "2", "--quick", "--games", "3", "--seed", "9", "--jobs", "1"];
    let whole = dir("whole");
    xtask(&[&common[..], &["--out", whole.to_str().unwrap()]].concat());
    let shards: Vec<_> = (0..3).map(|k| dir(&format!("shard{k}"))).collect();
    for (k, shard) in shards.iter().enumerate() {
        let spec = format!("{k}/3");
        xtask(&[&common[..], &["--shard", &spec, "--out", shard.to_str().unwrap()]].concat());
    }
    let merged = dir("merged");
    let mut report = vec!["report"];
    report.extend(shards.iter().map(|s| s.to_str().unwrap()));
    report.extend(["--out", merged.to_str().unwrap()]);
    xtask(&report);

    let mut from_shards: Vec<String> = shards.iter().flat_map(|s| games(s)).collect();
    from_shards.sort();
    assert_eq!(from_shards, games(&whole));
    assert!(from_shards.len() >= 3 * 4, "{} games", from_shards.len());
    assert_eq!(summary_without_times(&merged), summary_without_times(&whole));

    // A shard of a run with another seed is refused, not merged.
    let other = dir("other-seed");
    let mut args = common.to_vec();
    args[9] = "10";
    xtask(&[&args[..], &["--shard", "0/3", "--out", other.to_str().unwrap()]].concat());
    let refused = run(&[
        "report",
        shards[0].to_str().unwrap(),
        other.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("different seeds"), "{refused:?}");
    std::fs::remove_dir_all(&root).unwrap();
}
