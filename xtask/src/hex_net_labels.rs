//! `cargo xtask hex-net-labels`: exact move values for the network's value head, from the
//! solver.
//!
//! A search's mean results are squeezed towards ½ by its playouts, so a value head trained on
//! them learns little (session 72 of docs/benzene.md). The exact solver gives sharper targets
//! where it reaches: for each game of a `hex-net-games` file it solves the positions from the
//! last one backwards, within a node limit each (so that the labels do not depend on the
//! machine's speed), until one it cannot decide, as `hex-decided` does. The positions nearest
//! to that border are the ones a search meets before any proof, so only the first
//! [`LabelOptions::keep`] of them are labelled, starting one ply before the border:
//!
//! - the move played there gets the result of the position it led to (1 if the mover won it,
//!   0 if not), even in the unproved position just before the border;
//! - in a position lost for the side to move, every empty cell gets 0 (every move loses);
//! - in a position won for the side to move, the solver's winning move gets 1.
//!
//! Each labelled position is one JSON line of [`Labelled`]: the stones in order, and the
//! labelled moves. `hex-net --labels FILE` trains the value head on them.

use std::path::{Path, PathBuf};

use hex::solver::{MAX_SOLVER_SIZE, Solver, SolverConfig, Verdict};
use hex::{Cell, Color, HexMove, Position};
use serde::{Deserialize, Serialize};

use crate::hex_net_games::NetGame;

/// What `hex-net-labels` solves.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    /// The solver's node limit per position.
    pub nodes: u64,
    /// The solver's table, `2^table_bits` entries of 80 bytes (one table per thread).
    pub table_bits: u32,
    /// Positions labelled per game, from one ply before the first proved position on.
    pub keep: usize,
    /// Threads solving games at once.
    pub threads: usize,
}

/// One labelled position: the stones in order (Black first) and moves from it with their
/// exact values for the side to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Labelled {
    /// The board's side.
    pub size: u8,
    /// Whether the game it comes from is held out of training.
    pub held_out: bool,
    /// The stones on the board, in the order played, by [`Cell::id`].
    pub moves: Vec<u16>,
    /// Empty cells `(cell id, value)`: 1 if the side to move wins after playing there, 0 if
    /// it loses.
    pub values: Vec<(u16, f32)>,
}

impl Labelled {
    /// The position, and the last stone played (the network's input needs both).
    pub fn position(&self) -> Result<(Position, Option<Cell>), String> {
        let mut position = Position::new(u32::from(self.size)).map_err(|e| e.to_string())?;
        let mut last = None;
        for &id in &self.moves {
            let cell = cell_of(id, self.size)
                .ok_or_else(|| format!("cell id {id} is off a {0}x{0} board", self.size))?;
            position = position.play(HexMove::Place(cell)).map_err(|e| e.to_string())?;
            last = Some(cell);
        }
        Ok((position, last))
    }
}

/// The cell of id `id` on a `size`×`size` board, if there is one.
fn cell_of(id: u16, size: u8) -> Option<Cell> {
    let id = usize::from(id);
    (id < usize::from(size) * usize::from(size)).then(|| Cell::from_id(id, size))
}

/// The labelled positions of one game (see the [module docs](self)).
pub fn label_game(game: &NetGame, options: &LabelOptions) -> Vec<Labelled> {
    let config = SolverConfig {
        max_nodes: Some(options.nodes),
        table_bits: options.table_bits,
        threads: 1,
        ..SolverConfig::default()
    };
    let mut solver = Solver::new(config);
    let size = game.size;
    let mut positions = Vec::with_capacity(game.moves.len() + 1);
    let mut position = Position::new(u32::from(size)).expect("a size that was played");
    positions.push(position);
    for &id in &game.moves {
        position = position.play(HexMove::Place(Cell::from_id(usize::from(id), size))).expect("legal moves");
        positions.push(position);
    }
    // verdicts[k]: the winner after k stones and, if it is the side to move, a winning move;
    // from the end back to the first position the solver cannot decide.
    let n = game.moves.len();
    let mut verdicts: Vec<Option<(Color, Option<Cell>)>> = vec![None; n + 1];
    let mut first = n + 1;
    for k in (1..=n).rev() {
        let verdict = match positions[k].winner() {
            Some(winner) => Some((winner, None)),
            None => match solver.solve(&positions[k]) {
                Ok(solution) => match solution.verdict {
                    Verdict::Win { winner, winning_move } => Some((winner, winning_move)),
                    Verdict::Unknown(_) => None,
                },
                Err(_) => None,
            },
        };
        match verdict {
            Some(v) => {
                verdicts[k] = Some(v);
                first = k;
            }
            None => break,
        }
    }
    let mut out = Vec::new();
    // The labelled plies: one before the border (its played move's value is known), then the
    // proved positions, never the empty board or the finished game.
    for k in first.saturating_sub(1).max(1)..n {
        if out.len() == options.keep {
            break;
        }
        let me = positions[k].to_move();
        let Some((after, _)) = verdicts[k + 1] else { continue };
        let played = game.moves[k];
        let mut values = vec![(played, f32::from(u8::from(after == me)))];
        match verdicts[k] {
            Some((winner, _)) if winner != me => {
                values.extend(
                    positions[k]
                        .board()
                        .empty_cells()
                        .map(|c| c.id(size) as u16)
                        .filter(|&id| id != played)
                        .map(|id| (id, 0.0)),
                );
            }
            Some((_, Some(win))) if win.id(size) as u16 != played => values.push((win.id(size) as u16, 1.0)),
            _ => {}
        }
        out.push(Labelled { size, held_out: game.held_out, moves: game.moves[..k].to_vec(), values });
    }
    out
}

