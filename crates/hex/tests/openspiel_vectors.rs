//! Replays the 480 OpenSpiel 2.0.2 games in `tests/data/hex-openspiel.jsonl` with both win
//! detectors (the flood fill behind `Position`, and the union-find `Connectivity`), and checks the
//! solved openings in `tests/data/hex-solved-openings.json` against a brute-force solve of the
//! small boards. See `tests/data/README.md` for where the files come from.
//!
//! Set `HEX_VECTORS` to replay another file in the same format; the game count is checked only
//! for the default file.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use hex::{Board, Cell, Color, Connectivity, HexMove, Position, move_name, parse_cell};
use serde::Deserialize;

/// The copy of the games that ships with the tests.
const DEFAULT_GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hex-openspiel.jsonl");

/// The solved openings that ship with the tests.
const SOLVED_OPENINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hex-solved-openings.json");

/// The side that won, as the file names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Winner {
    Black,
    White,
}

impl Winner {
    fn color(self) -> Color {
        match self {
            Winner::Black => Color::Black,
            Winner::White => Color::White,
        }
    }
}

/// One line of the file: a complete game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Game {
    size: u8,
    moves: Vec<String>,
    winner: Winner,
}

/// The games of `text`, each with its 1-based line number, or an error naming the first bad line.
fn parse_games(text: &str, source: &str) -> Result<Vec<(usize, Game)>, String> {
    text.lines()
        .enumerate()
        .map(|(idx, line)| {
            let line_no = idx + 1;
            serde_json::from_str(line).map(|g| (line_no, g)).map_err(|e| format!("{source}:{line_no}: {e}"))
        })
        .collect()
}

/// The games to replay: from `HEX_VECTORS` when set, else the shipped copy; and whether the
/// shipped copy was used.
fn load_games() -> (Vec<(usize, Game)>, bool) {
    let (path, is_default) = match std::env::var_os("HEX_VECTORS") {
        Some(path) => (PathBuf::from(path), false),
        None => (PathBuf::from(DEFAULT_GAMES), true),
    };
    let source = path.display().to_string();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {source}: {e}"));
    let games = parse_games(&text, &source).unwrap_or_else(|e| panic!("{e}"));
    (games, is_default)
}

/// Replays `game` with `Position` and `Connectivity` side by side, or says what went wrong.
fn replay(game: &Game) -> Result<(), String> {
    let mut pos = Position::new(u32::from(game.size)).map_err(|e| e.to_string())?;
    let mut groups = Connectivity::new(game.size);
    let last = game.moves.len().checked_sub(1).ok_or("no moves")?;
    for (i, name) in game.moves.iter().enumerate() {
        let cell = parse_cell(name, game.size).map_err(|e| format!("move {}: {e}", i + 1))?;
        if pos.board().get(cell).is_some() {
            return Err(format!("move {} ({name}): the cell is occupied", i + 1));
        }
        let mover = pos.to_move();
        let expected_mover = if i % 2 == 0 { Color::Black } else { Color::White };
        if mover != expected_mover {
            return Err(format!("move {} ({name}): {mover} to move, expected {expected_mover}", i + 1));
        }
        pos = pos.play(HexMove::Place(cell)).map_err(|e| format!("move {} ({name}): {e}", i + 1))?;
        groups.add(cell, mover);
        let want = (i == last).then_some(game.winner.color());
        for (method, got) in
            [("flood fill", pos.winner()), ("board", pos.board().winner()), ("union-find", groups.winner())]
        {
            if got != want {
                return Err(format!(
                    "after move {} ({name}), {method}: winner {got:?}, expected {want:?}",
                    i + 1
                ));
            }
        }
    }
    if game.winner.color() != pos.to_move().opponent() {
        return Err(format!("the winner {:?} did not make the last move", game.winner));
    }
    Ok(())
}

#[test]
fn every_game_replays_with_both_win_detectors() {
    let (games, is_default) = load_games();
    let mut failures = Vec::new();
    for (line_no, game) in &games {
        if let Err(e) = replay(game) {
            failures.push(format!("line {line_no} ({}x{}): {e}", game.size, game.size));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} games failed:\n{}",
        failures.len(),
        games.len(),
        failures.join("\n")
    );
    if is_default {
        assert_eq!(games.len(), 480);
        let mut per_size = BTreeMap::new();
        for (_, game) in &games {
            *per_size.entry(game.size).or_insert(0) += 1;
        }
        assert_eq!(per_size, [2, 3, 4, 5, 7, 9, 11, 13].into_iter().map(|n| (n, 60)).collect());
    }
}

#[test]
fn a_malformed_line_is_named() {
    let text =
        "{\"size\": 2, \"moves\": [\"a1\", \"a2\", \"b1\", \"b2\"], \"winner\": \"white\"}\n{\"size\": 2}\n";
    let err = parse_games(text, "games.jsonl").unwrap_err();
    assert!(err.starts_with("games.jsonl:2: "), "{err}");
    let game = |moves: &[&str], winner| Game {
        size: 2,
        moves: moves.iter().map(|m| m.to_string()).collect(),
        winner,
    };
    let off_board = replay(&game(&["c1", "a1", "a2"], Winner::Black)).unwrap_err();
    assert!(off_board.contains("move 1") && off_board.contains("2x2"), "{off_board}");
    let occupied = replay(&game(&["a1", "a1"], Winner::Black)).unwrap_err();
    assert!(occupied.contains("occupied"), "{occupied}");
    let early = replay(&game(&["a1", "b1", "a2", "b2"], Winner::White)).unwrap_err();
    assert!(early.contains("after move 3"), "{early}");
    let wrong = replay(&game(&["a1", "b1", "a2"], Winner::White)).unwrap_err();
    assert!(wrong.contains("after move 3"), "{wrong}");
}

