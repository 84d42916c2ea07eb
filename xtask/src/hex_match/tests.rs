//! The referee against our engine and against engines that break in every way the referee
//! must survive.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use super::*;

/// The `hex-gtp` binary of the profile these tests were built in, built if need be.
///
/// `cargo nextest run --workspace --all-targets` has built it already, but `cargo test -p xtask`
/// has not. Cargo's lock on the target folder keeps concurrent builds from test processes
/// (nextest runs every test in its own) from clashing, and a build with nothing to do is quick.
fn hex_gtp() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        // The test binary is target/<profile>/deps/xtask-…; the engine is target/<profile>/hex-gtp.
        let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps");
        let target_dir = profile_dir.parent().expect("target/");
        let profile = match profile_dir.file_name().and_then(|name| name.to_str()) {
            Some("debug") | None => "dev",
            Some(name) => name,
        };
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let status = Command::new(cargo)
            .args(["build", "--quiet", "-p", "hex", "--bin", "hex-gtp", "--profile", profile, "--target-dir"])
            .arg(target_dir)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cannot build hex-gtp");
        let path: PathBuf = profile_dir.join(format!("hex-gtp{}", std::env::consts::EXE_SUFFIX));
        assert!(path.exists(), "{} is missing", path.display());
        path.to_str().expect("a UTF-8 path").to_string()
    })
}

fn random_engine(seed: u64) -> String {
    format!("'{}' --player random --seed {seed}", hex_gtp())
}

fn config(a: String, b: String, games: u64, size: u8) -> MatchConfig {
    MatchConfig {
        engines: [a, b],
        games,
        size,
        seed: 7,
        timeout: Duration::from_secs(10),
        engine_stderr: false,
        retries: 0,
    }
}

/// Replays a game on the referee's rules: every move legal, the last one connecting.
fn check_replay(game: &GameResult, size: u8) {
    let mut position = Position::new(u32::from(size)).unwrap();
    for name in &game.moves {
        position = position.play(parse_move(name, size).unwrap()).unwrap();
    }
    if game.end == GameEnd::Connected {
        assert_eq!(position.winner(), Some(game.winner_color), "game {}", game.game);
    } else {
        assert_eq!(position.winner(), None, "game {}", game.game);
    }
    let winner = if game.winner_color == Color::Black { game.black } else { game.white };
    assert_eq!(winner, game.winner);
}

