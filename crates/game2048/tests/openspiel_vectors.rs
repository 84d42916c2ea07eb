//! Replays the OpenSpiel 2.0.2 trace in `tests/data/2048-openspiel.jsonl` (see `tests/data/README.md`)
//! move by move: every slide, reward, legality verdict, spawn and final position must agree with
//! ours, both on the bitboard and through the `search_core::Game` view.
//!
//! Set `GAME2048_VECTORS` to replay another file in the same format; the record and game counts
//! are checked only for the default file.

use std::path::{Path, PathBuf};

use game2048::{Action, Board, Direction, Game2048, Position, Turn};
use search_core::{Game, MoveList, OutcomeList, ToMove};
use serde::Deserialize;

/// The copy of the trace that ships with the tests.
const DEFAULT_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/2048-openspiel.jsonl");

/// A direction as the trace names it.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Move {
    Up,
    Down,
    Left,
    Right,
}

impl Move {
    fn direction(self) -> Direction {
        match self {
            Move::Up => Direction::Up,
            Move::Down => Direction::Down,
            Move::Left => Direction::Left,
            Move::Right => Direction::Right,
        }
    }
}

/// The tile placed after a move.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Spawn {
    row: usize,
    col: usize,
    value: u32,
}

/// One line of the trace: a move and what it did.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    game: u32,
    board: [u64; 16],
    #[serde(rename = "move")]
    direction: Move,
    changed: bool,
    after_move: [u64; 16],
    reward: u32,
    spawn: Option<Spawn>,
    after_spawn: [u64; 16],
}

/// The records of `text`, each with its 1-based line number, or an error naming the first bad line.
fn parse_records(text: &str, source: &str) -> Result<Vec<(usize, Record)>, String> {
    text.lines()
        .enumerate()
        .map(|(idx, line)| {
            let line_no = idx + 1;
            serde_json::from_str(line).map(|r| (line_no, r)).map_err(|e| format!("{source}:{line_no}: {e}"))
        })
        .collect()
}

/// A board of the trace as ours; a value that is not a tile fails the test at `line_no`.
fn board(values: [u64; 16], field: &str, line_no: usize) -> Board {
    Board::from_values(values).unwrap_or_else(|e| panic!("line {line_no}: {field}: {e}"))
}

/// What the trace holds, for the checks against the default file.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    records: usize,
    games: usize,
    no_ops: usize,
    twos: usize,
    fours: usize,
}

/// Checks the end of a game: no direction changes `last`, on the board and in the game view.
fn assert_game_over(game: &Game2048, last: Board, game_no: u32, line_no: usize) {
    assert!(last.is_terminal(), "game {game_no} ends at line {line_no} on {last}, which is not terminal");
    for d in Direction::ALL {
        let unchanged = last.slide(d).map_or(true, |s| s.board == last);
        assert!(unchanged, "game {game_no}, line {line_no}: {d} still changes the final board {last}");
    }
    assert_eq!(game.to_move(&Position::slide(last)), ToMove::Terminal, "game {game_no}, line {line_no}");
}

