//! The `g2048` command line as a user runs it: outputs, exit codes and error messages.

use std::process::{Command, Output};

fn g2048(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_g2048")).args(args).output().expect("g2048 runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn apply_prints_the_board_and_the_score() {
    let out = g2048(&["apply", "--board", "2 2 4 4/0 0 0 0/0 0 0 0/0 0 0 2", "--move", "left"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "4 8 0 0/0 0 0 0/0 0 0 0/2 0 0 0\nscore: 12\n");
}

#[test]
fn apply_refuses_a_move_that_changes_nothing() {
    let out = g2048(&["apply", "--board", "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0", "--move", "left"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("left does not change the board"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let bad_board = g2048(&["apply", "--board", "2 0 0 4/0 0 0 0/0 8 0 0", "--move", "left"]);
    assert_eq!(bad_board.status.code(), Some(2));
    assert!(stderr(&bad_board).contains("4 rows"), "{}", stderr(&bad_board));

    let bad_move = g2048(&["apply", "--board", "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2", "--move", "north"]);
    assert_eq!(bad_move.status.code(), Some(2));
    assert!(stderr(&bad_move).contains("not a direction"), "{}", stderr(&bad_move));

    let bad_heuristic =
        g2048(&["best-move", "--board", "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2", "--heuristic", "magic"]);
    assert_eq!(bad_heuristic.status.code(), Some(2));
    assert!(stderr(&bad_heuristic).contains("max-sq-coef-sum"), "{}", stderr(&bad_heuristic));

    let bad_tile = g2048(&["play", "--stop-at", "3"]);
    assert_eq!(bad_tile.status.code(), Some(2));
    assert!(stderr(&bad_tile).contains("--stop-at"), "{}", stderr(&bad_tile));

    let no_command = g2048(&[]);
    assert_eq!(no_command.status.code(), Some(2));
}

#[test]
fn best_move_names_a_legal_move() {
    let board = "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2";
    for agent in ["greedy", "minimax", "expectimax", "strong", "random"] {
        let out =
            g2048(&["best-move", "--board", board, "--agent", agent, "--depth", "2", "--cprob", "0.01"]);
        assert!(out.status.success(), "{agent}: {}", stderr(&out));
        let first = stdout(&out).lines().next().unwrap_or_default().to_string();
        assert!(["up", "down", "left", "right"].contains(&first.as_str()), "{agent}: {first}");
    }
    let over = g2048(&["best-move", "--board", "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"]);
    assert_eq!(over.status.code(), Some(1));
    assert!(stderr(&over).contains("game is over"));
}

#[test]
fn play_is_reproducible_from_its_seed() {
    let args = ["play", "--agent", "expectimax", "--depth", "3", "--seed", "5", "--max-moves", "40"];
    let (a, b) = (g2048(&args), g2048(&args));
    assert!(a.status.success(), "{}", stderr(&a));
    // Everything but the timing lines must match.
    let stable = |o: &Output| {
        stdout(o)
            .lines()
            .filter(|l| !l.starts_with("time:") && !l.starts_with("moves/s:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(stable(&a), stable(&b));
    assert!(stdout(&a).contains("moves:     40"));
    assert!(stdout(&a).contains("outcome:   move-limit"));
    assert!(stdout(&a).contains("replay:    g2048 play --agent expectimax --depth 3 --seed 5"));
}

/// The seed program's configurations are named on the command line, the agent says which ran,
/// and the replay line names them again; the model's rule for lost boards can be overridden.
#[test]
fn seed_models_and_the_lost_board_rule_replay() {
    // Up loses at once (every spawn fills the board with no merge), Left does not; the seed's
    // heuristic likes the boards after Up better (the test `lost_board_by_heuristic_or_penalty`).
    let board = "0 8192 1024 2/32768 4096 64 4/16384 256 512 8/2048 32 16 128";
    let best = |extra: &[&str]| {
        let mut args = vec!["best-move", "--board", board, "--agent", "minimax", "--depth", "2"];
        args.extend_from_slice(extra);
        let out = g2048(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out).lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(best(&[]), "up");
    assert_eq!(best(&["--lost", "penalty"]), "left");
    assert_eq!(best(&["--model", "described"]), "left");
    assert_eq!(best(&["--model", "described", "--lost", "heuristic"]), "up");
    for (flags, name) in [
        (&["--model", "earlier"][..], "first ten spawns, lost board by heuristic"),
        (&["--lost", "penalty"][..], "partial cut, loss penalty"),
    ] {
        let mut args = vec!["play", "--agent", "minimax", "--depth", "6", "--seed", "3", "--max-moves", "20"];
        args.extend_from_slice(flags);
        let out = g2048(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains(name), "{text}");
        let replay = format!("replay:    g2048 play --agent minimax --depth 6 {} --seed 3", flags.join(" "));
        assert!(text.contains(&replay), "{text}");
    }
    let bad = g2048(&["best-move", "--board", board, "--agent", "minimax", "--lost", "sometimes"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("penalty"), "{}", stderr(&bad));
}

#[test]
fn a_trained_network_plays_and_a_bad_file_is_refused() {
    use game2048::ntuple::{NTupleNetwork, Shape, TrainConfig};
    let dir = std::env::temp_dir().join(format!("g2048-network-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.bin");
    let network = NTupleNetwork::new(Shape::Small);
    network.train(&TrainConfig { games: 20, ..TrainConfig::default() }, |_| {});
    network.save(&path).unwrap();
    let file = path.to_str().unwrap();
    let out = g2048(&["play", "--agent", "greedy", "--network", file, "--seed", "2", "--max-moves", "50"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(&format!("--network {file}")), "{}", stdout(&out));
    let args = ["play", "--agent", "strong", "--cprob", "0.05", "--max-depth", "2", "--network", file];
    let out = g2048(&[&args[..], &["--downgrade", "8192,512", "--seed", "2", "--max-moves", "30"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("--downgrade 8192,512,2"), "{}", stdout(&out));
    // A bad downgrade, or one without a network, is a usage error.
    let out = g2048(&[&args[..], &["--downgrade", "8192,300"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("300 is not a tile"), "{}", stderr(&out));
    let out = g2048(&["play", "--agent", "strong", "--downgrade", "16384"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--network"), "{}", stderr(&out));
    // A late setting plays, is in the replay line, and a bad one is a usage error.
    let out = g2048(&[&args[..], &["--late", "64,0.1,1", "--seed", "2", "--max-moves", "30"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("--late 64,0.1,1"), "{}", stdout(&out));
    let out = g2048(&[&args[..], &["--late", "64,0.1"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("TILE,CUTOFF,DEPTH"), "{}", stderr(&out));

    std::fs::write(&path, b"garbage").unwrap();
    let out = g2048(&["best-move", "--board", "2 0 0 4/0 0 0 0/0 8 0 0/0 0 0 2", "--network", file]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not an n-tuple network file"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
