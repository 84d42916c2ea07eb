//! Properties of the board on random positions: the row tables against a plain slide written
//! here, the symmetries between directions, conservation of the tile sum, spawns, the terminal
//! test, and the notation's round trip and error handling.

use game2048::{Action, Board, Direction, Game2048, MAX_RANK, Position, Rules, TileOverflow};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use search_core::{Game, MoveList};

/// Ranks as a grid: `grid[row][col]`, row 0 on top.
type Grid = [[u8; 4]; 4];

fn grid(board: Board) -> Grid {
    std::array::from_fn(|r| std::array::from_fn(|c| board.rank(4 * r + c)))
}

fn from_grid(grid: Grid) -> Board {
    Board::from_ranks(std::array::from_fn(|cell| grid[cell / 4][cell % 4]))
}

/// The cell of `line` that is `k` steps from the wall `direction` moves towards.
fn cell_from_wall(direction: Direction, line: usize, k: usize) -> (usize, usize) {
    match direction {
        Direction::Left => (line, k),
        Direction::Right => (line, 3 - k),
        Direction::Up => (k, line),
        Direction::Down => (3 - k, line),
    }
}

/// The plain slide: each line is walked from the wall outwards, every tile goes to the first free
/// cell, or merges into the tile just placed if that one is equal and not itself made by a merge.
/// Returns the grid and the score, or `None` if two 32768s (rank 15) would merge.
fn reference_slide(before: Grid, direction: Direction) -> Option<(Grid, u32)> {
    let mut after = [[0u8; 4]; 4];
    let mut score = 0;
    for line in 0..4 {
        // How many cells from the wall are filled, and whether the last one may still merge.
        let mut filled = 0;
        let mut last_can_merge = false;
        for k in 0..4 {
            let (r, c) = cell_from_wall(direction, line, k);
            let rank = before[r][c];
            if rank == 0 {
                continue;
            }
            if last_can_merge {
                let (lr, lc) = cell_from_wall(direction, line, filled - 1);
                if after[lr][lc] == rank {
                    if rank == MAX_RANK {
                        return None;
                    }
                    after[lr][lc] = rank + 1;
                    score += 1 << (rank + 1);
                    last_can_merge = false;
                    continue;
                }
            }
            let (fr, fc) = cell_from_wall(direction, line, filled);
            after[fr][fc] = rank;
            filled += 1;
            last_can_merge = true;
        }
    }
    Some((after, score))
}

/// The board with its columns reversed: `(r, c)` goes to `(r, 3 - c)`.
fn mirror(board: Board) -> Board {
    let g = grid(board);
    from_grid(std::array::from_fn(|r| std::array::from_fn(|c| g[r][3 - c])))
}

/// The board with rows and columns swapped, computed cell by cell.
fn transpose(board: Board) -> Board {
    let g = grid(board);
    from_grid(std::array::from_fn(|r| std::array::from_fn(|c| g[c][r])))
}

/// The slide's board and score, or `None` when it overflows; the error must name the direction.
fn slid(board: Board, direction: Direction) -> Option<(Board, u32)> {
    match board.slide(direction) {
        Ok(s) => Some((s.board, s.score)),
        Err(TileOverflow { direction: d }) => {
            assert_eq!(d, direction, "the error names another direction");
            None
        }
    }
}

/// How many tiles of each rank the board holds.
fn rank_counts(board: Board) -> [i64; 16] {
    let mut counts = [0; 16];
    for cell in 0..16 {
        counts[usize::from(board.rank(cell))] += 1;
    }
    counts
}

/// The value of the tiles the merges of a slide from `before` to `after` created, worked out from
/// the tile counts alone: each merge turns two tiles of rank `r` into one of `r + 1`, so going up
/// from rank 1 the number of merges into each rank follows from the counts below it.
fn created_value(before: Board, after: Board) -> Result<u32, TestCaseError> {
    let (b, a) = (rank_counts(before), rank_counts(after));
    let mut total = 0;
    // Merges that created a tile of rank r; none create a 2.
    let mut made = 0i64;
    for r in 1..=usize::from(MAX_RANK) {
        // a[r] = b[r] + made_r - 2 * made_{r+1}
        let consumed = b[r] + made - a[r];
        prop_assert!(consumed >= 0 && consumed % 2 == 0, "rank {}: {} before, {} after", r, b[r], a[r]);
        total += u32::try_from(made).unwrap() << r;
        made = consumed / 2;
    }
    prop_assert_eq!(made, 0, "two 32768s merged");
    Ok(total)
}

