//! The connection distances: the three shortest-path searches agree on every board, they mean
//! what they should (0 when connected, none when cut off), and the two-distance matches hand
//! calculations and a direct fixpoint of its definition.

use hex::distances::{bfs_distance, madeup_value, two_distance, ucs_distance, zero_one_bfs_distance};
use hex::{Board, Cell, Color};
use proptest::prelude::*;

const COLORS: [Color; 2] = [Color::Black, Color::White];

/// A board from rows of `.`, `B` and `W`, top row first (spaces ignored).
fn board(rows: &[&str]) -> Board {
    let mut b = Board::new(rows.len() as u32).unwrap();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().filter(|ch| !ch.is_whitespace()).enumerate() {
            let stone = match ch {
                'B' => Some(Color::Black),
                'W' => Some(Color::White),
                _ => None,
            };
            b.set(Cell::new(r as u8, c as u8), stone);
        }
    }
    b
}

/// A random n×n board: each cell empty, Black or White (`0`, `1`, `2`).
fn arbitrary_board() -> impl Strategy<Value = Board> {
    (1u32..=13, prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)], 169))
        .prop_map(|(n, kinds)| {
            let mut b = Board::new(n).unwrap();
            for cell in b.cells().collect::<Vec<_>>() {
                let stone = match kinds[cell.id(n as u8)] {
                    1 => Some(Color::Black),
                    2 => Some(Color::White),
                    _ => None,
                };
                b.set(cell, stone);
            }
            b
        })
}

#[test]
fn hand_checked_distances() {
    let cases: &[(&[&str], Option<u32>, Option<u32>)] = &[
        (&["."], Some(1), Some(1)),
        (&["B"], Some(0), None),
        (&["..", ".."], Some(2), Some(2)),
        (&["...", "...", "..."], Some(3), Some(3)),
        // A black stone in the middle: one less for Black, nothing for White.
        (&["...", ".B.", "..."], Some(2), Some(3)),
        // Two black stones in a bridge and a white wall with one gap.
        (&["....", "..B.", ".B..", "...."], Some(2), Some(4)),
        (&["W.WW", "....", "....", "...."], Some(4), Some(1)),
        // The reference's example: one white stone in the centre of 5x5 (the original FIFO BFS
        // said 5 for White).
        (&[".....", ".....", "..W..", ".....", "....."], Some(5), Some(4)),
        // Black connected: 0 for Black, and White is cut off.
        (&[".B..", "B...", "B...", "BW.W"], Some(0), None),
        // The long way round: Black passes the first white wall on the right and the second on
        // the left, 9 cells; White's wall lacks one stone.
        (&["B.....", "WWWWW.", "......", ".WWWWW", "......", "......"], Some(9), Some(1)),
    ];
    for &(rows, black, white) in cases {
        let b = board(rows);
        for (color, want) in [(Color::Black, black), (Color::White, white)] {
            assert_eq!(bfs_distance(&b, color), want, "bfs, {color} on {b:?}");
            assert_eq!(ucs_distance(&b, color), want, "ucs, {color} on {b:?}");
            assert_eq!(zero_one_bfs_distance(&b, color), want, "0-1 bfs, {color} on {b:?}");
        }
    }
}

#[test]
fn madeup_value_is_one_minus_distance_over_cells() {
    let b = board(&[".....", ".....", "..W..", ".....", "....."]);
    assert_eq!(madeup_value(&b, Color::White), 1.0 - 4.0 / 25.0);
    assert_eq!(madeup_value(&b, Color::Black), 1.0 - 5.0 / 25.0);
    let won = board(&[".B..", "B...", "B...", "BW.W"]);
    assert_eq!(madeup_value(&won, Color::Black), 1.0);
    assert_eq!(madeup_value(&won, Color::White), 0.0);
}

#[test]
fn nineteen_by_nineteen() {
    let mut b = Board::new(19).unwrap();
    for color in COLORS {
        assert_eq!(zero_one_bfs_distance(&b, color), Some(19));
    }
    // A black column with one gap: one stone short.
    for r in 0..19 {
        if r != 9 {
            b.set(Cell::new(r, 18), Some(Color::Black));
        }
    }
    assert_eq!(bfs_distance(&b, Color::Black), Some(1));
    assert_eq!(ucs_distance(&b, Color::Black), Some(1));
    assert_eq!(zero_one_bfs_distance(&b, Color::Black), Some(1));
    assert_eq!(ucs_distance(&b, Color::White), Some(19));
    assert_eq!(two_distance(&b, Color::Black).best_potential(), Some(2));
}