#[test]
fn our_random_engines_play_legal_games_with_alternating_colours() {
    let config = config(random_engine(1), random_engine(2), 6, 5);
    let mut seen = 0;
    let summary = play_match(&config, |_| {
        seen += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(seen, 6);
    assert_eq!(summary.games.len(), 6);
    for game in &summary.games {
        assert_eq!(game.end, GameEnd::Connected, "{}", game.line());
        check_replay(game, 5);
        let black = if game.game % 2 == 0 { EngineId::A } else { EngineId::B };
        assert_eq!((game.black, game.white), (black, black.other()));
        assert_eq!(game.moves[0], game.opening);
        assert_eq!(game.opening, summary.games[(game.game - game.game % 2) as usize].opening);
    }
    let [a, b] = &summary.engines;
    assert_eq!(a.wins + a.losses, 6);
    assert_eq!((a.wins, a.losses), (b.losses, b.wins));
    assert_eq!((a.black.0, b.black.0), (3, 3));
    assert_eq!((a.failures, b.failures, a.resignations, b.resignations), (0, 0, 0, 0));
    assert!(a.interval.0 <= a.wins as f64 / 6.0 && a.wins as f64 / 6.0 <= a.interval.1);

    // The same seeds give the same match.
    let again = play_match(&config, |_| Ok(())).unwrap();
    let strip = |games: &[GameResult]| -> Vec<GameResult> {
        games.iter().map(|g| GameResult { seconds: 0.0, ..g.clone() }).collect()
    };
    assert_eq!(strip(&summary.games), strip(&again.games));
}

/// Plays two games of our random engine (A) against `broken` (B) on 3×3, with a short timeout.
fn against_broken(broken: &str, timeout: Duration) -> MatchSummary {
    let config = MatchConfig { timeout, ..config(random_engine(1), broken.to_string(), 2, 3) };
    let summary = play_match(&config, |_| Ok(())).unwrap();
    assert_eq!(summary.games.len(), 2);
    for game in &summary.games {
        assert_eq!(game.winner, EngineId::A, "{}", game.line());
        check_replay(game, 3);
    }
    assert_eq!(summary.engines[1].failures, 2);
    summary
}

fn failure(game: &GameResult) -> &EngineFailure {
    match &game.end {
        GameEnd::Failed { failure } => failure,
        end => panic!("game {} ended {end}, not by a failure", game.game),
    }
}

#[test]
fn a_crashing_engine_loses_every_game_and_is_restarted() {
    let summary = against_broken("sh -c 'read x; exit 3'", Duration::from_secs(5));
    for game in &summary.games {
        let expected = EngineFailure::Crashed { command: "boardsize 3".into(), exit_code: Some(3) };
        assert_eq!(failure(game), &expected, "{}", game.line());
    }
}

#[test]
fn a_garbage_move_loses() {
    let summary =
        against_broken(r#"sh -c 'while read l; do printf "= zz99\n\n"; done'"#, Duration::from_secs(5));
    for game in &summary.games {
        match failure(game) {
            EngineFailure::NotAMove { command, answer } => {
                assert!(command.starts_with("genmove "), "{command}");
                assert_eq!(answer, "zz99");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn an_empty_answer_to_genmove_loses() {
    let summary = against_broken(r#"sh -c 'while read l; do printf "= \n\n"; done'"#, Duration::from_secs(5));
    for game in &summary.games {
        match failure(game) {
            EngineFailure::NotAMove { answer, .. } => assert_eq!(answer, ""),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_silent_engine_times_out_and_is_killed() {
    let started = Instant::now();
    let summary = against_broken("sh -c 'while read l; do :; done'", Duration::from_millis(500));
    for game in &summary.games {
        assert_eq!(
            failure(game),
            &EngineFailure::Timeout { command: "boardsize 3".into(), seconds: 0.5 },
            "{}",
            game.line()
        );
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn an_occupied_or_illegal_move_loses() {
    // Always a1: whichever game reaches the engine's second move, a1 is taken by then.
    let summary =
        against_broken(r#"sh -c 'while read l; do printf "= A1\n\n"; done'"#, Duration::from_secs(5));
    for game in &summary.games {
        match failure(game) {
            EngineFailure::IllegalMove { mv, why, .. } => {
                assert_eq!(mv, "a1");
                assert!(why.contains("occupied"), "{why}");
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn refusals_and_resignations_lose() {
    // Accepts the set-up, then refuses genmove.
    let refuser = r#"sh -c 'while read c rest; do case $c in genmove) printf "? no idea\n\n";; *) printf "=\n\n";; esac; done'"#;
    let summary = against_broken(refuser, Duration::from_secs(5));
    for game in &summary.games {
        assert!(matches!(failure(game), EngineFailure::Refused { message, .. } if message == "no idea"));
    }
    let resigner = r#"sh -c 'while read c rest; do case $c in genmove) printf "= resign\n\n";; *) printf "=\n\n";; esac; done'"#;
    let config =
        MatchConfig { timeout: Duration::from_secs(5), ..config(random_engine(1), resigner.into(), 2, 3) };
    let summary = play_match(&config, |_| Ok(())).unwrap();
    for game in &summary.games {
        assert_eq!((game.winner, &game.end), (EngineId::A, &GameEnd::Resigned), "{}", game.line());
    }
    assert_eq!((summary.engines[1].resignations, summary.engines[1].failures), (2, 0));
}

#[test]
fn a_missing_program_or_bad_command_fails_the_match() {
    let missing = config(random_engine(1), "/nonexistent/engine --flag".into(), 2, 5);
    let error = play_match(&missing, |_| Ok(())).unwrap_err();
    assert!(matches!(error, MatchError::Spawn { id: EngineId::B, .. }), "{error}");
    assert!(error.to_string().contains("cannot start engine B"));
    let unclosed = config("sh -c 'oops".into(), random_engine(1), 2, 5);
    let error = play_match(&unclosed, |_| Ok(())).unwrap_err();
    assert!(matches!(error, MatchError::BadCommand { id: EngineId::A, .. }), "{error}");
}

#[test]
fn results_round_trip_through_json() {
    let game = GameResult {
        game: 3,
        black: EngineId::B,
        white: EngineId::A,
        opening: "c3".into(),
        moves: vec!["c3".into(), "a1".into()],
        winner: EngineId::B,
        winner_color: Color::Black,
        end: GameEnd::Failed {
            failure: EngineFailure::Timeout { command: "genmove white".into(), seconds: 1.0 },
        },
        seconds: 1.25,
        restarts: Vec::new(),
    };
    let json = serde_json::to_string(&game).unwrap();
    assert!(json.contains(r#""end":{"reason":"failed","failure":{"kind":"timeout""#), "{json}");
    assert!(json.contains(r#""winner_color":"black""#), "{json}");
    assert!(!json.contains("restarts"), "{json}");
    assert_eq!(serde_json::from_str::<GameResult>(&json).unwrap(), game);
    assert_eq!(
        game.line(),
        "game 3: black B, white A, opening c3, moves 2, winner B (black), \
         A timeout: did not answer \"genmove white\" within 1 s"
    );
}

#[test]
fn openings_cover_the_board_and_follow_the_seed() {
    let cells: std::collections::HashSet<Cell> = (0..500).map(|pair| opening_cell(1, pair, 5)).collect();
    assert_eq!(cells.len(), 25);
    assert_eq!(opening_cell(9, 4, 11), opening_cell(9, 4, 11));
    assert_ne!(
        (0..8).map(|p| opening_cell(1, p, 11)).collect::<Vec<_>>(),
        (0..8).map(|p| opening_cell(2, p, 11)).collect::<Vec<_>>()
    );
}

#[test]
fn retries_restart_a_failing_engine_and_replay_the_game() {
    // The first start of this engine crashes on its first genmove; later starts are our random
    // engine. A marker file tells them apart.
    let marker = std::env::temp_dir().join(format!("hex-match-retry-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let flaky = format!(
        "sh -c 'if [ -e {m} ]; then exec {engine}; fi; touch {m}; \
         while read c rest; do case $c in genmove) exit 5;; *) printf \"=\\n\\n\";; esac; done'",
        m = marker.display(),
        engine = random_engine(2).replace('\'', ""),
    );
    let flaky_config = MatchConfig { retries: 1, ..config(random_engine(1), flaky, 2, 5) };
    let summary = play_match(&flaky_config, |_| Ok(())).unwrap();
    let _ = std::fs::remove_file(&marker);
    let first = &summary.games[0];
    assert_eq!(first.end, GameEnd::Connected, "{}", first.line());
    assert_eq!(first.restarts.len(), 1, "{}", first.line());
    assert_eq!(first.restarts[0].engine, EngineId::B);
    assert!(
        matches!(&first.restarts[0].failure, EngineFailure::Crashed { command, exit_code: Some(5) } if command.starts_with("genmove")),
        "{:?}",
        first.restarts
    );
    check_replay(first, 5);
    assert!(first.line().ends_with("; B restarted after crashed"), "{}", first.line());
    assert_eq!(summary.engines[1].restarts, 1);
    assert!(summary.games[1].restarts.is_empty());

    // An engine that always fails uses up its retries, then loses.
    let crasher = "sh -c 'read x; exit 3'".to_string();
    let config = MatchConfig { retries: 2, ..config(random_engine(1), crasher, 2, 3) };
    let summary = play_match(&config, |_| Ok(())).unwrap();
    for game in &summary.games {
        assert_eq!(game.winner, EngineId::A);
        assert_eq!(game.restarts.len(), 2);
        assert!(matches!(failure(game), EngineFailure::Crashed { .. }));
    }
    assert_eq!((summary.engines[1].failures, summary.engines[1].restarts), (2, 4));
}