/// A rank from a mix that gives empty cells, merges and large tiles all a fair chance.
fn rank() -> impl Strategy<Value = u8> {
    prop_oneof![4 => Just(0u8), 3 => 1u8..=3, 2 => 1u8..=11, 1 => 12u8..=MAX_RANK]
}

/// Boards of several kinds: any ranks, mixed ranks, small ranks (many merges and full boards),
/// full boards, and full boards of the largest tiles (refused merges).
fn any_board() -> impl Strategy<Value = Board> {
    prop_oneof![
        proptest::array::uniform16(0u8..=MAX_RANK),
        proptest::array::uniform16(rank()),
        proptest::array::uniform16(0u8..=3),
        proptest::array::uniform16(1u8..=4),
        proptest::array::uniform16(prop_oneof![1u8..=3, 13u8..=MAX_RANK]),
    ]
    .prop_map(Board::from_ranks)
}

fn direction() -> impl Strategy<Value = Direction> {
    prop::sample::select(Direction::ALL.to_vec())
}

/// A board with two 32768s in one line with only empty cells between them, and the direction
/// along that line (left for a row, up for a column).
fn board_with_two_32768s() -> impl Strategy<Value = (Board, Direction)> {
    let ends = (0usize..3).prop_flat_map(|first| (Just(first), first + 1..4));
    (proptest::array::uniform16(rank()), 0usize..4, ends, any::<bool>()).prop_map(
        |(ranks, line, (first, second), in_a_column)| {
            let direction = if in_a_column { Direction::Up } else { Direction::Left };
            let mut board = Board::from_ranks(ranks);
            for k in first..=second {
                let (r, c) = cell_from_wall(direction, line, k);
                let rank = if k == first || k == second { MAX_RANK } else { 0 };
                board = board.with_rank(4 * r + c, rank);
            }
            (board, direction)
        },
    )
}

fn opposite(direction: Direction) -> Direction {
    match direction {
        Direction::Up => Direction::Down,
        Direction::Down => Direction::Up,
        Direction::Left => Direction::Right,
        Direction::Right => Direction::Left,
    }
}