/// Labels every game of `games` and writes each labelled position as a JSON line to `out` as
/// its game ends; returns the number of positions.
pub fn save_labels(games: &[NetGame], options: &LabelOptions, out: &Path) -> Result<usize, String> {
    if let Some(game) = games.iter().find(|g| g.size > MAX_SOLVER_SIZE) {
        return Err(format!(
            "game {} is {2}x{2}; the solver takes boards up to {1}x{1}",
            game.game, MAX_SOLVER_SIZE, game.size
        ));
    }
    crate::hex_net_games::write_lines(games, options.threads, out, |game| label_game(game, options))
}

/// Reads labelled positions (JSON lines of [`Labelled`]), checking that each replays and that
/// its values are of empty cells and in `[0, 1]`.
pub fn load_labels(paths: &[PathBuf]) -> Result<Vec<Labelled>, String> {
    let mut labels = Vec::new();
    for path in paths {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = |why: String| format!("{}:{}: {why}", path.display(), i + 1);
            let labelled: Labelled =
                serde_json::from_str(line).map_err(|e| at(format!("not a hex-net label: {e}")))?;
            if !(1..=hex::MAX_SIZE).contains(&labelled.size) {
                return Err(at(format!("no {0}x{0} board", labelled.size)));
            }
            let (position, _) = labelled.position().map_err(at)?;
            if position.winner().is_some() {
                return Err(at("the game is over in that position".to_string()));
            }
            for &(id, value) in &labelled.values {
                let empty = cell_of(id, labelled.size).is_some_and(|c| position.board().get(c).is_none());
                if !empty || !(0.0..=1.0).contains(&value) {
                    return Err(at(format!("({id}, {value}) is not an empty cell with a value in [0, 1]")));
                }
            }
            labels.push(labelled);
        }
    }
    Ok(labels)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::hex_net_games::tests::{options, scratch};
    use crate::hex_net_games::{GamesOptions, load_games, save_games};

    /// Small games, written to a folder of their own for each test (tests run at once).
    fn games(test: &str) -> Vec<NetGame> {
        let path = scratch(test).join("games.jsonl");
        save_games(&GamesOptions { sizes: vec![5, 6], games: 6, ..options(8) }, &path).unwrap();
        let mut games = load_games(&[path]).unwrap();
        games.sort_by_key(|g| (g.size, g.game));
        games
    }

    pub(crate) fn label_options(nodes: u64, keep: usize) -> LabelOptions {
        LabelOptions { nodes, table_bits: 14, keep, threads: 2 }
    }

    #[test]
    fn every_label_is_the_exact_result_of_its_move() {
        let mut exact = Solver::new(SolverConfig { table_bits: 16, ..SolverConfig::default() });
        let mut labelled = 0;
        let mut lost_positions = 0;
        for game in games("labels-exact") {
            let labels = label_game(&game, &label_options(1_000_000, 4));
            assert!(
                !labels.is_empty() && labels.len() <= 4,
                "game {}: {} positions",
                game.game,
                labels.len()
            );
            for (i, label) in labels.iter().enumerate() {
                assert_eq!((label.size, label.held_out), (game.size, game.held_out));
                assert_eq!(label.moves[..], game.moves[..label.moves.len()], "a position of the game");
                let (position, _) = label.position().unwrap();
                assert!(position.winner().is_none());
                if i > 0 {
                    assert_eq!(label.moves.len(), labels[i - 1].moves.len() + 1, "consecutive plies");
                }
                let played = game.moves[label.moves.len()];
                assert_eq!(label.values[0].0, played, "the move played comes first");
                let me = position.to_move();
                for &(id, value) in &label.values {
                    let child =
                        position.play(HexMove::Place(Cell::from_id(usize::from(id), game.size))).unwrap();
                    let winner =
                        child.winner().or_else(|| exact.solve(&child).unwrap().verdict.winner()).unwrap();
                    assert_eq!(value, f32::from(u8::from(winner == me)), "{label:?}, cell {id}");
                    labelled += 1;
                }
                if label.values.len() > 2 {
                    lost_positions += 1;
                    assert_eq!(
                        label.values.len(),
                        position.board().empty_cells().count(),
                        "every move of a lost position"
                    );
                }
            }
        }
        assert!(labelled > 20 && lost_positions > 0, "{labelled} labels, {lost_positions} lost positions");
    }

    #[test]
    fn a_smaller_node_limit_labels_later_positions_and_the_labels_repeat() {
        let games = games("labels-save");
        let dir = scratch("labels-save");
        let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
        let sorted = |path: &Path| {
            let mut labels = load_labels(&[path.to_path_buf()]).unwrap();
            labels.sort_by(|x, y| (x.size, &x.moves).cmp(&(y.size, &y.moves)));
            labels
        };
        let n = save_labels(&games, &label_options(200, 3), &a).unwrap();
        save_labels(&games, &label_options(200, 3), &b).unwrap();
        assert_eq!(sorted(&a), sorted(&b), "a node limit gives the same labels on any run");
        assert_eq!(sorted(&a).len(), n);
        let deep = games.iter().map(|g| label_game(g, &label_options(1_000_000, 3))).collect::<Vec<_>>();
        let shallow = games.iter().map(|g| label_game(g, &label_options(200, 3))).collect::<Vec<_>>();
        let first = |labels: &[Labelled]| labels.first().map_or(usize::MAX, |l| l.moves.len());
        assert!(deep.iter().zip(&shallow).all(|(d, s)| first(d) <= first(s)));
        assert!(deep.iter().zip(&shallow).any(|(d, s)| first(d) < first(s)), "200 nodes reach less far back");
        let too_large = NetGame { size: 13, ..games[0].clone() };
        assert!(save_labels(&[too_large], &label_options(200, 3), &a).unwrap_err().contains("up to 11x11"));
    }

    #[test]
    fn bad_labels_are_refused_with_their_line() {
        let path = scratch("labels-bad").join("bad.jsonl");
        let good = r#"{"size":5,"held_out":false,"moves":[12,7],"values":[[8,1.0],[0,0.0]]}"#;
        std::fs::write(&path, format!("{good}\n")).unwrap();
        let labels = load_labels(std::slice::from_ref(&path)).unwrap();
        assert_eq!(labels[0].values, vec![(8, 1.0), (0, 0.0)]);
        assert_eq!(labels[0].position().unwrap().1, Some(Cell::from_id(7, 5)), "the last stone");
        for (bad, why) in [
            (r#"{"size":5,"held_out":false,"moves":[12,7],"values":[[7,1.0]]}"#, "not an empty cell"),
            (r#"{"size":5,"held_out":false,"moves":[12,7],"values":[[25,1.0]]}"#, "not an empty cell"),
            (r#"{"size":5,"held_out":false,"moves":[12,7],"values":[[8,1.5]]}"#, "in [0, 1]"),
            (r#"{"size":5,"held_out":false,"moves":[12,40],"values":[]}"#, "off a 5x5 board"),
            (r#"{"size":5,"held_out":false,"moves":[12,12],"values":[]}"#, "is occupied"),
            (r#"{"size":0,"held_out":false,"moves":[],"values":[]}"#, "no 0x0 board"),
            (r#"{"size":3,"held_out":false,"moves":[0,1,3,2,6],"values":[]}"#, "the game is over"),
            ("{\"size\":5}", "not a hex-net label"),
        ] {
            std::fs::write(&path, format!("{good}\n{bad}\n")).unwrap();
            let err = load_labels(std::slice::from_ref(&path)).unwrap_err();
            assert!(err.contains(why) && err.contains(":2:"), "{bad}: {err}");
        }
    }
}
