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
            .args([
                "build",
                "--quiet",
                "-p",
                "game-search-hex",
                "--bin",
                "hex-gtp",
                "--profile",
                profile,
                "--target-dir",
            ])
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
        adjudicate: None,
        assist: None,
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
    // Every move but the referee's opening answered a `genmove`; White moves first.
    let mut answered = [0u64; 2];
    for game in &summary.games {
        let asked = game.moves.len() as u32 - 1;
        let [black, white] = [game.genmoves[game.black.index()], game.genmoves[game.white.index()]];
        assert_eq!((white.moves, black.moves), (asked.div_ceil(2), asked / 2), "{}", game.line());
        assert!(black.seconds >= 0.0 && white.seconds > 0.0 && white.seconds < game.seconds);
        for id in EngineId::BOTH {
            answered[id.index()] += u64::from(game.genmoves[id.index()].moves);
        }
    }
    assert_eq!([a.genmoves, b.genmoves], answered);
    let mean = a.seconds_per_move().unwrap();
    assert!(mean > 0.0 && mean < 1.0, "{mean}");
    assert!(a.line().contains(&format!("{mean:.3} s/move over {} moves", a.genmoves)), "{}", a.line());
    // Each answer's time is kept, in order, and the first ten of each game are summed apart.
    for game in &summary.games {
        for id in EngineId::BOTH {
            let (times, total) = (&game.move_seconds[id.index()], game.genmoves[id.index()]);
            assert_eq!(times.len() as u32, total.moves);
            assert!((times.iter().sum::<f64>() - total.seconds).abs() < 1e-9);
        }
    }
    let first: usize = summary.games.iter().map(|g| g.move_seconds[0].len().min(OPENING_ANSWERS)).sum();
    assert_eq!(a.opening.0, first as u64);
    let opening = a.opening_seconds_per_move().unwrap();
    assert!(
        a.line().contains(&format!("({opening:.3} s/move over the first {OPENING_ANSWERS} of each game)"))
    );

    // The same seeds give the same match.
    let again = play_match(&config, |_| Ok(())).unwrap();
    let strip = |games: &[GameResult]| -> Vec<GameResult> {
        games
            .iter()
            .map(|g| GameResult {
                seconds: 0.0,
                genmoves: g.genmoves.map(|t| MoveTime { seconds: 0.0, ..t }),
                move_seconds: g.move_seconds.clone().map(|times| vec![0.0; times.len()]),
                ..g.clone()
            })
            .collect()
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
        GameEnd::Failed { failure, .. } => failure,
        end => panic!("game {} ended {end}, not by a failure", game.game),
    }
}

#[test]
fn a_crashing_engine_loses_every_game_and_is_restarted() {
    let summary = against_broken(CRASHER, Duration::from_secs(5));
    for game in &summary.games {
        let EngineFailure::Crashed { command, exit_code } = failure(game) else {
            panic!("{}", game.line());
        };
        assert!(command.starts_with("genmove"), "{}", game.line());
        assert_eq!(*exit_code, Some(5), "{}", game.line());
    }
}