/// Tile values for `from_values`: mostly tiles and near misses, sometimes anything.
fn value() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => Just(0u64),
        3 => (0u32..64).prop_map(|s| 1u64 << s),
        1 => (0u32..20).prop_map(|s| (1u64 << s) + 1),
        1 => any::<u64>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// The row tables give what the plain slide gives, overflow included.
    #[test]
    fn slide_equals_the_plain_slide(board in any_board()) {
        for d in Direction::ALL {
            let expected = reference_slide(grid(board), d).map(|(g, score)| (from_grid(g), score));
            prop_assert_eq!(slid(board, d), expected, "{} {}", board, d);
        }
    }

    /// A slide raises the board's tile points by exactly its merge score (what lets an n-tuple
    /// network's search add the points on the board instead of summing rewards on the path).
    #[test]
    fn a_slide_adds_its_score_to_the_tile_points(board in any_board()) {
        for d in Direction::ALL {
            if let Ok(slide) = board.slide(d) {
                prop_assert_eq!(
                    slide.board.tile_points(),
                    board.tile_points() + u64::from(slide.score),
                    "{} {}", board, d
                );
            }
        }
    }

    /// The empty-cell mask has bit `c` set exactly for the empty cells.
    #[test]
    fn empty_mask_marks_the_empty_cells(board in any_board()) {
        let mask = board.empty_mask();
        for cell in 0..16 {
            prop_assert_eq!(mask >> cell & 1 == 1, board.rank(cell) == 0, "{} cell {}", board, cell);
        }
        prop_assert_eq!(mask.count_ones(), board.empty_count());
        prop_assert_eq!(board.has_empty(), mask != 0);
    }

    /// The search's fast moves (`after`, `afters`, and the game's successors) are the legal
    /// slides: the board `slide` gives when it changes and merges no two 32768s, else none.
    #[test]
    fn fast_moves_are_the_legal_slides(board in any_board()) {
        let afters = board.afters();
        let game = Game2048::chance(0.1);
        let mut successors = Vec::new();
        game.successors(&Position::slide(board), |mv, child| successors.push((mv, child)));
        let mut moves = MoveList::new();
        if !board.is_terminal() {
            game.moves(&Position::slide(board), &mut moves);
        }
        prop_assert_eq!(successors.iter().map(|(m, _)| *m).collect::<Vec<_>>(), moves.to_vec());
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            let expected = reference_slide(grid(board), d).map(|(g, _)| from_grid(g)).filter(|&b| b != board);
            prop_assert_eq!(board.after(d), expected, "{} {}", board, d);
            prop_assert_eq!(afters[i], expected, "{} {}", board, d);
            let successor = successors.iter().find(|(m, _)| *m == Action::Slide(d)).map(|(_, p)| p.board);
            prop_assert_eq!(successor, expected);
        }
    }

    /// Two 32768s that would meet in a line refuse both directions along it.
    #[test]
    fn two_32768s_never_merge((board, d) in board_with_two_32768s()) {
        prop_assert_eq!(board.slide(d), Err(TileOverflow { direction: d }), "{}", board);
        let back = opposite(d);
        prop_assert_eq!(board.slide(back), Err(TileOverflow { direction: back }), "{}", board);
        prop_assert!(reference_slide(grid(board), d).is_none());
        prop_assert!(board.play(d).is_none() && board.play(back).is_none());
        prop_assert!(!board.legal_moves().any(|m| m == d || m == back));
    }

    /// Left and right are mirror images; up and down are left and right on the transposed board.
    #[test]
    fn directions_are_symmetric(board in any_board()) {
        prop_assert_eq!(transpose(board), board.transpose());
        let mirrored = |s: Option<(Board, u32)>| s.map(|(b, score)| (mirror(b), score));
        let transposed = |s: Option<(Board, u32)>| s.map(|(b, score)| (transpose(b), score));
        prop_assert_eq!(mirrored(slid(board, Direction::Left)), slid(mirror(board), Direction::Right));
        prop_assert_eq!(mirrored(slid(board, Direction::Right)), slid(mirror(board), Direction::Left));
        prop_assert_eq!(transposed(slid(board, Direction::Up)), slid(transpose(board), Direction::Left));
        prop_assert_eq!(transposed(slid(board, Direction::Down)), slid(transpose(board), Direction::Right));
    }

    /// A slide keeps the tile sum, and its score is the value of the tiles its merges created.
    #[test]
    fn slides_conserve_the_tile_sum(board in any_board(), d in direction()) {
        if let Ok(s) = board.slide(d) {
            prop_assert_eq!(s.board.tile_sum(), board.tile_sum());
            prop_assert_eq!(s.score, created_value(board, s.board)?);
            prop_assert!(s.board.empty_count() >= board.empty_count());
            prop_assert_eq!(s.score == 0, s.board.empty_count() == board.empty_count());
        }
    }

    /// A spawn after a legal move adds one 2 or 4 on a cell that was empty and changes nothing else.
    #[test]
    fn a_spawn_adds_a_2_or_a_4(board in any_board(), d in direction(), seed: u64, cell in 0usize..16) {
        let Some(s) = board.play(d) else { return Ok(()) };
        let moved = s.board;
        prop_assert!(moved.empty_count() > 0, "a legal move leaves an empty cell");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let spawned = Rules::default().spawn(moved, &mut rng).expect("an empty cell");
        let added = spawned.tile_sum() - moved.tile_sum();
        prop_assert!(added == 2 || added == 4, "{} then {}", moved, spawned);
        prop_assert_eq!(spawned.empty_count() + 1, moved.empty_count());
        let new: Vec<usize> = (0..16).filter(|&c| spawned.rank(c) != moved.rank(c)).collect();
        prop_assert_eq!(new.len(), 1);
        prop_assert_eq!(moved.rank(new[0]), 0);

        match moved.spawn(cell, 1) {
            Ok(b) => prop_assert_eq!(b.tile_sum(), moved.tile_sum() + 2),
            Err(_) => prop_assert!(moved.rank(cell) != 0),
        }
        match moved.spawn(cell, 2) {
            Ok(b) => prop_assert_eq!(b.tile_sum(), moved.tile_sum() + 4),
            Err(_) => prop_assert!(moved.rank(cell) != 0),
        }
    }

    /// A direction that is not a move leaves the board as it was, and no search sees it as a move.
    #[test]
    fn a_no_op_changes_nothing(board in any_board()) {
        let game = Game2048::chance(0.1);
        let mut moves = MoveList::new();
        let position = Position::slide(board);
        if !board.is_terminal() {
            game.moves(&position, &mut moves);
        }
        for d in Direction::ALL {
            if board.play(d).is_none() {
                match board.slide(d) {
                    Ok(s) => prop_assert!(s.board == board && s.score == 0, "{} {}", board, d),
                    Err(e) => prop_assert_eq!(e.direction, d),
                }
                prop_assert!(!board.legal_moves().any(|m| m == d));
                prop_assert!(!moves.contains(&Action::Slide(d)));
            } else {
                prop_assert!(moves.contains(&Action::Slide(d)));
            }
        }
    }

    /// `is_terminal` is "no direction is a legal move": every direction either leaves the board as
    /// it was or is refused for merging two 32768s.
    #[test]
    fn terminal_means_no_direction_changes_the_board(board in any_board()) {
        let no_move = Direction::ALL.iter().all(|&d| board.slide(d).map_or(true, |s| s.board == board));
        prop_assert_eq!(board.is_terminal(), no_move, "{}", board);
        prop_assert_eq!(board.legal_moves().next().is_none(), no_move);
        let refused = Direction::ALL.iter().any(|&d| board.slide(d).is_err());
        prop_assert_eq!(board.is_blocked_by_overflow(), no_move && refused, "{}", board);
        let game = Game2048::chance(0.1);
        prop_assert_eq!(game.to_move(&Position::slide(board)) == search_core::ToMove::Terminal, no_move);
    }

    /// Printing a board and reading it back gives the same board, and so do its values.
    #[test]
    fn notation_round_trips(ranks in proptest::array::uniform16(0u8..=MAX_RANK)) {
        let board = Board::from_ranks(ranks);
        let text = board.to_string();
        prop_assert_eq!(text.parse::<Board>(), Ok(board), "{}", text);
        prop_assert_eq!(Board::from_values(board.values().map(u64::from)), Ok(board));
        prop_assert_eq!(board.ranks(), ranks);
    }

    /// `from_values` accepts exactly 0 and the powers of two from 2 to 32768, and never panics.
    #[test]
    fn from_values_checks_every_cell(values in proptest::array::uniform16(value())) {
        let is_tile = |v: u64| v == 0 || (v.is_power_of_two() && (2..=(1 << MAX_RANK)).contains(&v));
        match Board::from_values(values) {
            Ok(board) => {
                prop_assert!(values.iter().all(|&v| is_tile(v)));
                prop_assert_eq!(board.values().map(u64::from), values);
            }
            Err(_) => prop_assert!(!values.iter().all(|&v| is_tile(v))),
        }
    }

    /// Arbitrary text never makes the parser panic; whatever it accepts prints and parses back.
    #[test]
    fn parsing_any_text_never_panics(text in prop_oneof![
        any::<String>(),
        "[0-9 /x-]{0,60}",
        "( {0,2}[0-9]{1,6}){3,5}(/( {0,2}[0-9]{1,6}){3,5}){2,4}",
    ]) {
        if let Ok(board) = text.parse::<Board>() {
            prop_assert_eq!(board.to_string().parse::<Board>(), Ok(board));
        }
        let _ = text.parse::<Direction>();
    }
}