/// The solved-openings file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolvedOpenings {
    #[allow(dead_code)]
    about: String,
    winning_openings: BTreeMap<u8, Vec<String>>,
}

/// The winning first moves of each size in the file, as cells.
fn solved_openings() -> BTreeMap<u8, BTreeSet<Cell>> {
    let text = std::fs::read_to_string(SOLVED_OPENINGS).expect("read the solved openings");
    let file: SolvedOpenings = serde_json::from_str(&text).expect("parse the solved openings");
    file.winning_openings
        .into_iter()
        .map(|(n, names)| {
            let cells: BTreeSet<Cell> = names
                .iter()
                .map(|name| parse_cell(name, n).unwrap_or_else(|e| panic!("{n}x{n}: {e}")))
                .collect();
            assert_eq!(cells.len(), names.len(), "{n}x{n}: a repeated opening");
            (n, cells)
        })
        .collect()
}

#[test]
fn solved_openings_are_symmetric_under_a_half_turn() {
    let openings = solved_openings();
    let counts: Vec<(u8, usize)> = openings.iter().map(|(&n, set)| (n, set.len())).collect();
    assert_eq!(counts, [(2, 2), (3, 5), (4, 4), (5, 13), (6, 24), (7, 27), (8, 32)]);
    for (&n, set) in &openings {
        let turned: BTreeSet<Cell> = set.iter().map(|c| Cell::new(n - 1 - c.row, n - 1 - c.col)).collect();
        assert_eq!(&turned, set, "{n}x{n}");
    }
}

/// The empty cells where a stone of `color` would connect its two edges: those touching (or on)
/// both the first edge and the second, counting the stones of `color` already joined to an edge
/// as part of it.
fn winning_cells(board: &Board, color: Color) -> Vec<Cell> {
    let n = board.size();
    let on_edge = |cell: Cell, far: bool| {
        let line = if color == Color::Black { cell.row } else { cell.col };
        line == if far { n - 1 } else { 0 }
    };
    // The stones of `color` joined to one edge, by a breadth-first search from it.
    let joined = |far: bool| {
        let mut reached = vec![false; usize::from(n) * usize::from(n)];
        let mut queue: Vec<Cell> =
            board.cells().filter(|&c| on_edge(c, far) && board.get(c) == Some(color)).collect();
        for c in &queue {
            reached[c.id(n)] = true;
        }
        while let Some(cell) = queue.pop() {
            for next in cell.neighbours(n) {
                if board.get(next) == Some(color) && !reached[next.id(n)] {
                    reached[next.id(n)] = true;
                    queue.push(next);
                }
            }
        }
        reached
    };
    let (near, far) = (joined(false), joined(true));
    let touches = |cell: Cell, edge: bool, reached: &[bool]| {
        on_edge(cell, edge) || cell.neighbours(n).any(|c| reached[c.id(n)])
    };
    board.empty_cells().filter(|&c| touches(c, false, &near) && touches(c, true, &far)).collect()
}

/// Whether the side to move wins `pos` (a position nobody has won yet) with perfect play, by
/// negamax with a memo keyed by the Zobrist hash. A move that connects at once wins; otherwise,
/// if the opponent threatens to connect on two cells the position is lost, and on one cell that
/// cell is the only move worth trying. Cells nearer the centre are tried first (this solves all
/// sixteen 4×4 openings in about 130,000 calls, 2 s in a debug build).
fn side_to_move_wins(pos: &Position, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&known) = memo.get(&pos.hash()) {
        return known;
    }
    let board = pos.board();
    let me = pos.to_move();
    let wins = if !winning_cells(board, me).is_empty() {
        true
    } else {
        match winning_cells(board, me.opponent())[..] {
            [] => {
                // Four times the hex distance from the centre, which sits between cells on even sizes.
                let twice_centre = i32::from(board.size()) - 1;
                let mut empty: Vec<Cell> = board.empty_cells().collect();
                empty.sort_by_key(|c| {
                    let (dr, dc) = (2 * i32::from(c.row) - twice_centre, 2 * i32::from(c.col) - twice_centre);
                    dr.abs() + dc.abs() + (dr + dc).abs()
                });
                empty.iter().any(|&cell| !side_to_move_wins(&pos.play_unchecked(HexMove::Place(cell)), memo))
            }
            [only] => !side_to_move_wins(&pos.play_unchecked(HexMove::Place(only)), memo),
            _ => false,
        }
    };
    memo.insert(pos.hash(), wins);
    wins
}

/// The first moves that win for Black on the empty n×n board, by brute force.
fn winning_openings(n: u8) -> BTreeSet<Cell> {
    let start = Position::new(u32::from(n)).unwrap();
    let mut memo = HashMap::new();
    start
        .legal_moves()
        .into_iter()
        .filter_map(|mv| {
            let HexMove::Place(cell) = mv else { unreachable!("no swap without the swap rule") };
            let after = start.play_unchecked(mv);
            (after.winner().is_some() || !side_to_move_wins(&after, &mut memo)).then_some(cell)
        })
        .collect()
}

#[test]
fn small_boards_solve_to_the_published_openings() {
    let openings = solved_openings();
    for n in 2..=4 {
        let solved = winning_openings(n);
        let names =
            |set: &BTreeSet<Cell>| set.iter().map(|&c| move_name(HexMove::Place(c))).collect::<Vec<_>>();
        assert_eq!(names(&solved), names(&openings[&n]), "{n}x{n}");
    }
    // On 1×1 the only opening wins at once.
    assert_eq!(winning_openings(1), BTreeSet::from([Cell::new(0, 0)]));
}
