//! The exact solver against the published opening tables and against a brute-force negamax.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use hex::solver::{Analysis, Connections, Endpoint, Limit, SolveError, Solver, SolverConfig, Verdict};
use hex::{Cell, Color, HexMove, Position, parse_cell};
use proptest::prelude::*;

/// The winning openings of the data file, by board size.
fn table() -> HashMap<u32, Vec<Cell>> {
    #[derive(serde::Deserialize)]
    struct File {
        winning_openings: HashMap<String, Vec<String>>,
    }
    let text = include_str!("data/hex-solved-openings.json");
    let file: File = serde_json::from_str(text).expect("the opening table parses");
    file.winning_openings
        .into_iter()
        .map(|(size, cells)| {
            let n: u32 = size.parse().unwrap();
            let mut cells: Vec<Cell> = cells.iter().map(|c| parse_cell(c, n as u8).unwrap()).collect();
            cells.sort();
            (n, cells)
        })
        .collect()
}

fn check_map(size: u32) {
    let mut solver = Solver::new(SolverConfig::default());
    let map = solver.opening_map(size).unwrap();
    assert!(map.is_complete());
    assert_eq!(map.winning_cells(), table()[&size], "{size}x{size}:\n{map}");
}

#[test]
fn opening_maps_2_to_4_match_the_table() {
    for size in 2..=4 {
        check_map(size);
    }
}

#[test]
fn opening_map_5_matches_the_table() {
    check_map(5);
}

/// Who wins with the side to move, by plain negamax over every move: no table, no pruning.
fn brute_force_wins(pos: &Position) -> bool {
    pos.legal_moves().into_iter().any(|mv| {
        let next = pos.play_unchecked(mv);
        next.winner().is_some() || !brute_force_wins(&next)
    })
}

/// A position of side `size` after playing `moves` (cell ids, taken modulo the empty cells),
/// stopping before a move that would end the game.
fn random_position(size: u32, moves: &[usize]) -> Position {
    let mut pos = Position::new(size).unwrap();
    for &m in moves {
        let empty: Vec<HexMove> = pos.legal_moves();
        let next = pos.play_unchecked(empty[m % empty.len()]);
        if next.winner().is_some() {
            break;
        }
        pos = next;
    }
    pos
}