/// The strong agent's search, without its table, is the plain expectimax oracle of search-core
/// with the same horizon: same value, same move.
#[test]
fn strong_without_a_table_is_the_oracle() {
    use game2048::Evaluation;
    use game2048::agents::{Strong, StrongConfig};
    use game2048::heuristics::LineTable;
    use search_core::{DepthCount, Horizon, ProbabilityCutoff, minimax};

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let rules = Rules::default();
    let config = StrongConfig { probability_cutoff: 0.02, table_slots: 0, ..StrongConfig::default() };
    let strong = Strong::new(config, LineTable::default());
    let mut board = rules.new_board(&mut rng);
    for _ in 0..30 {
        let found = strong.search(board);
        let horizon = Horizon {
            depth: config.depth_for(board),
            count: DepthCount::Moves,
            cutoff: ProbabilityCutoff { threshold: config.probability_cutoff },
        };
        let oracle = minimax::search(
            &Game2048::chance(0.1),
            &Evaluation::new(LineTable::default()),
            &Position::slide(board),
            &horizon,
        );
        assert_eq!((found.value, found.best_move), (oracle.value, oracle.best_move), "{board}");
        let Some(Action::Slide(d)) = found.best_move else { panic!("no move on {board}") };
        board = rules.spawn(board.after(d).unwrap(), &mut rng).unwrap();
    }
}

/// The evaluator without its `chance_value` hook: the search values each spawn as a node.
struct OneByOne<E>(E);

