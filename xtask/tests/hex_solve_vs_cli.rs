//! `cargo xtask hex-solve-vs` as a command: the files it writes, a disagreement (exit 1), a
//! timeout, a bad positions file and an engine that does not start (exit 2). The engines are
//! small shell scripts that answer every command with success and the solve with a fixed
//! colour, so no engine needs building.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// An engine that accepts every command and answers `solve-state` with `colour`.
fn says(colour: &str) -> String {
    format!(
        r#"sh -c 'while read c rest; do case $c in solve-state) printf "=7 {colour}\n\n";; quit) printf "=\n\n"; exit 0;; *) printf "=\n\n";; esac; done'"#
    )
}

/// An engine that never answers `solve-state`.
const SLEEPER: &str = r#"sh -c 'while read c rest; do case $c in solve-state) sleep 30;; quit) printf "=\n\n"; exit 0;; *) printf "=\n\n";; esac; done'"#;

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).arg("hex-solve-vs").args(args).output().expect("xtask runs")
}

/// Runs `ours` against `theirs` (both asked `solve-state`) on `positions`, into `out`, with
/// `extra` arguments before `--out`.
fn versus(ours: &str, theirs: &str, positions: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "--ours",
        ours,
        "--theirs",
        theirs,
        "--theirs-solve",
        "solve-state",
        "--positions",
        positions.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    xtask(&args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh folder with a positions file of two positions.
fn setup(test: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("hex-solve-vs-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let positions = dir.join("positions.txt");
    std::fs::write(&positions, "# two positions\n5x5-empty 5\n5x5-c3 5 c3\n").unwrap();
    (dir, positions)
}

#[test]
fn agreeing_engines_exit_zero_and_write_a_line_per_position_and_a_summary() {
    let (dir, positions) = setup("agree");
    let out = dir.join("out");
    let black = says("black");
    let output = versus(&black, &black, &positions, &out, &[]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
    let lines = std::fs::read_to_string(out.join("solve-vs.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 2);
    let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(first["name"], "5x5-empty");
    assert_eq!(first["ours"]["winner"], "black");
    assert_eq!(first["theirs"]["winner"], "black");
    assert_eq!(first["disagreement"], false);
    for key in ["cpu_s", "net_cpu_s", "startup_cpu_s", "wall_s"] {
        assert!(first["ours"][key].as_f64().is_some_and(|s| s >= 0.0), "{key}: {first}");
    }
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains(
        "| position | size | winner | theirs CPU s | ours CPU s | ours/theirs | theirs wall s | ours wall s | wall ours/theirs |"
    ));
    assert!(summary.contains("| 5x5-c3 | 5 | black |"), "{summary}");
    assert!(summary.contains("(2 of 2 solved by both)"), "{summary}");
    assert!(stdout.contains("| 5x5-empty | 5 | black |"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn repeated_solves_alternate_and_the_row_keeps_every_sample() {
    let (dir, positions) = setup("repeat");
    let out = dir.join("out");
    let black = says("black");
    let output = versus(&black, &black, &positions, &out, &["--only", "5x5-c3", "--repeat", "3"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("each solved 3 times by each engine"), "{stdout}");
    let lines = std::fs::read_to_string(out.join("solve-vs.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1);
    let row: serde_json::Value = serde_json::from_str(lines.trim()).unwrap();
    for side in ["ours", "theirs"] {
        let samples = row[side]["net_cpu_samples"].as_array().unwrap_or_else(|| panic!("{row}"));
        assert_eq!(samples.len(), 3, "{row}");
        let least = samples.iter().map(|s| s.as_f64().unwrap()).fold(f64::INFINITY, f64::min);
        assert_eq!(row[side]["net_cpu_s"].as_f64(), Some(least), "{row}");
    }

    let output = xtask(&["--ours", &black, "--positions", positions.to_str().unwrap(), "--repeat", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--repeat"), "{}", text(&output.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_disagreement_is_loud_recorded_and_exits_one() {
    let (dir, positions) = setup("disagree");
    let out = dir.join("out");
    let (black, white) = (says("black"), says("white"));
    let output = versus(&black, &white, &positions, &out, &["--only", "5x5-c3"]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{}{stderr}", text(&output.stdout));
    assert!(stderr.contains("DISAGREEMENT on 5x5-c3: ours says black, theirs says white"), "{stderr}");
    let lines = std::fs::read_to_string(out.join("solve-vs.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1);
    assert!(lines.contains("\"disagreement\":true"), "{lines}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_slow_solve_is_killed_and_recorded_as_a_timeout() {
    let (dir, positions) = setup("timeout");
    let out = dir.join("out");
    let started = std::time::Instant::now();
    let output = xtask(&[
        "--ours",
        SLEEPER,
        "--positions",
        positions.to_str().unwrap(),
        "--only",
        "5x5-empty",
        "--timeout",
        "0.5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(started.elapsed().as_secs() < 20, "the timeout was not applied");
    assert_eq!(output.status.code(), Some(0), "{}{}", text(&output.stdout), text(&output.stderr));
    let lines = std::fs::read_to_string(out.join("solve-vs.jsonl")).unwrap();
    assert!(lines.contains("\"status\":\"timeout\""), "{lines}");
    assert!(lines.contains("\"theirs\":null"), "{lines}");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains("| 5x5-empty | 5 | ? | – | timeout"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_exits_two_with_a_clear_message() {
    let (dir, positions) = setup("bad");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "ok 4\nbad 4 a1 a1\n").unwrap();
    let black = says("black");
    let output = xtask(&["--ours", &black, "--positions", bad.to_str().unwrap()]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("line 2: bad: move 2: a1 is already occupied"), "{stderr}");

    let output = xtask(&["--ours", &black, "--positions", positions.to_str().unwrap(), "--only", "nope"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("no position named \"nope\""));

    let out = dir.join("out");
    let output = xtask(&[
        "--ours",
        "/nonexistent/engine",
        "--positions",
        positions.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the ours engine (/nonexistent/engine) fails to start"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
