//! The `hex-gtp` binary's flags: they set the engine up as the matching `param_hex` commands
//! would, and bad flags end the program with exit code 2 before it reads anything.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `hex-gtp` with `args`, feeds it `input`, and waits for it to end.
fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hex-gtp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hex-gtp starts");
    // A program that exits on a bad flag may close its input first: a failed write is fine.
    let _ = child.stdin.take().expect("piped stdin").write_all(input.as_bytes());
    child.wait_with_output().expect("hex-gtp ends")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 answers")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 messages")
}

/// The answers of a session, without their framing; panics on a failed command.
fn answers(output: &Output) -> Vec<String> {
    let text = stdout(output);
    text.split_terminator("\n\n")
        .map(|answer| {
            answer.strip_prefix("= ").unwrap_or_else(|| panic!("a failed command: {answer:?}")).to_string()
        })
        .collect()
}

#[test]
fn flags_set_the_player_and_seed() {
    let output = run(&["--player", "random", "--seed", "3"], "param_hex\nquit\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let settings = &answers(&output)[0];
    assert!(settings.contains("[string] player random"), "{settings}");
    assert!(settings.contains("[string] seed 3"), "{settings}");
}

#[test]
fn the_equals_form_and_param_are_accepted() {
    let output = run(&["--player=random", "--param", "depth=5", "--seed=11"], "param_hex\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let settings = &answers(&output)[0];
    for line in ["[string] player random", "[string] depth 5", "[string] seed 11"] {
        assert!(settings.contains(line), "{settings} lacks {line}");
    }
}

#[test]
fn the_seed_flag_acts_like_the_param_hex_command() {
    let session = "boardsize 7\ngenmove b\ngenmove w\ngenmove b\ngenmove w\n";
    let by_flag = run(&["--player", "random", "--seed", "42"], session);
    let by_command = run(&[], &format!("param_hex player random\nparam_hex seed 42\n{session}"));
    assert!(by_flag.status.success() && by_command.status.success());
    let moves = answers(&by_flag);
    assert_eq!(moves.len(), 5);
    assert_eq!(moves[..], answers(&by_command)[2..]);
    let other = answers(&run(&["--player", "random", "--seed", "43"], session));
    assert_ne!(moves, other, "another seed should give another game");
}

#[test]
fn help_and_version_print_and_succeed() {
    let help = run(&["--help"], "");
    assert!(help.status.success());
    assert!(stdout(&help).contains("--player NAME"));
    let version = run(&["-V"], "");
    assert!(version.status.success());
    assert!(stdout(&version).starts_with("hex-gtp "));
}

#[test]
fn bad_flags_exit_with_code_two_and_say_why() {
    let cases: &[(&[&str], &str)] = &[
        (&["--bogus"], "unknown argument: --bogus"),
        (&["--seed"], "--seed needs a value"),
        (&["--player", "nobody"], "unknown player: nobody"),
        (&["--seed", "minus-one"], "seed must be a number"),
        (&["--depth", "0"], "depth must be a number"),
        (&["--param", "depth"], "NAME=VALUE"),
        (&["--param", "colour=blue"], "unknown parameter: colour"),
        (&["--player", "random odd"], "single words"),
    ];
    for (args, message) in cases {
        let output = run(args, "name\n");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
        assert!(stdout(&output).is_empty(), "{args:?} answered a command");
    }
}

/// A fresh scratch directory under the target dir for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn benzene_tournament_flags_config_seed_and_logfile_are_taken() {
    let dir = scratch("gtp-cli-benzene-flags");
    let config = dir.join("ours.htp");
    std::fs::write(
        &config,
        "# settings for a tournament\nparam_hex player random\nparam_game allow_swap 1\n\n",
    )
    .unwrap();
    let log = dir.join("ours-0.log");
    let output = run(
        &["--config", config.to_str().unwrap(), "--seed", "123456", "--logfile-name", log.to_str().unwrap()],
        "boardsize 5 5\nparam_hex\nparam_game\nplay b c3\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let answers = answers(&output);
    assert!(answers[1].contains("[string] player random") && answers[1].contains("[string] seed 123456"));
    assert!(answers[2].starts_with("[bool] allow_swap 1"));
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains(">boardsize 5 5\n<= \n<\n"), "{logged}");
    assert!(logged.contains(">play b c3\n<= \n<\n>quit\n<= \n<\n"), "{logged}");
}

#[test]
fn a_config_command_the_engine_refuses_exits_with_code_two_naming_the_line() {
    let dir = scratch("gtp-cli-bad-config");
    let config = dir.join("mohex.htp");
    std::fs::write(&config, "param_game allow_swap 1\nparam_mohex max_time 1\n").unwrap();
    let output = run(&["--config", config.to_str().unwrap()], "name\n");
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(message.contains("mohex.htp:2") && message.contains("unknown command: param_mohex"), "{message}");
    assert!(stdout(&output).is_empty());
    let missing = run(&["--config", dir.join("nowhere.htp").to_str().unwrap()], "");
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("cannot read"));
}