impl<E: search_core::Evaluator<Game2048>> search_core::Evaluator<Game2048> for OneByOne<E> {
    type Value = E::Value;
    fn evaluate(&self, game: &Game2048, position: &Position, player: u8) -> E::Value {
        self.0.evaluate(game, position, player)
    }
    fn terminal(&self, game: &Game2048, position: &Position, player: u8, ply: u32) -> E::Value {
        self.0.terminal(game, position, player, ply)
    }
    fn bounds(&self) -> Option<(E::Value, E::Value)> {
        self.0.bounds()
    }
    fn best_chance_child(&self, game: &Game2048, position: &Position, player: u8) -> Option<E::Value> {
        self.0.best_chance_child(game, position, player)
    }
}

/// Valuing a chance node's spawns in one loop (`Evaluation::chance_value`) changes nothing:
/// with the strong agent's horizons and a chance table, the same value to the bit, the same
/// move and the same counts as the search valuing each spawn as a node, along a seeded game.
#[test]
fn spawns_valued_in_one_loop_change_nothing() {
    use game2048::Evaluation;
    use game2048::agents::StrongConfig;
    use game2048::heuristics::LineTable;
    use search_core::expectimax::{self, ChanceTables, Reuse};
    use search_core::{DepthCount, Horizon, ProbabilityCutoff};

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let rules = Rules::default();
    let strong = StrongConfig { probability_cutoff: 0.01, ..StrongConfig::default() };
    let game = Game2048::chance(0.1);
    let eval = Evaluation::new(LineTable::default());
    let mut board = rules.new_board(&mut rng);
    for _ in 0..40 {
        let horizon = Horizon {
            depth: strong.depth_for(board),
            count: DepthCount::Moves,
            cutoff: ProbabilityCutoff { threshold: strong.probability_cutoff },
        };
        let config = expectimax::Config { horizon, reuse: Reuse::Deeper, parallel: false };
        let root = Position::slide(board);
        let hooked =
            expectimax::search(&game, &eval, &root, &config, &mut ChanceTables::with_capacity(1 << 12));
        let plain = expectimax::search(
            &game,
            &OneByOne(eval.clone()),
            &root,
            &config,
            &mut ChanceTables::with_capacity(1 << 12),
        );
        assert_eq!(hooked.value.to_bits(), plain.value.to_bits(), "{board}");
        assert_eq!(hooked.best_move, plain.best_move, "{board}");
        assert_eq!(
            (hooked.stats.nodes, hooked.stats.leaves),
            (plain.stats.nodes, plain.stats.leaves),
            "{board}"
        );
        let Some(Action::Slide(d)) = hooked.best_move else { panic!("no move on {board}") };
        board = rules.spawn(board.after(d).unwrap(), &mut rng).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The line table's best afterstate (what the strong search asks at its last level) is the
    /// best of its afterstates' values to the last bit, on boards one spawn from a common parent
    /// as a search meets them, with strangers and boards holding a 32768 mixed in.
    #[test]
    fn best_afterstate_is_exact_on_siblings(parent in any_board(), picks in prop::collection::vec((0usize..16, 1u8..=2, any::<bool>()), 1..40)) {
        // A second strategy of boards would make the debug build's stack frame too big for a
        // test thread; a rotated parent is a stranger to its children just as well.
        let stranger = Board::from_raw(parent.raw().rotate_left(20));
        use game2048::Heuristic;
        use game2048::heuristics::LineTable;
        let table = LineTable::default();
        let direct = |b: Board| {
            b.afters().into_iter().flatten().map(|a| table.value(a)).reduce(|x, y| if y > x || y.is_nan() { y } else { x })
        };
        for (cell, rank, interleave) in picks {
            let board = parent.spawn(cell, rank).unwrap_or(parent);
            let got = table.best_afterstate(board);
            let want = direct(board);
            prop_assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{} (parent {})", board, parent);
            if interleave {
                prop_assert_eq!(table.best_afterstate(stranger).map(f64::to_bits), direct(stranger).map(f64::to_bits));
            }
        }
    }
}

/// Both models of the game keep search-core's `Game` contract on seeded random walks.
#[test]
fn the_game_keeps_the_search_contract() {
    use search_core::testing::{Walk, check_hashed};
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
    let starts: Vec<Position> =
        (0..4).map(|_| Position::slide(Rules::default().new_board(&mut rng))).collect();
    let walk = Walk { walks: 5, max_plies: 400, seed: 8, ..Walk::default() };
    for game in [Game2048::chance(0.1), Game2048::chance(0.0), Game2048::adversary()] {
        let report = check_hashed(&game, &starts, &walk).unwrap();
        assert!(report.player_states > 100, "{report:?}");
    }
}
