//! `cargo xtask hex-net-games`: self-play games kept whole for the convolutional move policy
//! ([`hex::net`]) and for the solver's labels ([`crate::hex_net_labels`]).
//!
//! The games are played by the engine's own MCTS player (the GTP defaults on a fixed number of
//! iterations, so that a seed gives the same games) from a random first stone. Each game is one
//! JSON line with its moves and, for every move the search chose, the visits of the root's
//! moves: the soft target the policy learns. Every tenth game is held out.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use hex::mcts::{MctsConfig, MctsPlayer, MctsReason};
use hex::{HexMove, Position};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// What `hex-net-games` plays.
#[derive(Clone, Debug)]
pub struct GamesOptions {
    /// Board sizes.
    pub sizes: Vec<u8>,
    /// Games per size.
    pub games: u64,
    /// Iterations per move of the self-play player.
    pub iterations: u64,
    /// The seed of the openings and the players.
    pub seed: u64,
    /// Threads playing games at once.
    pub threads: usize,
    /// The self-play player's convolutional policy ([`MctsConfig::net`]), if any: a network
    /// trained on earlier games makes a stronger teacher for the next.
    pub net: Option<&'static hex::net::PolicyNet>,
}

/// One self-play game: its size, its seed's game number, and every move with the root's visits
/// where the search chose it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetGame {
    /// The board's side.
    pub size: u8,
    /// The game's number within its size.
    pub game: u64,
    /// Whether the game is held out of training (every tenth).
    pub held_out: bool,
    /// The cells played, by [`hex::Cell::id`].
    pub moves: Vec<u16>,
    /// For each move, the root moves' visits `(cell id, visits)` when the search chose it;
    /// `None` for the random first stone, for moves that win or block at once, and where the
    /// knowledge proved the root before any visit.
    pub visits: Vec<Option<Vec<(u16, u32)>>>,
    /// For each move with visits, the mean result of each of those root moves for the side to
    /// move, in the same order (1.0 for a move proved to win, 0.0 for one proved to lose): the
    /// targets of the network's move values. Empty in files written before values were kept.
    #[serde(default)]
    pub values: Vec<Option<Vec<f32>>>,
}