/// Every empty cell's potential, row by row, `None` as `-1`.
fn potentials(b: &Board, color: Color) -> Vec<Vec<i64>> {
    let twod = two_distance(b, color);
    let n = b.size();
    (0..n).map(|r| (0..n).map(|c| twod.potential(Cell::new(r, c)).map_or(-1, i64::from)).collect()).collect()
}

#[test]
fn two_distance_by_hand() {
    // 1x1: the one cell touches both edges.
    let one = two_distance(&board(&["."]), Color::Black);
    assert_eq!((one.to_first_edge(Cell::new(0, 0)), one.to_second_edge(Cell::new(0, 0))), (Some(1), Some(1)));
    assert_eq!(one.best_potential(), Some(2));

    // 2x2, Black: the top row is 1 from the top; a2 touches a1 and b1, so 2; b2 touches only b1
    // and a2, so 3.
    //   to top      to bottom    potentials
    //   1 1         3 2          4 3
    //    2 3         1 1          3 4
    let two = board(&["..", ".."]);
    let black = two_distance(&two, Color::Black);
    let top: Vec<_> = two.cells().map(|c| black.to_first_edge(c)).collect();
    let bottom: Vec<_> = two.cells().map(|c| black.to_second_edge(c)).collect();
    assert_eq!(top, [Some(1), Some(1), Some(2), Some(3)]);
    assert_eq!(bottom, [Some(3), Some(2), Some(1), Some(1)]);
    assert_eq!(potentials(&two, Color::Black), [[4, 3], [3, 4]]);
    // White's edges are the columns; the obtuse corners b1 and a2 are best for both.
    assert_eq!(potentials(&two, Color::White), [[4, 3], [3, 4]]);

    // 3x3 empty, Black: to the top 1 1 1 / 2 2 3 / 3 4 5; the short diagonal is best.
    let three = board(&["...", "...", "..."]);
    let black = two_distance(&three, Color::Black);
    let top: Vec<_> = three.cells().map(|c| black.to_first_edge(c).unwrap()).collect();
    assert_eq!(top, [1, 1, 1, 2, 2, 3, 3, 4, 5]);
    assert_eq!(potentials(&three, Color::Black), [[6, 5, 4], [5, 4, 5], [4, 5, 6]]);
    assert_eq!((black.best_potential(), black.best_count()), (Some(4), 3));

    // An own stone in the middle is contracted: b1 and c1 touch it, so every empty cell around
    // it reaches the top in 2 (a2 directly through a1 and b1 as well).
    //   to top       potentials
    //   1 1 1        4 3 3
    //    2 B 2        4 . 4
    //     2 2 3        3 3 4
    let stone = board(&["...", ".B.", "..."]);
    let black = two_distance(&stone, Color::Black);
    assert_eq!(black.to_first_edge(Cell::new(2, 0)), Some(2));
    assert_eq!(black.to_first_edge(Cell::new(2, 2)), Some(3));
    assert_eq!(black.to_first_edge(Cell::new(1, 1)), None);
    assert_eq!(potentials(&stone, Color::Black), [[4, 3, 3], [4, -1, 4], [3, 3, 4]]);
    assert_eq!((black.best_potential(), black.best_count()), (Some(3), 4));

    // Two white stones leave Black one gap, b2, which White can fill: only b2 keeps two routes
    // to each edge (b1 and c1 above, a3 and b3 below); every other cell is one cut away from its
    // far edge.
    let gap = board(&["...", "W.W", "..."]);
    assert_eq!(potentials(&gap, Color::Black), [[-1, -1, -1], [-1, 4, -1], [-1, -1, -1]]);
    assert_eq!(two_distance(&gap, Color::Black).best_count(), 1);
    // The ordinary distance is 3; a potential is always at least the distance plus one.
    assert_eq!(zero_one_bfs_distance(&gap, Color::Black), Some(3));

    // Connected: potential 0.
    let won = board(&[".B..", "B...", "B...", "BW.W"]);
    assert_eq!(two_distance(&won, Color::Black).best_potential(), Some(0));
    assert_eq!(two_distance(&won, Color::White).best_potential(), None);
}