/// Every move that wins for the side to move, in legal-move order, by brute force.
fn brute_force_winning_moves(pos: &Position) -> Vec<HexMove> {
    pos.legal_moves()
        .into_iter()
        .filter(|&mv| {
            let next = pos.play_unchecked(mv);
            next.winner().is_some() || !brute_force_wins(&next)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn solver_agrees_with_brute_force(size in 2u32..=4, moves in proptest::collection::vec(0usize..16, 0..14)) {
        let pos = random_position(size, &moves);
        // Plain negamax from a nearly empty 4x4 board takes too long: keep at most 8 empty cells.
        prop_assume!(size < 4 || pos.board().stones_on_board() >= 8);
        let mut solver = Solver::new(SolverConfig { table_bits: 10, ..SolverConfig::default() });
        let solution = solver.solve(&pos).unwrap();
        let mover_wins = brute_force_wins(&pos);
        let winner = if mover_wins { pos.to_move() } else { pos.to_move().opponent() };
        prop_assert_eq!(solution.verdict.winner(), Some(winner));
        if let Verdict::Win { winning_move: Some(cell), .. } = solution.verdict {
            let next = pos.play(HexMove::Place(cell)).unwrap();
            prop_assert!(next.winner().is_some() || !brute_force_wins(&next));
        }
        prop_assert_eq!(solver.winning_moves(&pos).unwrap(), brute_force_winning_moves(&pos));
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Late 5x5 positions (at most 8 empty cells) have room for dead and captured cells near
    /// every edge, so they exercise the fill-in that the search applies after each move.
    #[test]
    fn solver_agrees_with_brute_force_on_late_5x5(moves in proptest::collection::vec(0usize..25, 17..24)) {
        let pos = random_position(5, &moves);
        prop_assume!(pos.board().stones_on_board() >= 17);
        let mut solver = Solver::new(SolverConfig { table_bits: 10, ..SolverConfig::default() });
        let mover_wins = brute_force_wins(&pos);
        let winner = if mover_wins { pos.to_move() } else { pos.to_move().opponent() };
        prop_assert_eq!(solver.solve(&pos).unwrap().verdict.winner(), Some(winner));
        prop_assert_eq!(solver.winning_moves(&pos).unwrap(), brute_force_winning_moves(&pos));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn answers_do_not_depend_on_the_table_size(moves in proptest::collection::vec(0usize..25, 4..10)) {
        let pos = random_position(5, &moves);
        let mut answers = Vec::new();
        for table_bits in [1, 4, 16] {
            let mut solver = Solver::new(SolverConfig { table_bits, ..SolverConfig::default() });
            answers.push((solver.solve(&pos).unwrap().verdict.winner(), solver.winning_moves(&pos).unwrap()));
        }
        prop_assert_eq!(&answers[0], &answers[1]);
        prop_assert_eq!(&answers[1], &answers[2]);
    }
}

#[test]
fn semi_connections_off_gives_the_same_answers() {
    let config = SolverConfig { semi_connections: false, h_search: false, ..SolverConfig::default() };
    let map = Solver::new(config).opening_map(4).unwrap();
    assert_eq!(map.winning_cells(), table()[&4]);
}

#[test]
fn h_search_off_gives_the_same_answers() {
    let config = SolverConfig { h_search: false, ..SolverConfig::default() };
    let map = Solver::new(config).opening_map(5).unwrap();
    assert_eq!(map.winning_cells(), table()[&5]);
}

#[test]
fn limits_give_unknown_not_a_wrong_answer() {
    let config = SolverConfig { max_nodes: Some(5), ..SolverConfig::default() };
    let mut solver = Solver::new(config);
    let pos = Position::new(6).unwrap();
    assert_eq!(solver.solve(&pos).unwrap().verdict, Verdict::Unknown(Limit::Nodes));
    assert_eq!(solver.winning_moves(&pos), Err(SolveError::Unknown(Limit::Nodes)));
    let timed = SolverConfig { time_limit: Some(std::time::Duration::ZERO), ..SolverConfig::default() };
    let verdict = Solver::new(timed).solve(&Position::new(7).unwrap()).unwrap().verdict;
    assert!(matches!(verdict, Verdict::Unknown(Limit::Time) | Verdict::Win { winner: Color::Black, .. }));
}

#[test]
fn bad_positions_are_errors() {
    let mut solver = Solver::new(SolverConfig::default());
    let mut pos = Position::new(2).unwrap();
    for cell in [Cell::new(0, 0), Cell::new(0, 1), Cell::new(1, 0)] {
        pos = pos.play(HexMove::Place(cell)).unwrap();
    }
    assert_eq!(solver.solve(&pos), Err(SolveError::GameOver(Color::Black)));
    assert_eq!(solver.solve(&Position::new(12).unwrap()), Err(SolveError::TooLarge(12)));
    let swap = Position::with_swap(3, true).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
    assert_eq!(solver.solve(&swap), Err(SolveError::SwapAvailable));
    assert!(solver.opening_map(0).is_err());
}

#[test]
fn winning_openings_are_symmetric_under_rotation() {
    let map = Solver::new(SolverConfig::default()).opening_map(4).unwrap();
    let wins = map.winning_cells();
    for c in &wins {
        assert!(wins.contains(&Cell::new(3 - c.row, 3 - c.col)));
    }
}

#[test]
fn threaded_maps_match_the_table_and_copy_rotations() {
    let config = SolverConfig { table_bits: 14, ..SolverConfig::default() };
    let seen = std::sync::Mutex::new(Vec::new());
    let map = Solver::opening_map_threads(config, 5, 2, |o| seen.lock().unwrap().push(o.cell)).unwrap();
    assert!(map.is_complete());
    assert_eq!(map.winning_cells(), table()[&5]);
    // Every opening reported once; the searched ones are the first of each rotation pair (and
    // the centre), the others cost nothing and carry the rotated winning reply.
    let mut seen = seen.into_inner().unwrap();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 25);
    for o in map.openings() {
        let twin = Cell::new(4 - o.cell.row, 4 - o.cell.col);
        if o.cell > twin {
            assert_eq!(o.stats.nodes, 0, "{:?}", o.cell);
            let original = map.openings().iter().find(|p| p.cell == twin).unwrap();
            assert_eq!(o.black_wins(), original.black_wins());
            if let (Verdict::Win { winning_move: Some(a), .. }, Verdict::Win { winning_move: Some(b), .. }) =
                (o.verdict, original.verdict)
            {
                assert_eq!(a, Cell::new(4 - b.row, 4 - b.col));
            }
        } else {
            assert!(o.stats.nodes > 0, "{:?}", o.cell);
        }
    }
    // One thread and a bad size.
    let one = Solver::opening_map_threads(config, 4, 1, |_| {}).unwrap();
    assert_eq!(one.winning_cells(), table()[&4]);
    assert!(Solver::opening_map_threads(config, 0, 2, |_| {}).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The parallel solver (two and three threads on one table) names the same winner as one
    /// thread, and its winning move wins: the opponent loses after it, by the one-thread
    /// solver. Random 5x5 and 6x6 positions with a few stones, where the threads race.
    #[test]
    fn threads_agree_with_one_thread(size in 5u32..=6, moves in proptest::collection::vec(0usize..36, 2..8)) {
        let pos = random_position(size, &moves);
        prop_assume!(pos.winner().is_none());
        let one = SolverConfig { table_bits: 14, ..SolverConfig::default() };
        let alone = Solver::new(one).solve(&pos).unwrap().verdict;
        for threads in [2, 3] {
            let verdict = Solver::new(SolverConfig { threads, ..one }).solve(&pos).unwrap().verdict;
            prop_assert_eq!(verdict.winner(), alone.winner(), "{} threads", threads);
            if let Verdict::Win { winning_move: Some(cell), winner } = verdict {
                prop_assert_eq!(winner, pos.to_move());
                let next = pos.play(HexMove::Place(cell)).unwrap();
                if next.winner().is_none() {
                    let reply = Solver::new(one).solve(&next).unwrap().verdict;
                    prop_assert_eq!(reply.winner(), Some(winner), "{:?} does not win", cell);
                }
            }
        }
    }
}

#[test]
fn threads_stop_at_the_limits_with_unknown() {
    let config = SolverConfig { max_nodes: Some(20), threads: 2, ..SolverConfig::default() };
    let solution = Solver::new(config).solve(&Position::new(7).unwrap()).unwrap();
    assert_eq!(solution.verdict, Verdict::Unknown(Limit::Nodes));
    // The limit counts the nodes of both threads together (each may finish its node).
    assert!(solution.stats.nodes <= 24, "{} nodes", solution.stats.nodes);
    let timed =
        SolverConfig { time_limit: Some(std::time::Duration::ZERO), threads: 2, ..SolverConfig::default() };
    let verdict = Solver::new(timed).solve(&Position::new(7).unwrap()).unwrap().verdict;
    assert!(matches!(verdict, Verdict::Unknown(Limit::Time) | Verdict::Win { winner: Color::Black, .. }));
}

#[test]
fn threads_solve_the_5x5_openings_like_the_table() {
    let config = SolverConfig { table_bits: 14, threads: 2, ..SolverConfig::default() };
    let mut solver = Solver::new(config);
    let map = solver.opening_map(5).unwrap();
    assert_eq!(map.winning_cells(), table()[&5]);
    // The same solver keeps its table: a second solve of an opening is a table hit at once.
    let pos = Position::new(5).unwrap().play(HexMove::Place(Cell::new(2, 2))).unwrap();
    let again = solver.solve(&pos).unwrap();
    assert_eq!(again.verdict.winner(), Some(Color::Black));
    assert!(again.stats.nodes <= 2, "{} nodes", again.stats.nodes);
}

/// The solver's strategies, played against every reply: the empty boards up to 4x4, every
/// 4x4 opening, and late 5x5 positions, each line ending in the winner's connection.
#[test]
fn proofs_check_out_against_every_reply() {
    use hex::solver::check_solver;
    let mut solver = Solver::new(SolverConfig { table_bits: 16, ..SolverConfig::default() });
    let mut checked = 0;
    for size in 1..=4 {
        let empty = Position::new(size).unwrap();
        let proof = check_solver(&mut solver, &empty, 200_000).unwrap();
        assert_eq!(proof.winner, Color::Black, "{size}x{size}");
        checked += proof.positions;
    }
    let wins = table()[&4].clone();
    for cell in Position::new(4).unwrap().board().cells() {
        let opening = Position::new(4).unwrap().play(HexMove::Place(cell)).unwrap();
        let proof = check_solver(&mut solver, &opening, 200_000).unwrap();
        assert_eq!(proof.winner == Color::Black, wins.contains(&cell), "4x4 {cell:?}");
        checked += proof.positions;
    }
    for seed in 0..12usize {
        let moves: Vec<usize> = (0..12).map(|i| (seed * 7919 + i * 104_729) % 97).collect();
        let pos = random_position(5, &moves);
        if pos.winner().is_none() {
            checked += check_solver(&mut solver, &pos, 200_000).unwrap().positions;
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

/// The checker catches a strategy that does not win: on 3x3 the first empty cell loses.
#[test]
fn the_checker_refuses_a_losing_strategy() {
    use hex::solver::{StrategyError, check_strategy};
    let pos = Position::new(3).unwrap();
    let first_empty = |p: &Position| p.board().empty_cells().next();
    let error = check_strategy(&pos, Color::Black, first_empty, 10_000).unwrap_err();
    assert!(matches!(error, StrategyError::LoserConnected { .. }), "{error}");
    // A strategy that gives an occupied cell is refused too, not played.
    let error = check_strategy(&pos, Color::Black, |_| Some(Cell::new(9, 9)), 10).unwrap_err();
    assert!(matches!(error, StrategyError::NoMove { .. }), "{error}");
    // And a tree larger than the limit is reported, not half-checked.
    let mut solver = Solver::new(SolverConfig::default());
    let big = hex::solver::check_solver(&mut solver, &Position::new(4).unwrap(), 3).unwrap_err();
    assert_eq!(big, StrategyError::TooBig(3));
}

/// Who wins `pos` with perfect play, by the solver.
fn winner(solver: &mut Solver, pos: &Position) -> Color {
    match solver.solve(pos).unwrap().verdict {
        Verdict::Win { winner, .. } => winner,
        Verdict::Unknown(limit) => panic!("no limit was set, yet {limit:?}"),
    }
}

/// Checks [`Solver::analyse`] on `pos` against the exact winning moves: a proved win or loss is
/// right, a named winning move wins, and the cells left open contain a winning move whenever
/// there is one (pruning never throws every win away).
fn check_analysis(solver: &mut Solver, pos: &Position, winning: &[HexMove]) -> Result<(), TestCaseError> {
    let empty: Vec<HexMove> = pos.legal_moves();
    match solver.analyse(pos).unwrap() {
        Analysis::Win { winning_move } => {
            prop_assert!(!winning.is_empty(), "a win claimed in a lost position");
            if let Some(cell) = winning_move {
                prop_assert!(winning.contains(&HexMove::Place(cell)), "{cell:?} does not win");
            }
        }
        Analysis::Loss { carrier } => {
            prop_assert!(winning.is_empty(), "a loss claimed in a won position");
            prop_assert!(carrier.iter().all(|c| empty.contains(&HexMove::Place(*c))));
        }
        Analysis::Open { moves, filled } => {
            prop_assert!(!moves.is_empty());
            prop_assert!(moves.iter().all(|c| empty.contains(&HexMove::Place(*c))));
            // The filled cells were empty, none is worth playing, and filling them changes
            // the winner for neither side to move.
            prop_assert!(filled.iter().all(|(c, _)| empty.contains(&HexMove::Place(*c))));
            prop_assert!(moves.iter().all(|c| filled.iter().all(|(f, _)| f != c)));
            let mut board = *pos.board();
            for &(cell, colour) in &filled {
                board.set(cell, Some(colour));
            }
            for to_move in [pos.to_move(), pos.to_move().opponent()] {
                let before = Position::from_board(*pos.board(), to_move);
                let after = Position::from_board(board, to_move);
                if before.winner().is_none() && after.winner().is_none() {
                    prop_assert_eq!(winner(solver, &before), winner(solver, &after), "{:?}", filled);
                }
            }
            if !winning.is_empty() {
                prop_assert!(
                    moves.iter().any(|c| winning.contains(&HexMove::Place(*c))),
                    "no winning move among {moves:?} (winning: {winning:?})"
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn analysis_never_prunes_every_winning_move(size in 3u32..=4, moves in proptest::collection::vec(0usize..16, 0..12)) {
        let pos = random_position(size, &moves);
        // Brute force is quick with at most nine empty cells.
        prop_assume!(pos.legal_moves().len() <= 9);
        let mut solver = Solver::new(SolverConfig { table_bits: 4, ..SolverConfig::default() });
        check_analysis(&mut solver, &pos, &brute_force_winning_moves(&pos))?;
    }

    #[test]
    fn analysis_of_5x5_middle_games_agrees_with_the_solver(moves in proptest::collection::vec(0usize..25, 6..16)) {
        let pos = random_position(5, &moves);
        let mut solver = Solver::new(SolverConfig { table_bits: 12, ..SolverConfig::default() });
        let winning = solver.winning_moves(&pos).unwrap();
        check_analysis(&mut solver, &pos, &winning)?;
    }
}

/// Checks [`Solver::inferior_cells`] on `pos` against its exact winning moves: the inferior
/// cells are empty cells, some cell stays, and a winning move stays whenever there is one.
/// With `dominated`, the same for [`Solver::inferior_and_dominated_cells`], which must drop
/// every cell [`Solver::inferior_cells`] drops.
fn check_inferior(
    solver: &mut Solver,
    pos: &Position,
    winning: &[HexMove],
    dominated: bool,
) -> Result<usize, TestCaseError> {
    let empty: Vec<Cell> = pos.board().empty_cells().collect();
    let inferior = if dominated {
        let plain = solver.inferior_cells(pos).unwrap();
        let more = solver.inferior_and_dominated_cells(pos).unwrap();
        prop_assert!(plain.iter().all(|c| more.contains(c)), "{plain:?} are not all among {more:?}");
        more
    } else {
        solver.inferior_cells(pos).unwrap()
    };
    prop_assert!(inferior.iter().all(|c| empty.contains(c)), "{inferior:?} are not all empty");
    prop_assert!(inferior.windows(2).all(|w| w[0] < w[1]), "{inferior:?} are not in cell order");
    prop_assert!(inferior.len() < empty.len(), "every cell of {empty:?} is inferior");
    let kept_wins = winning.iter().any(|mv| matches!(mv, HexMove::Place(c) if !inferior.contains(c)));
    prop_assert!(winning.is_empty() || kept_wins, "every winning move of {winning:?} is among {inferior:?}");
    Ok(inferior.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn inferior_cells_never_hold_every_winning_move(size in 3u32..=4, moves in proptest::collection::vec(0usize..16, 0..12)) {
        let pos = random_position(size, &moves);
        prop_assume!(pos.legal_moves().len() <= 9 && !pos.can_swap());
        let mut solver = Solver::new(SolverConfig { table_bits: 4, ..SolverConfig::default() });
        let winning = brute_force_winning_moves(&pos);
        check_inferior(&mut solver, &pos, &winning, false)?;
        check_inferior(&mut solver, &pos, &winning, true)?;
    }

    #[test]
    fn inferior_cells_of_6x6_middle_games_leave_a_win(moves in proptest::collection::vec(0usize..36, 8..20)) {
        let pos = random_position(6, &moves);
        prop_assume!(!pos.can_swap());
        let mut solver = Solver::new(SolverConfig { table_bits: 14, ..SolverConfig::default() });
        let winning = solver.winning_moves(&pos).unwrap();
        check_inferior(&mut solver, &pos, &winning, false)?;
        check_inferior(&mut solver, &pos, &winning, true)?;
    }
}

/// The quick rules drop something in most middle games, and a finished game is an error, as
/// for the solver's other calls.
#[test]
fn inferior_cells_are_found_in_middle_games_and_refused_after_the_end() {
    let mut solver = Solver::new(SolverConfig::default());
    let mut dropped = 0;
    for seed in 0..40usize {
        let moves: Vec<usize> = (0..16).map(|i| (seed * 31 + i * 17) % 49).collect();
        let pos = random_position(7, &moves);
        dropped += usize::from(!solver.inferior_cells(&pos).unwrap().is_empty());
    }
    assert!(dropped >= 20, "only {dropped} of 40 middle games had inferior cells");
    // Dominated cells add to them in most of those games.
    let mut more = 0;
    for seed in 0..40usize {
        let moves: Vec<usize> = (0..16).map(|i| (seed * 31 + i * 17) % 49).collect();
        let pos = random_position(7, &moves);
        let plain = solver.inferior_cells(&pos).unwrap().len();
        more += usize::from(solver.inferior_and_dominated_cells(&pos).unwrap().len() > plain);
    }
    assert!(more >= 10, "only {more} of 40 middle games had dominated cells");
    let (won, _) = hex::play_moves(2, ["a1", "b1", "a2"]).unwrap();
    assert!(won.winner().is_some());
    assert!(matches!(solver.inferior_cells(&won), Err(SolveError::GameOver(_))));
    assert!(matches!(solver.inferior_and_dominated_cells(&won), Err(SolveError::GameOver(_))));
}

#[test]
fn analysis_refuses_what_the_solver_refuses() {
    let mut solver = Solver::new(SolverConfig::default());
    assert_eq!(solver.analyse(&Position::new(12).unwrap()), Err(SolveError::TooLarge(12)));
    let won = Position::new(1).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
    assert!(matches!(solver.analyse(&won), Err(SolveError::GameOver(Color::Black))));
    let swap = Position::with_swap(5, true).unwrap().play(HexMove::Place(Cell::new(0, 0))).unwrap();
    assert_eq!(solver.analyse(&swap), Err(SolveError::SwapAvailable));
}

/// With captured regions on, the 5x5 map is the table's, the solver's strategies check out
/// against every reply on the 4x4 openings, and the 9x9 position where the regions matter
/// (`9x9-s385-g12` of the positions file: Black's region e2 f2 g2 f3 g3 closes off the
/// carrier of a decomposition after Black's f6) is solved in a few hundred nodes instead of
/// over ten thousand.
#[test]
fn captured_regions_keep_the_maps_and_shorten_a_9x9_solve() {
    use hex::solver::check_solver;
    let config = SolverConfig { table_bits: 16, captured_regions: true, ..SolverConfig::default() };
    let mut solver = Solver::new(config);
    assert_eq!(solver.opening_map(5).unwrap().winning_cells(), table()[&5]);
    let wins = table()[&4].clone();
    for cell in Position::new(4).unwrap().board().cells() {
        let opening = Position::new(4).unwrap().play(HexMove::Place(cell)).unwrap();
        let proof = check_solver(&mut solver, &opening, 200_000).unwrap();
        assert_eq!(proof.winner == Color::Black, wins.contains(&cell), "4x4 {cell:?}");
    }
    let mut pos = Position::new(9).unwrap();
    for m in "e1 d3 h2 g4 f4 e6 d6 e5 h5 g7".split_whitespace() {
        pos = pos.play(HexMove::Place(parse_cell(m, 9).unwrap())).unwrap();
    }
    let with = Solver::new(config).solve(&pos).unwrap();
    assert_eq!(with.verdict.winner(), Some(Color::Black));
    assert!(with.stats.regions > 0 && with.stats.nodes < 1_000, "{:?}", with.stats);
    let without = Solver::new(SolverConfig { captured_regions: false, ..config }).solve(&pos).unwrap();
    assert_eq!(without.verdict.winner(), Some(Color::Black));
    assert!(
        without.stats.nodes > 10 * with.stats.nodes,
        "{} against {}",
        without.stats.nodes,
        with.stats.nodes
    );
}

/// The ends of `side`'s connections on `pos`: its two edges and each of its stones.
fn ends(pos: &Position, side: Color) -> Vec<Endpoint> {
    let stones = pos.board().cells().filter(|&c| pos.board().get(c) == Some(side)).map(Endpoint::Cell);
    [Endpoint::First, Endpoint::Second].into_iter().chain(stones).collect()
}

/// Every pair of `side`'s ends (its edges and its stones) with what H-search finds between
/// them on `pos`.
fn pairs(solver: &mut Solver, pos: &Position, side: Color) -> Vec<Connections> {
    let ends = ends(pos, side);
    let mut pairs = Vec::new();
    for (i, &x) in ends.iter().enumerate() {
        for &y in &ends[i + 1..] {
            pairs.extend(solver.connections(pos, side, x, y));
        }
    }
    pairs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// The answers are what the connection lists say: a cell inside every VC carrier of a
    /// pair, answered by the keys of that pair's semi-connections that avoid it, and nothing
    /// else.
    #[test]
    fn intrusion_answers_follow_the_connection_lists(moves in prop::collection::vec(0usize..49, 6..12)) {
        let pos = random_position(7, &moves);
        prop_assume!(pos.winner().is_none());
        let mut solver = Solver::new(SolverConfig::default());
        for side in [Color::Black, Color::White] {
            let answers = solver.intrusion_answers(&pos, side).unwrap();
            let mut expected: BTreeMap<Cell, BTreeSet<Cell>> = BTreeMap::new();
            for pair in pairs(&mut solver, &pos, side) {
                let Some(first) = pair.full.first() else { continue };
                for probe in first.iter().filter(|cell| pair.full.iter().all(|carrier| carrier.contains(cell))) {
                    let keys = pair.semi.iter().filter(|semi| !semi.carrier.contains(probe)).map(|semi| semi.key);
                    let entry = expected.entry(*probe).or_default();
                    entry.extend(keys);
                }
            }
            expected.retain(|_, keys| !keys.is_empty());
            let found: BTreeMap<Cell, BTreeSet<Cell>> =
                answers.iter().map(|(probe, cells)| (*probe, cells.iter().copied().collect())).collect();
            prop_assert_eq!(found, expected, "{} on {:?}", side, pos.board());
        }
    }
}

#[test]
fn intrusion_answers_cover_a_bridge_and_not_the_captured_edge_cells() {
    // Black c3–d4 (a bridge over d3 and c4) and b6 on the second row from the bottom edge;
    // White's g1 and g2 far away.
    let (pos, _) = hex::play_moves(7, ["c3", "g1", "d4", "g2", "b6"]).unwrap();
    let cell = |name| parse_cell(name, 7).unwrap();
    let answers = Solver::new(SolverConfig::default()).intrusion_answers(&pos, Color::Black).unwrap();
    let of = |name| {
        answers.iter().find(|(probe, _)| *probe == cell(name)).map(|(_, a)| a.clone()).unwrap_or_default()
    };
    assert!(of("d3").contains(&cell("c4")), "{answers:?}");
    assert!(of("c4").contains(&cell("d3")), "{answers:?}");
    // b6's two edge cells are no intrusions: the fill-in gives them to Black (captured),
    // which joins b6 to its edge.
    assert!(of("a7").is_empty() && of("b7").is_empty(), "{answers:?}");
    // Cells in no carrier have no answers, and the answers come in cell order.
    assert!(of("g7").is_empty() && of("a1").is_empty(), "{answers:?}");
    assert!(answers.windows(2).all(|w| w[0].0 < w[1].0));
    // A finished game has nothing to keep.
    let (won, _) = hex::play_moves(2, ["a1", "b1", "a2"]).unwrap();
    assert_eq!(
        Solver::new(SolverConfig::default()).intrusion_answers(&won, Color::Black),
        Err(SolveError::GameOver(Color::Black))
    );
}