#[test]
fn an_engine_that_cannot_set_up_a_board_fails_the_match_before_any_game() {
    // Crashes at its first command (as MoHex does when its --config file is missing).
    let crasher = config(random_engine(1), "sh -c 'read x; exit 3'".into(), 2, 3);
    let mut played = 0;
    match play_match(&crasher, |_| {
        played += 1;
        Ok(())
    }) {
        Err(MatchError::Setup {
            id: EngineId::B,
            failure: EngineFailure::Crashed { command, exit_code },
            ..
        }) => {
            assert_eq!((command.as_str(), exit_code), ("boardsize 3", Some(3)));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(played, 0);
    // Refuses the board size (an engine built for fewer cells); engine A this time.
    let refuser = r#"sh -c 'while read c rest; do case $c in boardsize) printf "? unacceptable size\n\n";; *) printf "=\n\n";; esac; done'"#;
    let error = play_match(&config(refuser.into(), random_engine(1), 2, 3), |_| Ok(())).unwrap_err();
    assert!(
        matches!(&error, MatchError::Setup { id: EngineId::A, failure: EngineFailure::Refused { command, .. }, .. } if command == "boardsize 3"),
        "{error:?}"
    );
    assert!(error.to_string().contains("cannot set up a board"), "{error}");
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
    // Sets up boards, then never answers a genmove.
    let silent = r#"sh -c 'while read c rest; do case $c in genmove) ;; *) printf "=\n\n";; esac; done'"#;
    let summary = against_broken(silent, Duration::from_millis(500));
    for game in &summary.games {
        match failure(game) {
            EngineFailure::Timeout { command, seconds } if command.starts_with("genmove") => {
                assert_eq!(*seconds, 0.5, "{}", game.line())
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(started.elapsed() < Duration::from_secs(30));
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
            lost: None,
        },
        seconds: 1.25,
        restarts: Vec::new(),
        genmoves: [MoveTime { moves: 0, seconds: 0.0 }, MoveTime { moves: 1, seconds: 0.5 }],
        move_seconds: [vec![], vec![0.5]],
        assisted: 0,
    };
    let json = serde_json::to_string(&game).unwrap();
    assert!(json.contains(r#""end":{"reason":"failed","failure":{"kind":"timeout""#), "{json}");
    assert!(json.contains(r#""winner_color":"black""#), "{json}");
    assert!(!json.contains("restarts"), "{json}");
    // Nothing proved: no `lost`, as in the records written before it was kept.
    assert!(!json.contains("lost"), "{json}");
    assert_eq!(serde_json::from_str::<GameResult>(&json).unwrap(), game);
    assert_eq!(
        game.line(),
        "game 3: black B, white A, opening c3, moves 2, winner B (black), \
         A timeout: did not answer \"genmove white\" within 1 s"
    );
    assert!(json.contains(r#""genmoves":[{"moves":0,"seconds":0.0},{"moves":1,"seconds":0.5}]"#), "{json}");
    assert!(json.contains(r#""move_seconds":[[],[0.5]]"#), "{json}");

    // Records written before the move times were kept still read, with zero times.
    let old = json
        .replace(r#","genmoves":[{"moves":0,"seconds":0.0},{"moves":1,"seconds":0.5}]"#, "")
        .replace(r#","move_seconds":[[],[0.5]]"#, "");
    assert!(!old.contains("genmoves") && !old.contains("move_seconds"), "{old}");
    let read = serde_json::from_str::<GameResult>(&old).unwrap();
    assert_eq!(
        read,
        GameResult { genmoves: [MoveTime::default(); 2], move_seconds: Default::default(), ..game.clone() }
    );

    // An adjudicated game names the proof.
    let adjudicated = GameResult {
        winner: EngineId::A,
        winner_color: Color::White,
        end: GameEnd::Adjudicated {
            failure: EngineFailure::Crashed { command: "genmove white".into(), exit_code: None },
            proof: Proof::VirtualConnection {
                connecting_move: None,
                carriers: vec![["a4".into(), "a5".into()], ["c3".into(), "c4".into()]],
            },
        },
        ..game
    };
    let json = serde_json::to_string(&adjudicated).unwrap();
    assert!(
        json.contains(
            r#""end":{"reason":"adjudicated","failure":{"kind":"crashed","command":"genmove white","exit_code":null},"proof":{"method":"virtual-connection","carriers":[["a4","a5"],["c3","c4"]]}}"#
        ),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<GameResult>(&json).unwrap(), adjudicated);
    assert_eq!(
        adjudicated.line(),
        "game 3: black B, white A, opening c3, moves 2, winner A (white), A failed (crashed: ended \
         while answering \"genmove white\" (no exit code)) in a position proved won for it: \
         adjudicated to A (virtual connection, 2 bridges)"
    );
    let solver = Proof::Solver { nodes: 12, seconds: 0.25 };
    assert_eq!(serde_json::to_string(&solver).unwrap(), r#"{"method":"solver","nodes":12,"seconds":0.25}"#);
    assert_eq!(solver.to_string(), "solver, 12 nodes");
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
    let config = MatchConfig { retries: 2, ..config(random_engine(1), CRASHER.to_string(), 2, 3) };
    let summary = play_match(&config, |_| Ok(())).unwrap();
    for game in &summary.games {
        assert_eq!(game.winner, EngineId::A);
        assert_eq!(game.restarts.len(), 2);
        assert!(matches!(failure(game), EngineFailure::Crashed { .. }));
    }
    assert_eq!((summary.engines[1].failures, summary.engines[1].restarts), (2, 4));
}

/// An engine that accepts everything and crashes (exit code 5) when first asked for a move.
const CRASHER: &str =
    r#"sh -c 'while read c rest; do case $c in genmove) exit 5;; *) printf "=\n\n";; esac; done'"#;

/// The first seed whose opening on an n×n board is `cell`.
fn seed_with_opening(size: u8, cell: Cell) -> u64 {
    (0..100_000).find(|&seed| opening_cell(seed, 0, size) == cell).expect("every cell is drawn some time")
}

/// One game of our random engine (A, Black) against `b` (White) from `seed`'s opening.
fn one_game(b: &str, size: u8, seed: u64, adjudicate: Option<Duration>) -> MatchSummary {
    let config = MatchConfig {
        seed,
        adjudicate,
        timeout: Duration::from_secs(5),
        ..config(random_engine(1), b.to_string(), 1, size)
    };
    play_match(&config, |_| Ok(())).unwrap()
}

const ONE_SECOND: Option<Duration> = Some(Duration::from_secs(1));

#[test]
fn the_solver_proves_only_real_wins() {
    // 3x3: Black's acute corner a1 loses, the centre b2 wins.
    let corner = Position::new(3).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
    assert!(matches!(
        prove_winner(&corner, Duration::from_secs(1)),
        Some((Color::White, Proof::Solver { .. }))
    ));
    // Black is not to move, and wins: the centre's two edge bridges, no solver needed.
    let centre = Position::new(3).unwrap().play(HexMove::Place(Cell::new(1, 1))).unwrap();
    assert!(matches!(
        prove_winner(&centre, Duration::from_secs(1)),
        Some((Color::Black, Proof::VirtualConnection { connecting_move: None, carriers })) if carriers.len() == 2
    ));
    // Beyond the solver's sizes an open position is never proved.
    let big = Position::new(11).unwrap().play(HexMove::Place(Cell::new(5, 5))).unwrap();
    assert_eq!(prove_winner(&big, Duration::from_secs(1)), None);
}

#[test]
fn a_crash_in_a_position_the_solver_proves_won_is_adjudicated_to_the_crasher() {
    // After Black's opening a1 on 3x3, White (B) wins; B crashes when asked for its move.
    let summary = one_game(CRASHER, 3, seed_with_opening(3, Cell::new(0, 0)), ONE_SECOND);
    let game = &summary.games[0];
    assert_eq!((game.winner, game.winner_color), (EngineId::B, Color::White), "{}", game.line());
    match &game.end {
        GameEnd::Adjudicated { failure, proof: Proof::Solver { nodes, .. } } => {
            assert_eq!(
                failure,
                &EngineFailure::Crashed { command: "genmove white".into(), exit_code: Some(5) }
            );
            assert!(*nodes >= 1);
        }
        end => panic!("{end:?}"),
    }
    assert!(
        game.line().contains(
            "B failed (crashed: ended while answering \"genmove white\" (exit code 5)) in a position \
             proved won for it: adjudicated to B (solver, "
        ),
        "{}",
        game.line()
    );
    check_replay(game, 3);
    assert_eq!(game.genmoves, [MoveTime::default(); 2], "a crash is not an answer");
    let json = serde_json::to_string(game).unwrap();
    assert!(json.contains(r#""reason":"adjudicated""#) && json.contains(r#""method":"solver""#), "{json}");
    let [a, b] = &summary.engines;
    assert_eq!((b.wins, b.adjudications, b.failures), (1, 1, 0));
    assert_eq!((a.losses, a.failures, a.adjudications), (1, 0, 0));
    assert!(b.line().contains("won 1 by adjudication"), "{}", b.line());
    assert!(b.line().contains("no moves"), "{}", b.line());

    // Strict (the default): the same crash loses.
    let strict = one_game(CRASHER, 3, seed_with_opening(3, Cell::new(0, 0)), None);
    assert_eq!(strict.games[0].winner, EngineId::A);
    assert!(matches!(strict.games[0].end, GameEnd::Failed { .. }), "{}", strict.games[0].line());
    assert_eq!((strict.engines[1].failures, strict.engines[1].adjudications), (1, 0));
}

#[test]
fn a_crash_in_a_position_not_proved_won_still_loses() {
    // After the centre b2 on 3x3 Black wins, so White's crash is not forgiven.
    let summary = one_game(CRASHER, 3, seed_with_opening(3, Cell::new(1, 1)), ONE_SECOND);
    let game = &summary.games[0];
    assert_eq!(game.winner, EngineId::A, "{}", game.line());
    // The position was lost for White anyway (the centre's two edge bridges), and the record
    // says so: the crash did not decide the game.
    match &game.end {
        GameEnd::Failed { failure: EngineFailure::Crashed { .. }, lost: Some(proof) } => {
            assert!(
                matches!(proof, Proof::VirtualConnection { carriers, .. } if carriers.len() == 2),
                "{proof:?}"
            );
        }
        end => panic!("{end:?}"),
    }
    assert!(
        game.line().contains("in a position proved lost for it (virtual connection, 2 bridges)"),
        "{}",
        game.line()
    );
    let json = serde_json::to_string(game).unwrap();
    assert!(json.contains(r#""lost":{"method":"virtual-connection""#), "{json}");
    // On 11x11 one Black stone proves nothing, and the solver does not take the board: the
    // crash decided the game.
    let summary = one_game(CRASHER, 11, 1, ONE_SECOND);
    assert_eq!(summary.games[0].winner, EngineId::A, "{}", summary.games[0].line());
    assert!(
        matches!(summary.games[0].end, GameEnd::Failed { lost: None, .. }),
        "{}",
        summary.games[0].line()
    );
    assert_eq!(summary.engines[1].failures, 1);
    // Without adjudication nothing is proved either way.
    let strict = one_game(CRASHER, 3, seed_with_opening(3, Cell::new(1, 1)), None);
    assert!(matches!(strict.games[0].end, GameEnd::Failed { lost: None, .. }), "{}", strict.games[0].line());
}

#[test]
fn a_crash_behind_a_bridge_chain_is_adjudicated_by_virtual_connection() {
    // B (White) plays b4 and d3 on 5x5, then crashes: b4 to the left edge by (a4, a5), b4 to
    // d3 by (c3, c4), d3 to the right edge by (e2, e3). A (Black) plays the first free cells
    // of the top row, and the opening is there too, out of every carrier.
    let top_row = r#"sh -c 'p=" "; while read c a b; do case $c in
        quit) exit 0;;
        clear_board) p=" "; printf "=\n\n";;
        play) p="$p$b "; printf "=\n\n";;
        genmove) for m in a1 b1 c1 d1 e1; do case "$p" in *" $m "*) ;; *) p="$p$m "; printf "= %s\n\n" $m; break;; esac; done;;
        *) printf "=\n\n";;
        esac; done'"#;
    let ladder = r#"sh -c 'n=0; while read c rest; do case $c in
        genmove) n=$((n+1)); case $n in 1) printf "= b4\n\n";; 2) printf "= d3\n\n";; *) exit 5;; esac;;
        *) printf "=\n\n";;
        esac; done'"#;
    let seed = (0..100_000).find(|&seed| opening_cell(seed, 0, 5).row == 0).unwrap();
    let config = MatchConfig {
        seed,
        adjudicate: ONE_SECOND,
        timeout: Duration::from_secs(5),
        ..config(top_row.to_string(), ladder.to_string(), 1, 5)
    };
    let summary = play_match(&config, |_| Ok(())).unwrap();
    let game = &summary.games[0];
    assert_eq!(game.moves.len(), 5, "{:?}", game.moves);
    assert_eq!((&game.moves[1], &game.moves[3]), (&"b4".to_string(), &"d3".to_string()));
    assert_eq!(game.winner, EngineId::B, "{}", game.line());
    let carriers = [["a4", "a5"], ["c3", "c4"], ["e2", "e3"]].map(|pair| pair.map(String::from)).to_vec();
    match &game.end {
        GameEnd::Adjudicated { failure: EngineFailure::Crashed { command, .. }, proof } => {
            assert_eq!(command, "genmove white");
            assert_eq!(proof, &Proof::VirtualConnection { connecting_move: None, carriers });
        }
        end => panic!("{end:?}"),
    }
    assert!(game.line().ends_with("adjudicated to B (virtual connection, 3 bridges)"), "{}", game.line());
    // Two answers each; the crash is not one.
    assert_eq!(game.genmoves.map(|t| t.moves), [2, 2]);
    check_replay(game, 5);

    // Strict, the crash loses.
    let strict = play_match(&MatchConfig { adjudicate: None, ..config }, |_| Ok(())).unwrap();
    assert_eq!(strict.games[0].winner, EngineId::A, "{}", strict.games[0].line());
    assert!(matches!(strict.games[0].end, GameEnd::Failed { .. }));
}

#[test]
fn a_resignation_is_never_adjudicated() {
    // White (B) is winning after a1 on 3x3, but resigns: that is its choice, and it loses.
    let resigner = r#"sh -c 'while read c rest; do case $c in genmove) printf "= resign\n\n";; quit) exit 0;; *) printf "=\n\n";; esac; done'"#;
    let summary = one_game(resigner, 3, seed_with_opening(3, Cell::new(0, 0)), ONE_SECOND);
    assert_eq!((summary.games[0].winner, &summary.games[0].end), (EngineId::A, &GameEnd::Resigned));
    assert_eq!(summary.games[0].genmoves[EngineId::B.index()].moves, 1, "a resignation is an answer");
    assert_eq!((summary.engines[1].resignations, summary.engines[1].adjudications), (1, 0));
}

#[test]
fn an_assistant_plays_engine_a_first_moves_and_a_hears_them() {
    let dir = std::env::temp_dir().join(format!("hex-match-assist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("a.log");
    // A writes down every command and resigns whenever it is asked for a move.
    let a = format!(
        r#"sh -c 'while read c rest; do echo "$c $rest" >> {}; case $c in genmove) printf "= resign\n\n";; *) printf "=\n\n";; esac; done'"#,
        log.display()
    );
    let config = MatchConfig {
        assist: Some(Assist { command: random_engine(3), moves: 2 }),
        ..config(a, random_engine(2), 2, 5)
    };
    let summary = play_match(&config, |_| Ok(())).unwrap();
    for game in &summary.games {
        assert_eq!(game.assisted, 2, "{}", game.line());
        // A resigns at its third move: after the opening, B's moves and A's two assisted ones.
        assert_eq!((game.winner, &game.end), (EngineId::B, &GameEnd::Resigned), "{}", game.line());
        let expected = if game.black == EngineId::A { 6 } else { 5 };
        assert_eq!(game.moves.len(), expected, "{:?}", game.moves);
        // The assistant's answers are not A's: A answered once, with its resignation.
        assert_eq!((game.genmoves[0].moves, game.move_seconds[0].len()), (1, 1));
        check_replay(game, 5);
    }
    // Each game's commands to A, from its `clear_board` on: every move of the game, the
    // assistant's included, is relayed with `play` before A's one `genmove`.
    let text = std::fs::read_to_string(&log).unwrap();
    let games: Vec<&str> = text.split("clear_board").skip(2).collect();
    assert_eq!(games.len(), summary.games.len(), "{text}");
    for (commands, game) in games.iter().zip(&summary.games) {
        let plays: Vec<String> =
            commands.lines().filter(|line| line.starts_with("play")).map(String::from).collect();
        let expected: Vec<String> = game
            .moves
            .iter()
            .enumerate()
            .map(|(i, mv)| format!("play {} {mv}", if i % 2 == 0 { "black" } else { "white" }))
            .collect();
        assert_eq!(plays, expected, "{commands}");
        let genmove = commands.find("genmove").expect("A is asked once");
        assert!(commands[..genmove].matches("play").count() == game.moves.len(), "{commands}");
    }
    // The assistant's use is recorded only when there is one.
    let json = serde_json::to_string(&summary.games[0]).unwrap();
    assert!(json.contains("\"assisted\":2"), "{json}");
    let plain = GameResult { assisted: 0, ..summary.games[0].clone() };
    assert!(!serde_json::to_string(&plain).unwrap().contains("assisted"));
    std::fs::remove_dir_all(&dir).unwrap();
}
