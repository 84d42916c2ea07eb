//! `cargo xtask hex-match` as a command: exit codes, the lines it prints, and the JSON lines
//! file. The engines are small shell scripts, so no engine needs building.

use std::process::{Command, Output};

/// An engine that accepts every command and resigns when asked for a move.
const RESIGNER: &str = r#"sh -c 'while read c rest; do case $c in genmove) printf "= resign\n\n";; *) printf "=\n\n";; esac; done'"#;

/// An engine that sets up boards and crashes (exit code 3) at its first `play`.
const PLAY_CRASHER: &str =
    r#"sh -c 'while read c rest; do case $c in play) exit 3;; *) printf "=\n\n";; esac; done'"#;

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).arg("hex-match").args(args).output().expect("xtask runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_completed_match_exits_zero_and_writes_one_json_line_per_game() {
    let dir = std::env::temp_dir().join(format!("hex-match-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.jsonl");
    let output = xtask(&[
        RESIGNER,
        PLAY_CRASHER,
        "--games",
        "3",
        "--size",
        "4",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
    // B crashes when told the opening stone in every game, before A is asked for a move, so A
    // wins them all, whatever its colour.
    assert_eq!(stdout.lines().filter(|line| line.starts_with("game ")).count(), 3, "{stdout}");
    assert!(stdout.contains("B crashed: ended while answering \"play black "), "{stdout}");
    assert!(stdout.contains("(exit code 3)"), "{stdout}");
    assert!(stdout.contains("A: won 3, lost 0 of 3 games"), "{stdout}");
    assert!(stdout.contains("B: won 0, lost 3 of 3 games"), "{stdout}");
    let records = std::fs::read_to_string(&out).unwrap();
    let games: Vec<serde_json::Value> =
        records.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(games.len(), 3);
    assert_eq!(games[1]["black"], "B");
    assert_eq!(games[1]["winner"], "A");
    assert_eq!(games[1]["end"]["failure"]["kind"], "crashed");
    assert_eq!(games[1]["end"]["failure"]["exit_code"], 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resignations_are_losses() {
    let output = xtask(&[RESIGNER, RESIGNER, "--games", "2", "--size", "3"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    // The referee plays Black's opening stone, so White is asked first, and resigns.
    assert!(stdout.contains("game 0: black A, white B, opening"), "{stdout}");
    assert!(stdout.contains("winner A (black), resigned"), "{stdout}");
    assert!(stdout.contains("winner B (black), resigned"), "{stdout}");
}

#[test]
fn adjudication_is_announced_and_counted() {
    // Resignations are never adjudicated, so both engines win one game as before.
    let output = xtask(&[RESIGNER, RESIGNER, "--games", "2", "--size", "3", "--adjudicate", "0.5"]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("adjudication: a failure in a position proved won"), "{stdout}");
    assert!(stdout.contains("lost 1 by resigning, 0 by failing; won 0 by adjudication"), "{stdout}");
    assert!(stdout.contains("s/move over 1 moves"), "{stdout}");
}

#[test]
fn an_engine_that_cannot_start_exits_one() {
    let output = xtask(&["/nonexistent/engine", RESIGNER, "--games", "2"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("cannot start engine A"), "{}", text(&output.stderr));
}

#[test]
fn an_engine_that_cannot_set_up_a_board_exits_one_before_any_game() {
    let output = xtask(&[RESIGNER, "sh -c 'read x; exit 3'", "--games", "2", "--size", "4"]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("engine B"), "{stderr}");
    assert!(stderr.contains("cannot set up a board before the first game"), "{stderr}");
    assert!(stderr.contains("\"boardsize 4\""), "{stderr}");
    assert!(!stdout.lines().any(|line| line.starts_with("game ")), "{stdout}");
}

#[test]
fn bad_arguments_exit_two() {
    for args in [
        &[RESIGNER][..],
        &[RESIGNER, RESIGNER, "--games", "0"],
        &[RESIGNER, RESIGNER, "--size", "1"],
        &[RESIGNER, RESIGNER, "--size", "20"],
        &[RESIGNER, RESIGNER, "--timeout", "0"],
        &[RESIGNER, RESIGNER, "--timeout", "soon"],
        &[RESIGNER, RESIGNER, "--colour", "black"],
        &[RESIGNER, RESIGNER, "--adjudicate", "0"],
        &[RESIGNER, RESIGNER, "--adjudicate"],
        &[RESIGNER, RESIGNER, "--assist-moves", "2"],
        &[RESIGNER, RESIGNER, "--assist", RESIGNER, "--assist-moves", "0"],
    ] {
        let output = xtask(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output.stderr));
    }
}

/// Two runs of the same seed, engine A the same resigner and engine B another opponent, compared
/// game by game by `hex-match-report --beside`; files that do not pair exit with 2.
#[test]
fn the_report_compares_two_runs_game_by_game() {
    let dir = std::env::temp_dir().join(format!("hex-match-report-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |b: &str, seed: &str, out: &str| {
        let output =
            xtask(&[RESIGNER, b, "--games", "4", "--size", "4", "--seed", seed, "--out", &path(out)]);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    };
    // Against the crasher A wins all four; against a resigner only as Black (games 0 and 2),
    // since the side to move after the referee's opening stone resigns.
    run(PLAY_CRASHER, "5", "first.jsonl");
    run(RESIGNER, "5", "beside.jsonl");
    run(RESIGNER, "6", "other-seed.jsonl");
    let report = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_xtask")).arg("hex-match-report").args(args).output().unwrap()
    };
    let output = report(&[&path("first.jsonl"), "--beside", &path("beside.jsonl")]);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", text(&output.stderr));
    assert!(stdout.contains("| engine A | 4 | 4 | 2 | 2 | 0 | 2 | 0 | 0.500 |"), "{stdout}");

    let output = report(&[&path("first.jsonl"), &path("beside.jsonl"), "--beside", &path("beside.jsonl")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("2 files against 1 beside them"), "{}", text(&output.stderr));
    let output = report(&[&path("first.jsonl"), "--beside", &path("other-seed.jsonl")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("not the same openings and colours"), "{}", text(&output.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