/// Replays `records`, asserting every fact the trace states, and returns what it counted.
fn replay(records: &[(usize, Record)]) -> Counts {
    let game = Game2048::chance(0.1);
    let mut counts = Counts::default();
    // The current game's number and board (the previous record's `after_spawn`), and the line
    // that produced it.
    let mut current: Option<(u32, Board, usize)> = None;

    for (line_no, record) in records {
        let line_no = *line_no;
        let before = board(record.board, "board", line_no);
        let after_move = board(record.after_move, "after_move", line_no);
        let after_spawn = board(record.after_spawn, "after_spawn", line_no);
        let dir = record.direction.direction();

        match current {
            Some((game_no, expected, _)) if game_no == record.game => {
                assert_eq!(
                    before, expected,
                    "line {line_no}: the board is not the previous record's after_spawn"
                );
            }
            previous => {
                if let Some((game_no, last, last_line)) = previous {
                    assert!(
                        record.game > game_no,
                        "line {line_no}: game {} follows game {game_no}",
                        record.game
                    );
                    assert_game_over(&game, last, game_no, last_line);
                }
                counts.games += 1;
                // A game starts after two spawns on the empty board.
                assert_eq!(
                    before.empty_count(),
                    14,
                    "line {line_no}: game {} starts on {before}",
                    record.game
                );
                assert!(before.max_rank() <= 2, "line {line_no}: game {} starts on {before}", record.game);
            }
        }
        counts.records += 1;

        // The slide and its reward.
        let slide = before.slide(dir).unwrap_or_else(|e| panic!("line {line_no}: {before} {dir}: {e}"));
        assert_eq!(slide.board, after_move, "line {line_no}: {before} {dir}");
        assert_eq!(slide.score, record.reward, "line {line_no}: reward of {before} {dir}");

        // Legality: a move is legal exactly when it changes the board.
        assert_eq!(
            record.changed,
            after_move != before,
            "line {line_no}: `changed` disagrees with the boards"
        );
        assert_eq!(before.play(dir).is_some(), record.changed, "line {line_no}: play({dir}) on {before}");
        assert_eq!(before.legal_moves().any(|d| d == dir), record.changed, "line {line_no}: legal_moves");

        // The game view: whose turn it is, and the moves are the directions that change the board.
        let position = Position::slide(before);
        assert_eq!(game.to_move(&position), ToMove::Player(0), "line {line_no}: {before}");
        let mut moves = MoveList::new();
        game.moves(&position, &mut moves);
        let changing: Vec<Action> = Direction::ALL
            .into_iter()
            .filter(|&d| before.slide(d).is_ok_and(|s| s.board != before))
            .map(Action::Slide)
            .collect();
        assert_eq!(moves.as_slice(), changing.as_slice(), "line {line_no}: moves of {before}");
        assert_eq!(moves.contains(&Action::Slide(dir)), record.changed, "line {line_no}: moves of {before}");

        if record.changed {
            let spawn =
                record.spawn.unwrap_or_else(|| panic!("line {line_no}: a changing move without a spawn"));
            assert!(
                spawn.row < 4 && spawn.col < 4,
                "line {line_no}: spawn at ({}, {})",
                spawn.row,
                spawn.col
            );
            let cell = 4 * spawn.row + spawn.col;
            let rank = match spawn.value {
                2 => {
                    counts.twos += 1;
                    1
                }
                4 => {
                    counts.fours += 1;
                    2
                }
                v => panic!("line {line_no}: a spawned {v}"),
            };
            let spawned = after_move
                .spawn(cell, rank)
                .unwrap_or_else(|e| panic!("line {line_no}: spawn {} on {after_move}: {e}", spawn.value));
            assert_eq!(spawned, after_spawn, "line {line_no}: spawn {} at cell {cell}", spawn.value);

            // The same move and spawn through the game view.
            let moved = game.play(&position, Action::Slide(dir));
            assert_eq!(moved, Position { board: after_move, turn: Turn::Spawn }, "line {line_no}");
            assert_eq!(game.to_move(&moved), ToMove::Chance, "line {line_no}");
            let action = Action::Spawn { cell: cell as u8, rank };
            let mut outcomes = OutcomeList::new();
            game.outcomes(&moved, &mut outcomes);
            assert!(outcomes.iter().any(|&(a, p)| a == action && p > 0.0), "line {line_no}: {action:?}");
            assert_eq!(game.play(&moved, action), Position::slide(after_spawn), "line {line_no}");
        } else {
            counts.no_ops += 1;
            assert!(record.spawn.is_none(), "line {line_no}: a spawn after a move that changes nothing");
            assert_eq!(after_spawn, before, "line {line_no}: a move that changes nothing changed the board");
        }

        current = Some((record.game, after_spawn, line_no));
    }

    if let Some((game_no, last, last_line)) = current {
        assert_game_over(&game, last, game_no, last_line);
    }
    counts
}

#[test]
fn openspiel_trace_replays() {
    let path =
        std::env::var_os("GAME2048_VECTORS").map_or_else(|| PathBuf::from(DEFAULT_PATH), PathBuf::from);
    let source = path.display().to_string();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {source}: {e}"));
    let records = parse_records(&text, &source).unwrap_or_else(|e| panic!("{e}"));
    assert!(!records.is_empty(), "{source} holds no records");

    let counts = replay(&records);

    if path == Path::new(DEFAULT_PATH) {
        // The facts the shared vectors' README states about the file.
        assert_eq!(counts, Counts { records: 4_986, games: 40, no_ops: 238, twos: 4_220, fours: 528 });
    }
}

#[test]
fn a_malformed_line_is_reported_with_its_number() {
    let good = r#"{"game": 0, "board": [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0], "move": "up", "changed": true, "after_move": [0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "reward": 0, "spawn": {"row": 1, "col": 1, "value": 2}, "after_spawn": [0, 2, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}"#;
    assert_eq!(parse_records(good, "v").map(|r| r.len()), Ok(1));

    let bad_move = good.replace(r#""up""#, r#""north""#);
    let short_board = good.replace("[0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0]", "[0, 0, 2]");
    for bad in [bad_move.as_str(), short_board.as_str(), "{", ""] {
        let text = format!("{good}\n{good}\n{bad}\n{good}\n");
        let err = parse_records(&text, "v").map(|r| r.len()).unwrap_err();
        assert!(err.starts_with("v:3: "), "{err}");
    }
}
