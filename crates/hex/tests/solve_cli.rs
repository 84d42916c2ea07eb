//! The `hex-solve --position` command line: a solved position, the empty board, and every kind
//! of bad input refused with exit status 2.

use std::process::{Command, Output};

/// Runs `hex-solve` with `args` and waits for it to end.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hex-solve")).args(args).output().expect("hex-solve runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 messages")
}

/// The value after `key: ` on its line of the output.
fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|line| line.strip_prefix(key)?.strip_prefix(": "))
}

#[test]
fn a_small_position_is_solved_with_a_winning_move_nodes_and_time() {
    // 4x4 after Black a1 and White b2, Black to move.
    let output = run(&["--size", "4", "--position", "a1 b2", "--table-bits", "12"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert_eq!(field(&text, "position"), Some("4x4 after 2 moves (a1 b2), black to move"), "{text}");
    assert_eq!(field(&text, "winner"), Some("black"), "{text}");
    let winning = field(&text, "winning move").expect("a winning move for the side to move");
    assert!(hex::parse_cell(winning, 4).is_ok(), "{winning}");
    let nodes: u64 = field(&text, "nodes").and_then(|n| n.split(' ').next()?.parse().ok()).expect("nodes");
    assert!(nodes >= 1, "{text}");
    assert!(field(&text, "time").is_some_and(|t| t.contains("s CPU") || t.contains("s wall")), "{text}");
}

#[test]
fn a_lost_position_names_the_winner_and_no_move() {
    // 3x3 after Black's centre stone b2 (a winning opening): White, to move, has no
    // winning move.
    let output = run(&["--size", "3", "--position", "b2", "--table-bits", "12"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert_eq!(field(&text, "position"), Some("3x3 after 1 move (b2), white to move"), "{text}");
    assert_eq!(field(&text, "winner"), Some("black"), "{text}");
    assert_eq!(field(&text, "winning move"), None, "{text}");
}

#[test]
fn the_empty_string_is_the_empty_board() {
    let output = run(&["--size", "5", "--position", "", "--table-bits", "14"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert_eq!(field(&text, "position"), Some("5x5 after 0 moves, black to move"), "{text}");
    assert_eq!(field(&text, "winner"), Some("black"), "{text}");
    // One of the published winning openings of 5x5.
    let winning = field(&text, "winning move").expect("the first player wins");
    let published = ["e1", "b2", "c2", "d2", "e2", "b3", "c3", "d3", "a4", "b4", "c4", "d4", "a5"];
    assert!(published.contains(&winning), "{winning}");
}

#[test]
fn commas_separate_moves_too() {
    let output = run(&["--size", "4", "--position", "a1,b2", "--table-bits", "12"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(field(&stdout(&output), "position"), Some("4x4 after 2 moves (a1 b2), black to move"));
}

/// Runs `args`, expects exit status 2, nothing on standard output and `words` in the message.
fn refused(args: &[&str], words: &str) {
    let output = run(args);
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {message}");
    assert!(message.contains(words), "{args:?}: {message:?} should say {words:?}");
    assert_eq!(stdout(&output), "", "{args:?}");
}

#[test]
fn a_cell_off_the_board_is_refused() {
    refused(&["--size", "4", "--position", "a1 e1"], "move 2: e1 is off the 4x4 board");
    refused(&["--size", "4", "--position", "a5"], "move 1: a5 is off the 4x4 board");
}

#[test]
fn an_occupied_cell_is_refused() {
    refused(&["--size", "4", "--position", "a1 b2 a1"], "move 3: a1 is already occupied");
}

#[test]
fn a_finished_game_is_refused() {
    // Black connects column a of 2x2 with its second stone.
    refused(&["--size", "2", "--position", "a1 b1 a2"], "the game is over: black has connected");
    refused(&["--size", "2", "--position", "a1 b1 a2 b2"], "move 4: b2 comes after the game is over");
}

#[test]
fn unparsable_text_is_refused() {
    refused(&["--size", "4", "--position", "a1 zz"], "move 2: \"zz\" does not end in a row number");
    refused(&["--size", "4", "--position", "11"], "move 1: \"11\" does not start with a column letter");
}

#[test]
fn position_does_not_go_with_only_or_check() {
    refused(&["--size", "4", "--position", "a1", "--only", "b2"], "--position and --only do not go together");
    refused(
        &["--size", "4", "--position", "a1", "--check", "openings.json"],
        "--position and --check do not go together",
    );
}

#[test]
fn a_limit_reached_exits_with_one() {
    let output = run(&["--size", "7", "--position", "", "--max-nodes", "5", "--table-bits", "12"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}{}", stderr(&output));
    assert_eq!(field(&text, "winner"), Some("unknown (the node limit was reached)"), "{text}");
}

#[test]
fn threads_solve_a_position_on_one_shared_table() {
    let output = run(&["--size", "5", "--position", "c3 b4", "--threads", "2", "--table-bits", "14"]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    // Black c3 then White b4: Black, to move, still wins (it does in the one-thread test too).
    let alone = stdout(&run(&["--size", "5", "--position", "c3 b4", "--table-bits", "14"]));
    assert_eq!(field(&text, "winner"), field(&alone, "winner"), "{text}\n{alone}");
    assert_eq!(field(&text, "winner"), Some("black"), "{text}");
}