/// Plays game `k` of `size`.
fn play_game(options: &GamesOptions, size: u8, k: u64) -> NetGame {
    // The same openings and seeds as hex-patterns' self-play.
    let (seed, first) = crate::hex_patterns::self_play_start(options.seed, size, k);
    let mut position = Position::new(u32::from(size)).expect("a board size the options checked");
    let settings = hex::gtp::Settings { seed, ..hex::gtp::Settings::default() };
    let mut player = MctsPlayer::new(MctsConfig {
        time: None,
        iterations: Some(options.iterations),
        net: options.net,
        ..settings.mcts_config()
    });
    let mut moves = vec![first.id(size) as u16];
    let mut visits = vec![None];
    let mut values = vec![None];
    position = position.play(HexMove::Place(first)).expect("an empty board takes any cell");
    while position.winner().is_none() {
        let (mv, reason) = player.decide(&position);
        let HexMove::Place(cell) = mv else { unreachable!("self-play without the swap rule") };
        let mover = position.to_move();
        let stats = match (reason, player.last_result()) {
            (MctsReason::Search, Some(result)) => Some(
                result
                    .moves
                    .iter()
                    .filter_map(|m| match m.mv {
                        HexMove::Place(c) if m.visits > 0 => {
                            let value = match m.winner {
                                Some(w) => f32::from(u8::from(w == mover.index())),
                                None => m.value as f32,
                            };
                            Some(((c.id(size) as u16, m.visits), value))
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            )
            // A root the knowledge proved at once has no visits.
            .filter(|visits| !visits.is_empty()),
            _ => None,
        };
        moves.push(cell.id(size) as u16);
        let (stats, root_values): (Option<Vec<_>>, Option<Vec<f32>>) = match stats {
            Some(pairs) => {
                let (v, q) = pairs.into_iter().unzip();
                (Some(v), Some(q))
            }
            None => (None, None),
        };
        visits.push(stats);
        values.push(root_values);
        position = position.play(mv).expect("the player plays legal moves");
    }
    NetGame { size, game: k, held_out: k % 10 == 9, moves, visits, values }
}

/// Plays the games and writes each as a JSON line to `out` as it ends (so a long run can be
/// read while it goes on); returns the number of games.
pub fn save_games(options: &GamesOptions, out: &Path) -> Result<usize, String> {
    if let Some(&bad) = options.sizes.iter().find(|&&s| !(3..=hex::MAX_SIZE).contains(&s)) {
        return Err(format!("board sizes go from 3 to {}, not {bad}", hex::MAX_SIZE));
    }
    let jobs: Vec<(u8, u64)> =
        (0..options.games).flat_map(|k| options.sizes.iter().map(move |&size| (size, k))).collect();
    write_lines(&jobs, options.threads, out, |&(size, k)| vec![play_game(options, size, k)])
}

/// Runs `work` on each job on `threads` threads and writes what it returns to `out`, one JSON
/// line per item, as each job ends (so a long run can be read while it goes on); returns the
/// number of lines.
pub(crate) fn write_lines<J: Sync, T: Serialize>(
    jobs: &[J],
    threads: usize,
    out: &Path,
    work: impl Fn(&J) -> Vec<T> + Sync,
) -> Result<usize, String> {
    let cannot = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    let file = Mutex::new(std::fs::File::create(out).map_err(cannot)?);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let items = work(job);
                let mut file = file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                for item in &items {
                    writeln!(file, "{}", serde_json::to_string(item).expect("a line serialises"))
                        .map_err(cannot)?;
                }
                Ok(items.len())
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    })
}

/// Reads the games of `paths` (JSON lines of [`NetGame`]).
pub fn load_games(paths: &[PathBuf]) -> Result<Vec<NetGame>, String> {
    let mut games = Vec::new();
    for path in paths {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let game: NetGame = serde_json::from_str(line)
                .map_err(|e| format!("{}:{}: not a hex-net game: {e}", path.display(), i + 1))?;
            if game.moves.len() != game.visits.len() {
                return Err(format!("{}:{}: moves and visits differ in length", path.display(), i + 1));
            }
            let aligned = game.values.is_empty()
                || (game.values.len() == game.moves.len()
                    && game.values.iter().zip(&game.visits).all(|(q, v)| match (q, v) {
                        (Some(q), Some(v)) => q.len() == v.len() && q.iter().all(|x| (0.0..=1.0).contains(x)),
                        (None, None) => true,
                        _ => false,
                    }));
            if !aligned {
                return Err(format!(
                    "{}:{}: values must follow the visits, one mean in [0, 1] per visited move",
                    path.display(),
                    i + 1
                ));
            }
            games.push(game);
        }
    }
    Ok(games)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use hex::Cell;

    /// A fresh folder for one test's files.
    pub(crate) fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-hex-net-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Small self-play games on 4x4 and 5x5.
    pub(crate) fn options(seed: u64) -> GamesOptions {
        GamesOptions { sizes: vec![4, 5], games: 10, iterations: 60, seed, threads: 2, net: None }
    }

    #[test]
    fn games_replay_to_their_end_and_repeat_for_a_seed() {
        let dir = scratch("games");
        let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
        assert_eq!(save_games(&options(3), &a), Ok(20));
        save_games(&options(3), &b).unwrap();
        let sorted = |path: &Path| {
            let mut games = load_games(&[path.to_path_buf()]).unwrap();
            games.sort_by_key(|g| (g.size, g.game));
            games
        };
        let games = sorted(&a);
        assert_eq!(games, sorted(&b), "the same seed gives the same games");
        assert_ne!(games, {
            save_games(&options(4), &b).unwrap();
            sorted(&b)
        });
        for game in &games {
            assert_eq!(game.held_out, game.game % 10 == 9);
            assert!(game.visits[0].is_none(), "the first stone is drawn, not searched");
            let mut position = Position::new(u32::from(game.size)).unwrap();
            assert_eq!(game.values.len(), game.moves.len());
            for (k, (&mv, visits)) in game.moves.iter().zip(&game.visits).enumerate() {
                let cell = Cell::from_id(usize::from(mv), game.size);
                if let Some(visits) = visits {
                    let values = game.values[k].as_ref().expect("values beside visits");
                    assert_eq!(values.len(), visits.len());
                    assert!(values.iter().all(|q| (0.0..=1.0).contains(q)));
                    // Visits are of empty cells, and the move played is the search's choice.
                    assert!(visits.iter().all(|&(id, _)| {
                        position.board().get(Cell::from_id(usize::from(id), game.size)).is_none()
                    }));
                    assert!(
                        visits.iter().any(|&(id, _)| id == mv),
                        "game {} move {k}: {mv} not in {visits:?}",
                        game.game
                    );
                }
                assert!(position.winner().is_none());
                position = position.play(HexMove::Place(cell)).unwrap();
            }
            assert!(position.winner().is_some(), "a game is played to its end");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_games_files_are_refused_with_their_line() {
        let dir = scratch("bad");
        let path = dir.join("bad.jsonl");
        std::fs::write(
            &path,
            "{\"size\":5,\"game\":0,\"held_out\":false,\"moves\":[1,2],\"visits\":[null]}\n",
        )
        .unwrap();
        let err = load_games(std::slice::from_ref(&path)).unwrap_err();
        assert!(err.contains("bad.jsonl:1") && err.contains("differ"), "{err}");
        std::fs::write(
            &path,
            "{\"size\":5,\"game\":0,\"held_out\":false,\"moves\":[1,2],\"visits\":[null,[[3,4]]],\"values\":[null,[1.5]]}\n",
        )
        .unwrap();
        let err = load_games(std::slice::from_ref(&path)).unwrap_err();
        assert!(err.contains("bad.jsonl:1") && err.contains("values"), "{err}");
        std::fs::write(&path, "\n{\"size\":5}\n").unwrap();
        let err = load_games(std::slice::from_ref(&path)).unwrap_err();
        assert!(err.contains("bad.jsonl:2"), "{err}");
        assert!(load_games(&[dir.join("missing.jsonl")]).unwrap_err().contains("cannot read"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