/// The two-distance straight from its definition: start with 1 at the cells touching the edge
/// (directly or through a group), everything else unknown, and set every other empty cell to
/// 1 + the second-smallest distance among its neighbours (own groups contracted) until nothing
/// changes.
fn naive_two_distance(b: &Board, color: Color, first: bool) -> Vec<Option<u32>> {
    let n = b.size();
    let on_edge = |cell: Cell| match (color, first) {
        (Color::Black, true) => cell.row == 0,
        (Color::Black, false) => cell.row == n - 1,
        (Color::White, true) => cell.col == 0,
        (Color::White, false) => cell.col == n - 1,
    };
    // The group of own stones around `start`.
    let group = |start: Cell| {
        let mut members = vec![start];
        let mut i = 0;
        while i < members.len() {
            for m in members[i].neighbours(n) {
                if b.get(m) == Some(color) && !members.contains(&m) {
                    members.push(m);
                }
            }
            i += 1;
        }
        members
    };
    let cells: Vec<Cell> = b.cells().collect();
    let mut links: Vec<Vec<Cell>> = vec![Vec::new(); cells.len()];
    let mut touches = vec![false; cells.len()];
    for &cell in &cells {
        if b.get(cell).is_some() {
            continue;
        }
        let id = cell.id(n);
        touches[id] = on_edge(cell);
        for m in cell.neighbours(n) {
            match b.get(m) {
                None => links[id].push(m),
                Some(c) if c == color => {
                    for s in group(m) {
                        touches[id] |= on_edge(s);
                        links[id].extend(s.neighbours(n).filter(|&e| e != cell && b.get(e).is_none()));
                    }
                }
                Some(_) => {}
            }
        }
        links[id].sort();
        links[id].dedup();
    }
    let mut d: Vec<Option<u32>> =
        cells.iter().map(|c| (b.get(*c).is_none() && touches[c.id(n)]).then_some(1)).collect();
    loop {
        let next: Vec<Option<u32>> = cells
            .iter()
            .map(|&cell| {
                let id = cell.id(n);
                if b.get(cell).is_some() || touches[id] {
                    return d[id];
                }
                let mut known: Vec<u32> = links[id].iter().filter_map(|m| d[m.id(n)]).collect();
                known.sort();
                known.get(1).map(|second| second + 1)
            })
            .collect();
        if next == d {
            return d;
        }
        d = next;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The three shortest-path searches agree, and 0 / none mean connected / cut off.
    #[test]
    fn the_three_searches_agree(b in arbitrary_board()) {
        for color in COLORS {
            let d = bfs_distance(&b, color);
            prop_assert_eq!(d, ucs_distance(&b, color), "{} on {:?}", color, b);
            prop_assert_eq!(d, zero_one_bfs_distance(&b, color), "{} on {:?}", color, b);
            prop_assert_eq!(d == Some(0), b.connects(color));
            // The opponent's stones cut every route exactly when the opponent has connected.
            prop_assert_eq!(d.is_none(), b.connects(color.opponent()));
        }
    }

    /// An own stone takes at most one off the distance; an opponent's never shortens it.
    #[test]
    fn one_stone_changes_the_distance_by_at_most_one(b in arbitrary_board(), pick in 0usize..169) {
        let empty: Vec<Cell> = b.empty_cells().collect();
        prop_assume!(!empty.is_empty());
        let cell = empty[pick % empty.len()];
        for color in COLORS {
            let before = zero_one_bfs_distance(&b, color);
            let mut own = b;
            own.set(cell, Some(color));
            let mut theirs = b;
            theirs.set(cell, Some(color.opponent()));
            if let Some(d) = before {
                let after = zero_one_bfs_distance(&own, color).unwrap();
                prop_assert!(after == d || after + 1 == d);
                prop_assert!(zero_one_bfs_distance(&theirs, color).is_none_or(|t| t >= d));
            }
        }
    }

    /// Black's distances on a board are White's on the transposed board with colours swapped.
    #[test]
    fn transpose_with_colours_swapped(b in arbitrary_board()) {
        let t = b.mirrored();
        for color in COLORS {
            prop_assert_eq!(ucs_distance(&b, color), bfs_distance(&t, color.opponent()));
            let here = two_distance(&b, color);
            let there = two_distance(&t, color.opponent());
            for cell in b.cells() {
                prop_assert_eq!(here.to_first_edge(cell), there.to_first_edge(cell.transpose()));
                prop_assert_eq!(here.to_second_edge(cell), there.to_second_edge(cell.transpose()));
            }
        }
    }

    /// The two-distance matches a direct fixpoint of its definition, and a potential is never
    /// below the distance plus one.
    #[test]
    fn two_distance_matches_its_definition(b in arbitrary_board()) {
        prop_assume!(b.size() <= 9);
        for color in COLORS {
            let twod = two_distance(&b, color);
            let first = naive_two_distance(&b, color, true);
            let second = naive_two_distance(&b, color, false);
            for cell in b.cells() {
                prop_assert_eq!(twod.to_first_edge(cell), first[cell.id(b.size())], "{:?} {} {:?}", cell, color, b);
                prop_assert_eq!(twod.to_second_edge(cell), second[cell.id(b.size())], "{:?} {} {:?}", cell, color, b);
            }
            if let (Some(p), Some(d)) = (twod.best_potential(), zero_one_bfs_distance(&b, color)) {
                prop_assert!(d == 0 && p == 0 || p > d, "potential {} distance {}", p, d);
            }
        }
    }
}
