//! The GTP engine, driven as a controller drives it: whole sessions through `Engine::handle`,
//! the OpenSpiel games replayed through `play`, and the `hex-gtp` binary on a scripted input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use hex::gtp::{COMMANDS, Engine};
use hex::mcts::{RaveWeight, Widening};
use hex::{Color, HexMove};
use proptest::prelude::*;

/// The response to `line`, which must have one.
fn ask(engine: &mut Engine, line: &str) -> String {
    engine.handle(line).unwrap_or_else(|| panic!("no response to {line:?}"))
}

/// The text of a success, without the framing; panics on a failure.
fn ok(engine: &mut Engine, line: &str) -> String {
    let response = ask(engine, line);
    let text = response
        .strip_prefix("= ")
        .and_then(|r| r.strip_suffix("\n\n"))
        .unwrap_or_else(|| panic!("{line:?} failed: {response:?}"));
    text.to_string()
}

/// The message of a failure, without the framing; panics on a success.
fn fails(engine: &mut Engine, line: &str) -> String {
    let response = ask(engine, line);
    let text = response
        .strip_prefix("? ")
        .and_then(|r| r.strip_suffix("\n\n"))
        .unwrap_or_else(|| panic!("{line:?} should fail: {response:?}"));
    text.to_string()
}

/// An engine on an n×n board with the random player, whose moves are instant and follow
/// from `param_hex seed` (the default player, MCTS, thinks for half a second).
fn engine_on(size: u32) -> Engine {
    let mut engine = Engine::default();
    ok(&mut engine, &format!("boardsize {size}"));
    ok(&mut engine, "param_hex player random");
    engine
}

#[test]
fn identity_and_the_command_list() {
    let mut e = Engine::default();
    assert_eq!(ok(&mut e, "name"), "hex-gtp");
    assert_eq!(ok(&mut e, "version"), env!("CARGO_PKG_VERSION"));
    assert_eq!(ok(&mut e, "protocol_version"), "2");
    let listed = ok(&mut e, "list_commands");
    let listed: Vec<&str> = listed.lines().collect();
    assert_eq!(listed, COMMANDS);
    for command in [
        "name",
        "version",
        "protocol_version",
        "list_commands",
        "known_command",
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "quit",
        "param_hex",
        "param_game",
        "param_solver",
    ] {
        assert!(listed.contains(&command), "{command} is not listed");
        assert_eq!(ok(&mut e, &format!("known_command {command}")), "true");
    }
    assert_eq!(ok(&mut e, "known_command loadsgf"), "false");
    assert!(fails(&mut e, "known_command").contains("one argument"));
    assert!(!ok(&mut e, "hexgui-analyze_commands").is_empty());
}

#[test]
fn ids_are_echoed_on_success_and_failure() {
    let mut e = Engine::default();
    assert_eq!(ask(&mut e, "5 protocol_version"), "=5 2\n\n");
    assert_eq!(ask(&mut e, "12 boardsize 3"), "=12 \n\n");
    assert_eq!(ask(&mut e, "0 frobnicate"), "?0 unknown command: frobnicate\n\n");
    assert_eq!(ask(&mut e, "7 play b z9"), "?7 illegal move: black z9 (off the board)\n\n");
    assert_eq!(ask(&mut e, "8"), "?8 missing command after the id\n\n");
    assert_eq!(ask(&mut e, "protocol_version"), "= 2\n\n");
}

#[test]
fn blank_lines_and_comments_get_no_response() {
    let mut e = Engine::default();
    for line in ["", "   ", "\t", "# a comment", "   # indented comment", "\r", "\u{1}\u{7f}"] {
        assert_eq!(e.handle(line), Some(String::new()), "{line:?}");
    }
    // A comment after a command is cut off, tabs separate words, a carriage return is dropped.
    assert_eq!(ask(&mut e, "name # who are you?"), "= hex-gtp\n\n");
    assert_eq!(ask(&mut e, "3\tboardsize\t4\r\n"), "=3 \n\n");
    assert_eq!(e.position().size(), 4);
}

#[test]
fn boardsize_is_square_from_1_to_19_and_starts_a_new_game() {
    let mut e = Engine::default();
    assert_eq!(e.position().size(), 11);
    ok(&mut e, "play b a1");
    ok(&mut e, "boardsize 7 7");
    assert_eq!(e.position().size(), 7);
    assert_eq!(e.position().moves_played(), 0);
    assert!(fails(&mut e, "boardsize 7 8").contains("only square boards"));
    assert!(fails(&mut e, "boardsize 0").contains("unacceptable size"));
    assert!(fails(&mut e, "boardsize 20").contains("unacceptable size"));
    assert!(fails(&mut e, "boardsize seven").contains("not a number"));
    assert!(fails(&mut e, "boardsize").contains("boardsize W [H]"));
    assert!(fails(&mut e, "boardsize 3 3 3").contains("boardsize W [H]"));
    // A refused size leaves the game alone.
    assert_eq!(e.position().size(), 7);
    ok(&mut e, "boardsize 1");
    ok(&mut e, "play b a1");
    assert_eq!(ok(&mut e, "final_score"), "B+");
    ok(&mut e, "boardsize 19");
    ok(&mut e, "play w s19");
    assert!(fails(&mut e, "play b t1").contains("off the board"));
}

#[test]
fn clear_board_keeps_the_size() {
    let mut e = engine_on(5);
    ok(&mut e, "play b c3");
    ok(&mut e, "play w d2");
    ok(&mut e, "clear_board");
    assert_eq!(e.position().size(), 5);
    assert_eq!(e.position().moves_played(), 0);
    assert_eq!(e.position().to_move(), Color::Black);
    assert_eq!(e.moves().count(), 0);
}

#[test]
fn play_accepts_both_colour_spellings_and_refuses_illegal_moves() {
    let mut e = engine_on(3);
    ok(&mut e, "play b b1");
    ok(&mut e, "play WHITE A1");
    ok(&mut e, "play black b2");
    ok(&mut e, "play w A2");
    assert_eq!(fails(&mut e, "play w b1"), "illegal move: white b1 (occupied)");
    assert_eq!(fails(&mut e, "play b d1"), "illegal move: black d1 (off the board)");
    assert_eq!(fails(&mut e, "play b b0"), "illegal move: black b0 (not a cell or swap-pieces)");
    assert_eq!(fails(&mut e, "play b 11"), "illegal move: black 11 (not a cell or swap-pieces)");
    assert_eq!(fails(&mut e, "play b pass"), "illegal move: black pass (not a cell or swap-pieces)");
    assert!(fails(&mut e, "play red c3").starts_with("invalid color: red"));
    assert!(fails(&mut e, "play b").contains("2 arguments"));
    assert!(fails(&mut e, "play b c3 c2").contains("2 arguments"));
    // None of the refused moves changed the game.
    assert_eq!(e.position().moves_played(), 4);
    ok(&mut e, "play b b3");
    assert_eq!(ok(&mut e, "final_score"), "B+");
    assert_eq!(fails(&mut e, "play w c3"), "illegal move: white c3 (the game is over: black has won)");
    assert_eq!(ok(&mut e, "genmove w"), "resign");
    assert_eq!(ok(&mut e, "genmove b"), "resign");
    assert_eq!(e.position().moves_played(), 5);
}

#[test]
fn a_colour_out_of_turn_places_its_stone_and_the_other_colour_moves_next() {
    let mut e = engine_on(4);
    ok(&mut e, "play w a1");
    assert_eq!(e.position().to_move(), Color::Black);
    ok(&mut e, "play b b2");
    ok(&mut e, "play b c2");
    assert_eq!(e.position().to_move(), Color::White);
    let stones: Vec<(Color, HexMove)> = e.moves().collect();
    assert_eq!(stones.iter().filter(|(c, _)| *c == Color::Black).count(), 2);
    assert_eq!(e.position().board().count(Color::Black), 2);
    assert_eq!(e.position().board().count(Color::White), 1);
    // White connects left to right with four stones in a row, all played out of turn.
    ok(&mut e, "clear_board");
    for cell in ["a3", "b3", "c3", "d3"] {
        assert_eq!(ok(&mut e, "final_score"), "cannot score");
        ok(&mut e, &format!("play w {cell}"));
    }
    assert_eq!(ok(&mut e, "final_score"), "W+");
    // genmove out of turn also plays the named colour.
    ok(&mut e, "clear_board");
    let mv = ok(&mut e, "genmove w");
    assert_eq!(e.position().board().count(Color::White), 1, "white played {mv}");
    assert_eq!(e.position().to_move(), Color::Black);
}

#[test]
fn undo_takes_back_one_move_and_is_a_no_op_on_an_empty_history() {
    let mut e = engine_on(3);
    ok(&mut e, "undo");
    assert_eq!(e.position().moves_played(), 0);
    ok(&mut e, "play b b1");
    ok(&mut e, "play w a1");
    ok(&mut e, "play b b2");
    ok(&mut e, "play w a2");
    ok(&mut e, "play b b3");
    assert_eq!(ok(&mut e, "final_score"), "B+");
    ok(&mut e, "undo");
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    assert_eq!(e.position().to_move(), Color::Black);
    assert_eq!(e.position().board().get(hex::Cell::new(2, 1)), None);
    // a3 connects too (b2 and a3 are neighbours); undo takes it back as well.
    ok(&mut e, "play b a3");
    assert_eq!(ok(&mut e, "final_score"), "B+");
    ok(&mut e, "undo");
    ok(&mut e, "undo");
    ok(&mut e, "undo");
    assert_eq!(e.position().moves_played(), 2);
    let moves: Vec<(Color, HexMove)> = e.moves().collect();
    assert_eq!(moves.len(), 2);
    for _ in 0..5 {
        ok(&mut e, "undo");
    }
    assert_eq!(e.position().moves_played(), 0);
    assert_eq!(e.position().to_move(), Color::Black);
    // An undone genmove can be played again.
    let first = ok(&mut e, "genmove b");
    ok(&mut e, "undo");
    ok(&mut e, &format!("play b {first}"));
}

#[test]
fn undo_restores_a_position_after_an_out_of_turn_move() {
    let mut e = engine_on(3);
    ok(&mut e, "play b a1");
    let before = *e.position();
    ok(&mut e, "play b a2");
    ok(&mut e, "undo");
    assert_eq!(*e.position(), before);
}

#[test]
fn final_score_before_and_after_a_connection() {
    let mut e = engine_on(2);
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    ok(&mut e, "play b a1");
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    ok(&mut e, "play w b1");
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    ok(&mut e, "play b a2");
    assert_eq!(ok(&mut e, "final_score"), "B+");
    ok(&mut e, "undo");
    ok(&mut e, "undo");
    ok(&mut e, "play w a2");
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    // Black a1 and b2 are not neighbours, White a2 alone does not reach the right edge.
    ok(&mut e, "play b b2");
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    // White b1 joins a2 (they are neighbours) and connects left to right.
    ok(&mut e, "play w b1");
    assert_eq!(ok(&mut e, "final_score"), "W+");
}

#[test]
fn showboard_draws_every_stone() {
    let mut e = engine_on(3);
    ok(&mut e, "play b b2");
    ok(&mut e, "play w c1");
    let board = ok(&mut e, "showboard");
    assert_eq!(board, format!("\n{}", hex::showboard(e.position())));
    assert!(board.starts_with('\n'), "the board starts on its own line: {board:?}");
    let lines: Vec<&str> = board.lines().skip(1).collect();
    assert_eq!(lines.len(), 5, "letters, three rows, letters: {board}");
    for (row, line) in lines[1..4].iter().enumerate() {
        assert!(line.trim_start().starts_with(&(row + 1).to_string()), "{line}");
        assert!(line.trim_end().ends_with(&(row + 1).to_string()), "{line}");
    }
    let stone = |line: &str| line.chars().filter(|c| !" .\\0123456789".contains(*c)).collect::<String>();
    assert_eq!(stone(lines[1]).len(), 1);
    assert_eq!(stone(lines[2]).len(), 1);
    assert_eq!(stone(lines[3]), "");
    assert_ne!(stone(lines[1]), stone(lines[2]), "two colours");
    // Each row is shifted one more place to the right.
    let indent = |line: &str| line.len() - line.trim_start().len();
    assert!(indent(lines[1]) < indent(lines[2]) && indent(lines[2]) < indent(lines[3]));
    assert!(fails(&mut e, "showboard now").contains("no arguments"));
}

#[test]
fn genmove_plays_legal_moves_to_the_end_of_the_game() {
    for size in [1, 2, 5, 7] {
        let mut e = engine_on(size);
        let mut colour = "b";
        let mut n_moves = 0;
        while ok(&mut e, "final_score") == "cannot score" {
            let mv = ok(&mut e, &format!("genmove {colour}"));
            n_moves += 1;
            assert_ne!(mv, "resign");
            // The move is on the board: playing it again is refused.
            let again = fails(&mut e, &format!("play {colour} {mv}"));
            assert!(again.ends_with("(occupied)") || again.contains("game is over"), "{again}");
            colour = if colour == "b" { "w" } else { "b" };
        }
        assert!(n_moves <= (size * size) as usize);
        let score = ok(&mut e, "final_score");
        let expected = match e.position().winner() {
            Some(Color::Black) => "B+",
            Some(Color::White) => "W+",
            None => panic!("the game should be over"),
        };
        assert_eq!(score, expected);
        assert_eq!(ok(&mut e, "genmove b"), "resign");
        assert_eq!(ok(&mut e, "genmove w"), "resign");
    }
}

#[test]
fn reg_genmove_and_all_legal_moves_leave_the_game_alone() {
    let mut e = engine_on(2);
    ok(&mut e, "play b a1");
    assert_eq!(ok(&mut e, "all_legal_moves"), "b1 a2 b2");
    assert_eq!(ok(&mut e, "all_legal_moves w"), "b1 a2 b2");
    let mv = ok(&mut e, "reg_genmove w");
    assert!(["b1", "a2", "b2"].contains(&mv.as_str()), "{mv}");
    assert_eq!(e.position().moves_played(), 1);
    ok(&mut e, "play w b1");
    ok(&mut e, "play b a2");
    assert_eq!(ok(&mut e, "all_legal_moves"), "");
    assert_eq!(ok(&mut e, "reg_genmove w"), "resign");
}

#[test]
fn param_hex_lists_and_sets_the_player_and_its_limits() {
    let mut e = Engine::default();
    assert_eq!(
        ok(&mut e, "param_hex"),
        "[string] player mcts\n[string] time 0.5\n[string] depth 3\n[string] seed 1\n[string] knowledge 200\n[string] solver 0.3\n[string] solver_empty 70\n[string] priors 3\n[string] exploration 0\n[string] rave 500\n[bool] reuse 0\n[bool] playout_patterns 0\n[string] threads 1\n[string] solver_beside 80\n[bool] fill_in 0\n[bool] inferior 0\n[bool] dominated 0\n[bool] fresh_by_prior 0\n[bool] local_priors 1\n[bool] local_playouts 0\n[string] local_scale 1\n[bool] playout_inferior 0\n[string] playout_weights off\n[string] answer_factors off\n[string] playout_table off\n[string] playout_answers off\n[string] rave_prior 0\n[string] rave_counts off\n[string] expand 1\n[string] vc_answers off\n[string] patterns shipped\n[string] answer_patterns off\n[bool] exploration_in_mean 0\n[string] plain_every 0\n[string] first_play_urgency off\n[bool] edge_bridges 0\n[string] verify off\n[string] verify_moves 4\n[bool] captured_regions 0\n[string] prove_after off\n[string] prove_nodes 30\n[string] prove_empty 100\n[string] prove_share 0.3\n[string] eval_mix 0\n[string] eval_scale 0.5\n[string] widening off\n[string] net off\n[string] net_after 50\n[string] net_values 0"
    );
    ok(&mut e, "param_hex player RANDOM");
    ok(&mut e, "param_hex exploration 0.25");
    ok(&mut e, "param_hex rave 800");
    ok(&mut e, "param_hex knowledge 1000");
    ok(&mut e, "param_hex solver 0.25");
    ok(&mut e, "param_hex solver_empty 60");
    for bad in ["-1", "many", "2.5"] {
        assert!(
            fails(&mut e, &format!("param_hex solver_empty {bad}")).contains("solver_empty must be"),
            "{bad}"
        );
    }
    ok(&mut e, "param_hex time 0.25");
    ok(&mut e, "param_hex depth 5");
    ok(&mut e, "param_hex seed 42");
    ok(&mut e, "param_hex priors 1.5");
    assert_eq!(
        ok(&mut e, "param_hex"),
        "[string] player random\n[string] time 0.25\n[string] depth 5\n[string] seed 42\n[string] knowledge 1000\n[string] solver 0.25\n[string] solver_empty 60\n[string] priors 1.5\n[string] exploration 0.25\n[string] rave 800\n[bool] reuse 0\n[bool] playout_patterns 0\n[string] threads 1\n[string] solver_beside 80\n[bool] fill_in 0\n[bool] inferior 0\n[bool] dominated 0\n[bool] fresh_by_prior 0\n[bool] local_priors 1\n[bool] local_playouts 0\n[string] local_scale 1\n[bool] playout_inferior 0\n[string] playout_weights off\n[string] answer_factors off\n[string] playout_table off\n[string] playout_answers off\n[string] rave_prior 0\n[string] rave_counts off\n[string] expand 1\n[string] vc_answers off\n[string] patterns shipped\n[string] answer_patterns off\n[bool] exploration_in_mean 0\n[string] plain_every 0\n[string] first_play_urgency off\n[bool] edge_bridges 0\n[string] verify off\n[string] verify_moves 4\n[bool] captured_regions 0\n[string] prove_after off\n[string] prove_nodes 30\n[string] prove_empty 100\n[string] prove_share 0.3\n[string] eval_mix 0\n[string] eval_scale 0.5\n[string] widening off\n[string] net off\n[string] net_after 50\n[string] net_values 0"
    );
    ok(&mut e, "param_hex rave off");
    assert_eq!((e.settings().exploration, e.settings().rave), (0.25, None));
    for bad in ["-0.1", "inf", "NaN", "wide"] {
        assert!(
            fails(&mut e, &format!("param_hex exploration {bad}")).contains("exploration must be"),
            "{bad}"
        );
    }
    for bad in ["0", "-5", "inf", "always"] {
        assert!(fails(&mut e, &format!("param_hex rave {bad}")).contains("rave must be off or"), "{bad}");
    }
    ok(&mut e, "param_hex rave_prior 8");
    ok(&mut e, "param_hex rave_counts 2.5,800");
    ok(&mut e, "param_hex expand 10");
    assert_eq!(
        (e.settings().rave_prior, e.settings().rave_weight, e.settings().expand),
        (8, RaveWeight::Counts { initial: 2.5, late: 800.0 }, 10)
    );
    assert!(
        ok(&mut e, "param_hex")
            .contains("[string] rave_prior 8\n[string] rave_counts 2.5,800\n[string] expand 10")
    );
    ok(&mut e, "param_hex rave_counts off");
    assert_eq!(e.settings().rave_weight, RaveWeight::Equivalence);
    for bad in ["2", "0,800", "2,-1", "2,inf", "a,b", "2,800,1"] {
        assert!(
            fails(&mut e, &format!("param_hex rave_counts {bad}"))
                .contains("rave_counts must be off or INITIAL,LATE"),
            "{bad}"
        );
    }
    for (name, bad) in
        [("rave_prior", "-1"), ("rave_prior", "many"), ("expand", "1.5"), ("expand", "2000000")]
    {
        assert!(
            fails(&mut e, &format!("param_hex {name} {bad}")).contains(&format!("{name} must be a number")),
            "{bad}"
        );
    }
    // MoHex's selection: the exploration term inside RAVE's mix, plain steps, first-play urgency.
    ok(&mut e, "param_hex exploration_in_mean 1");
    ok(&mut e, "param_hex plain_every 30");
    ok(&mut e, "param_hex first_play_urgency 0.35");
    let s = e.settings();
    assert_eq!((s.exploration_in_mean, s.plain_every, s.first_play_urgency), (true, 30, Some(0.35)));
    assert!(ok(&mut e, "param_hex").contains(
        "[bool] exploration_in_mean 1\n[string] plain_every 30\n[string] first_play_urgency 0.35\n"
    ));
    // Bridge replies that keep the bridges to the own edge in the playouts.
    ok(&mut e, "param_hex edge_bridges 1");
    assert!(e.settings().edge_bridges);
    assert!(ok(&mut e, "param_hex").contains("[bool] edge_bridges 1\n"));
    assert!(fails(&mut e, "param_hex edge_bridges yes").contains("edge_bridges"));
    ok(&mut e, "param_hex edge_bridges 0");
    assert!(!e.settings().edge_bridges);
    ok(&mut e, "param_hex playout_inferior 1");
    assert!(e.settings().playout_inferior && e.settings().mcts_config().playout_inferior);
    assert!(ok(&mut e, "param_hex").contains("[bool] playout_inferior 1\n"));
    assert!(fails(&mut e, "param_hex playout_inferior 2").contains("playout_inferior"));
    ok(&mut e, "param_hex local_scale 12.5");
    assert_eq!(e.settings().mcts_config().local_scale, 12.5);
    assert!(ok(&mut e, "param_hex").contains("[string] local_scale 12.5\n"));
    for bad in ["-1", "nan", "inf", "10001", "x"] {
        assert!(fails(&mut e, &format!("param_hex local_scale {bad}")).contains("local_scale"), "{bad}");
    }
    assert_eq!(e.settings().local_scale, 12.5);
    ok(&mut e, "param_hex captured_regions 1");
    assert!(e.settings().captured_regions);
    assert!(ok(&mut e, "param_hex").contains("[bool] captured_regions 1\n"));
    assert!(fails(&mut e, "param_hex captured_regions 2").contains("captured_regions"));
    ok(&mut e, "param_hex captured_regions 0");
    assert!(!e.settings().captured_regions);
    ok(&mut e, "param_hex prove_after 500");
    ok(&mut e, "param_hex prove_nodes 12");
    ok(&mut e, "param_hex prove_empty 60");
    ok(&mut e, "param_hex prove_share 0.25");
    let s = e.settings();
    assert_eq!((s.prove_after, s.prove_nodes, s.prove_empty, s.prove_share), (Some(500), 12, 60, 0.25));
    assert!(ok(&mut e, "param_hex").contains(
        "[string] prove_after 500\n[string] prove_nodes 12\n[string] prove_empty 60\n[string] prove_share 0.25"
    ));
    for bad in [
        "prove_after 0",
        "prove_after 2.5",
        "prove_after -1",
        "prove_nodes 0",
        "prove_empty 400",
        "prove_share 1.5",
        "prove_share nan",
    ] {
        let name = bad.split(' ').next().unwrap();
        assert!(fails(&mut e, &format!("param_hex {bad}")).contains(name), "{bad}");
    }
    ok(&mut e, "param_hex prove_after off");
    assert_eq!(e.settings().prove_after, None);
    // Progressive widening by prior, and the static evaluation mixed into the playouts.
    ok(&mut e, "param_hex widening 4,200,2");
    assert_eq!(e.settings().widening, Some(Widening { start: 4, visits: 200.0, factor: 2.0 }));
    assert!(ok(&mut e, "param_hex").contains("[string] widening 4,200,2"));
    for bad in ["0,200,2", "4,0,2", "4,200,1", "4,200", "4,200,2,1", "2.5,200,2", "4,inf,2", "wide"] {
        assert!(
            fails(&mut e, &format!("param_hex widening {bad}")).contains("widening must be off or"),
            "{bad}"
        );
    }
    ok(&mut e, "param_hex widening off");
    assert_eq!(e.settings().widening, None);
    ok(&mut e, "param_hex eval_mix 0.3");
    ok(&mut e, "param_hex eval_scale 0.8");
    assert_eq!((e.settings().eval_mix, e.settings().eval_scale), (0.3, 0.8));
    assert!(ok(&mut e, "param_hex").contains("[string] eval_mix 0.3\n[string] eval_scale 0.8\n"));
    for bad in ["eval_mix 1.5", "eval_mix -0.1", "eval_scale -1", "eval_scale nan"] {
        let name = bad.split(' ').next().unwrap();
        assert!(fails(&mut e, &format!("param_hex {bad}")).contains(name), "{bad}");
    }
    ok(&mut e, "param_hex eval_mix 0");
    // The solver's check of the search's most visited moves.
    ok(&mut e, "param_hex verify 0.3");
    ok(&mut e, "param_hex verify_moves 6");
    assert_eq!((e.settings().verify, e.settings().verify_moves), (Some(0.3), 6));
    assert!(ok(&mut e, "param_hex").contains("[string] verify 0.3\n[string] verify_moves 6\n"));
    for bad in ["0", "1", "-0.2", "NaN", "half"] {
        assert!(
            fails(&mut e, &format!("param_hex verify {bad}")).contains("verify must be off or a share"),
            "{bad}"
        );
    }
    assert!(fails(&mut e, "param_hex verify_moves 0").contains("verify_moves must be a number"));
    ok(&mut e, "param_hex verify off");
    assert_eq!(e.settings().verify, None);
    for bad in ["-0.1", "1.5", "NaN", "high"] {
        assert!(
            fails(&mut e, &format!("param_hex first_play_urgency {bad}"))
                .contains("first_play_urgency must be off or a value from 0 to 1"),
            "{bad}"
        );
    }
    assert!(fails(&mut e, "param_hex plain_every -3").contains("plain_every must be a number"));
    assert!(fails(&mut e, "param_hex exploration_in_mean 2").contains("exploration_in_mean"));
    ok(&mut e, "param_hex first_play_urgency off");
    ok(&mut e, "param_hex plain_every 0");
    assert_eq!((e.settings().first_play_urgency, e.settings().plain_every), (None, 0));
    ok(&mut e, "param_hex vc_answers 1.5");
    assert_eq!(e.settings().vc_answers, Some(1.5));
    assert!(ok(&mut e, "param_hex").contains("[string] vc_answers 1.5"));
    for bad in ["0", "-1", "inf", "NaN", "lots"] {
        assert!(
            fails(&mut e, &format!("param_hex vc_answers {bad}")).contains("vc_answers must be off or"),
            "{bad}"
        );
    }
    ok(&mut e, "param_hex vc_answers off");
    assert_eq!(e.settings().vc_answers, None);
    ok(&mut e, "param_hex rave_prior 0");
    ok(&mut e, "param_hex expand 1");
    ok(&mut e, "param_hex reuse 1");
    assert!(e.settings().reuse);
    ok(&mut e, "param_hex reuse off");
    assert!(!e.settings().reuse);
    assert!(fails(&mut e, "param_hex reuse maybe").contains("reuse must be 0 or 1"));
    ok(&mut e, "param_hex playout_patterns 1");
    assert!(e.settings().playout_patterns);
    assert!(ok(&mut e, "param_hex").contains("[bool] playout_patterns 1\n"));
    ok(&mut e, "param_hex playout_patterns false");
    assert!(!e.settings().playout_patterns);
    assert!(fails(&mut e, "param_hex playout_patterns 2").contains("playout_patterns must be 0 or 1"));
    ok(&mut e, "param_hex threads 2");
    assert_eq!(e.settings().threads, 2);
    assert!(ok(&mut e, "param_hex").contains("[string] threads 2\n"));
    ok(&mut e, "param_hex solver_beside 60");
    assert_eq!(e.settings().solver_beside, 60);
    assert!(fails(&mut e, "param_hex solver_beside -1").contains("solver_beside must be"));
    for bad in ["0", "65", "-1", "two"] {
        assert!(
            fails(&mut e, &format!("param_hex threads {bad}"))
                .contains("threads must be a number from 1 to 64"),
            "{bad}"
        );
    }
    ok(&mut e, "param_hex knowledge off");
    ok(&mut e, "param_hex solver none");
    ok(&mut e, "param_hex priors off");
    assert_eq!((e.settings().knowledge, e.settings().solver, e.settings().priors), (None, None, None));
    for bad in ["0", "-1", "inf", "NaN", "strong"] {
        assert!(fails(&mut e, &format!("param_hex priors {bad}")).contains("priors must be off or"), "{bad}");
    }
    for bad in ["-1", "many", "1.5"] {
        assert!(
            fails(&mut e, &format!("param_hex knowledge {bad}")).contains("knowledge must be off or"),
            "{bad}"
        );
    }
    for bad in ["-0.1", "1.5", "half", "NaN"] {
        assert!(fails(&mut e, &format!("param_hex solver {bad}")).contains("solver must be off or"), "{bad}");
    }
    assert_eq!(
        fails(&mut e, "param_hex player deep-blue"),
        "unknown player: deep-blue (players: mcts, strong, random, madeup, coolcow, bridges)"
    );
    for player in ["madeup", "coolcow", "bridges", "strong", "mcts", "random"] {
        ok(&mut e, &format!("param_hex player {player}"));
        assert!(ok(&mut e, "param_hex").starts_with(&format!("[string] player {player}\n")));
    }
    assert!(fails(&mut e, "param_hex depth 0").contains("depth must be a number"));
    assert!(fails(&mut e, "param_hex depth many").contains("depth must be a number"));
    assert!(fails(&mut e, "param_hex seed -1").contains("seed must be a number"));
    for bad in ["0", "-1", "soon", "NaN", "1e9"] {
        assert!(fails(&mut e, &format!("param_hex time {bad}")).contains("time must be a number"), "{bad}");
    }
    assert!(fails(&mut e, "param_hex colour red").starts_with("unknown parameter: colour"));
    assert!(fails(&mut e, "param_hex depth").contains("param_hex [NAME VALUE]"));
    // Refused values change nothing.
    assert_eq!(e.settings().depth, 5);
    assert_eq!(e.settings().seed, 42);
    assert_eq!(e.settings().time, std::time::Duration::from_millis(250));
}

#[test]
fn the_default_player_is_mcts_and_takes_a_win_and_blocks_one() {
    let mut e = Engine::default();
    assert_eq!(e.settings().player, hex::gtp::PlayerKind::Mcts);
    ok(&mut e, "param_hex time 0.05");
    ok(&mut e, "boardsize 3");
    for line in ["play b b1", "play w a1", "play b b2", "play w a2"] {
        ok(&mut e, line);
    }
    ok(&mut e, "genmove b");
    assert_eq!(ok(&mut e, "final_score"), "B+");
    ok(&mut e, "clear_board");
    for line in ["play b b1", "play w b3", "play b b2"] {
        ok(&mut e, line);
    }
    assert_eq!(ok(&mut e, "genmove w"), "a3");
}

#[test]
fn every_listed_player_plays_a_legal_move() {
    let mut e = engine_on(5);
    let players: Vec<String> = hex::gtp::PlayerKind::ALL.iter().map(|k| k.name().to_string()).collect();
    for player in players {
        ok(&mut e, &format!("param_hex player {player}"));
        ok(&mut e, "param_hex depth 1");
        ok(&mut e, "param_hex time 0.02");
        ok(&mut e, "clear_board");
        for colour in ["b", "w", "b"] {
            let mv = ok(&mut e, &format!("genmove {colour}"));
            // The move is on the board: playing it again is refused as occupied.
            assert!(fails(&mut e, &format!("play {colour} {mv}")).ends_with("(occupied)"), "{player}: {mv}");
        }
        assert_eq!(e.position().moves_played(), 3, "{player}");
    }
}

#[test]
fn the_seed_players_take_a_win_in_one_and_block_one() {
    for player in ["madeup", "coolcow", "bridges"] {
        for depth in 1..=3 {
            let mut e = engine_on(3);
            ok(&mut e, &format!("param_hex player {player}"));
            ok(&mut e, &format!("param_hex depth {depth}"));
            // Black b1, b2 against White a1, a2: Black to move wins at a3 or b3.
            for line in ["play b b1", "play w a1", "play b b2", "play w a2"] {
                ok(&mut e, line);
            }
            let mv = ok(&mut e, "genmove b");
            assert_eq!(ok(&mut e, "final_score"), "B+", "{player} depth {depth} played {mv}");
            // Black b1, b2 against White b3: Black would win at a3 only, and White has no win in
            // one, so White must take a3. The searches see the reply from depth 2; the bridges
            // player checks it before any search.
            if depth == 1 && player != "bridges" {
                continue;
            }
            ok(&mut e, "clear_board");
            for line in ["play b b1", "play w b3", "play b b2"] {
                ok(&mut e, line);
            }
            assert_eq!(ok(&mut e, "genmove w"), "a3", "{player} depth {depth}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_moves() {
    let game = |seed: u64| {
        let mut e = engine_on(7);
        ok(&mut e, &format!("param_hex seed {seed}"));
        let mut colour = "b";
        let mut moves = Vec::new();
        while ok(&mut e, "final_score") == "cannot score" {
            moves.push(ok(&mut e, &format!("genmove {colour}")));
            colour = if colour == "b" { "w" } else { "b" };
        }
        moves
    };
    assert_eq!(game(9), game(9));
    assert_ne!(game(9), game(10));
}

#[test]
fn swap_pieces_needs_allow_swap_and_is_whites_second_move() {
    let mut e = engine_on(5);
    assert_eq!(ok(&mut e, "param_game"), "[bool] allow_swap 0\n[string] swap keep\n[string] game_time 1800");
    ok(&mut e, "param_game swap mirror");
    ok(&mut e, "play b b4");
    assert_eq!(
        fails(&mut e, "play w swap-pieces"),
        "illegal move: white swap-pieces (the swap rule is off: param_game allow_swap 1 turns it on)"
    );
    // Turning the rule on applies to the game in progress.
    ok(&mut e, "param_game allow_swap 1");
    assert_eq!(
        ok(&mut e, "param_game"),
        "[bool] allow_swap 1\n[string] swap mirror\n[string] game_time 1800"
    );
    assert_eq!(ok(&mut e, "all_legal_moves"), {
        let mut cells: Vec<String> = Vec::new();
        for row in 1..=5 {
            for col in ['a', 'b', 'c', 'd', 'e'] {
                if (col, row) != ('b', 4) {
                    cells.push(format!("{col}{row}"));
                }
            }
        }
        cells.push("swap-pieces".to_string());
        cells.join(" ")
    });
    assert!(fails(&mut e, "play b swap-pieces").contains("only white may swap"));
    ok(&mut e, "play w swap-pieces");
    // The black stone at b4 (row 3, column 1) is now a white stone at d2 (row 1, column 3).
    let board = e.position().board();
    assert_eq!(board.count(Color::Black), 0);
    assert_eq!(board.get(hex::Cell::new(1, 3)), Some(Color::White));
    assert_eq!(e.position().to_move(), Color::Black);
    assert!(fails(&mut e, "play w swap-pieces").contains("only as the second move"));
    assert!(fails(&mut e, "param_game allow_swap 0").contains("cannot change allow_swap"));
    assert!(fails(&mut e, "param_game swap keep").contains("contains a swap"));
    ok(&mut e, "play b b4");
    ok(&mut e, "undo");
    ok(&mut e, "undo");
    assert_eq!(e.position().board().get(hex::Cell::new(3, 1)), Some(Color::Black));
    assert_eq!(e.position().to_move(), Color::White);
    ok(&mut e, "param_game allow_swap 0");
    assert!(fails(&mut e, "play w swap-pieces").contains("swap rule is off"));
    assert!(fails(&mut e, "param_game allow_swap maybe").contains("0 or 1"));
    assert!(fails(&mut e, "param_game komi 7").starts_with("unknown parameter: komi"));
    assert!(fails(&mut e, "param_game swap sideways").contains("keep or mirror"));
    // The swap is only ever the second move.
    ok(&mut e, "param_game allow_swap 1");
    ok(&mut e, "clear_board");
    assert!(fails(&mut e, "play w swap-pieces").contains("only as the second move"));
}

#[test]
fn genmove_may_swap_when_the_rule_is_on() {
    // On 2x2 the random player picks among three cells and the swap, so some seed swaps; the
    // swapped game then goes on normally.
    let mut swapped = 0;
    for seed in 0..40 {
        let mut e = engine_on(2);
        ok(&mut e, "param_game allow_swap 1");
        ok(&mut e, &format!("param_hex seed {seed}"));
        ok(&mut e, "play b a1");
        if ok(&mut e, "genmove w") == "swap-pieces" {
            swapped += 1;
            // Benzene's convention: the stone stays black and White moves next.
            assert_eq!(e.position().board().get(hex::Cell::new(0, 0)), Some(Color::Black));
            assert_eq!(e.position().to_move(), Color::White);
            assert_ne!(ok(&mut e, "genmove w"), "swap-pieces");
        }
    }
    assert!(swapped > 0, "no seed swapped in 40");
}

#[test]
fn quit_answers_and_then_the_engine_is_silent() {
    let mut e = Engine::default();
    assert!(fails(&mut e, "quit now").contains("no arguments"));
    assert!(!e.has_quit());
    assert_eq!(ask(&mut e, "9 quit"), "=9 \n\n");
    assert!(e.has_quit());
    assert_eq!(e.handle("name"), None);
    assert_eq!(e.handle(""), None);
}

#[test]
fn malformed_lines_are_answered_with_an_error() {
    let mut e = engine_on(3);
    for line in [
        "PLAY b a1",
        "=",
        "?",
        "-1 name",
        "1.5 name",
        "play",
        "genmove",
        "genmove purple",
        "genmove b w",
        "undo 2",
        "final_score please",
        "clear_board 5",
        "list_commands all",
        "param_game allow_swap",
        "play b a1 # a comment does not count",
        "\u{fffd}\u{fffd}",
        "boardsize 99999999999999999999",
        "play b a99999999999999999999",
        "play b ÿ1",
    ] {
        let response = ask(&mut e, line);
        let response = if line.starts_with("play b a1 #") {
            // The only line here that is a good command: the comment is cut off.
            assert_eq!(response, "= \n\n");
            continue;
        } else {
            response
        };
        assert!(response.starts_with('?') && response.ends_with("\n\n"), "{line:?}: {response:?}");
        assert!(!response[..response.len() - 2].contains("\n\n"), "{line:?}: {response:?}");
    }
}

proptest! {
    /// Whatever the line, the engine answers it with one well-framed response (or none, for a
    /// line without a command) and stays usable.
    #[test]
    fn any_line_gets_a_framed_response(lines in prop::collection::vec(
        prop_oneof![
            "[ -~]{0,30}",
            "(play|genmove|undo|boardsize|param_hex|param_game|final_score|showboard) [a-z0-9 -]{0,12}",
            "[0-9]{1,3} (play [bw] [a-f][0-9]|genmove [bw]|undo|boardsize [0-9]{1,2})",
            any::<String>(),
        ],
        1..30,
    )) {
        let mut e = Engine::default();
        // The random player answers genmove at once; the default MCTS one thinks for 0.5 s.
        ok(&mut e, "param_hex player random");
        for line in &lines {
            if line.trim_start().starts_with("quit") || line.split_whitespace().nth(1) == Some("quit") {
                continue;
            }
            let response = e.handle(line).expect("no quit was sent");
            if response.is_empty() {
                let cleaned = line.split('#').next().unwrap_or("");
                prop_assert!(cleaned.chars().all(|c| c.is_whitespace() || c.is_control()), "{line:?}");
            } else {
                prop_assert!(response.starts_with('=') || response.starts_with('?'), "{response:?}");
                prop_assert!(response.ends_with("\n\n"), "{response:?}");
                prop_assert!(!response[..response.len() - 2].contains("\n\n"), "{response:?}");
            }
        }
        prop_assert_eq!(e.handle("name"), Some("= hex-gtp\n\n".to_string()));
    }
}

/// One game of the OpenSpiel trace.
#[derive(serde::Deserialize)]
struct TraceGame {
    size: u32,
    moves: Vec<String>,
    winner: String,
}

/// The OpenSpiel games: `HEX_VECTORS` if set, else the crate's copy; `None` if the file is absent.
fn trace_games() -> Option<Vec<TraceGame>> {
    let path = std::env::var_os("HEX_VECTORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/hex-openspiel.jsonl"));
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("skipping the OpenSpiel replay: cannot read {}: {error}", path.display());
            return None;
        }
    };
    let games = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("bad trace line {line}: {e}")))
        .collect();
    Some(games)
}

#[test]
fn openspiel_games_replayed_through_play_end_with_the_recorded_winner() {
    let Some(games) = trace_games() else { return };
    assert!(!games.is_empty());
    let mut e = Engine::default();
    for (n, game) in games.iter().enumerate() {
        assert_eq!(ask(&mut e, &format!("{n} boardsize {}", game.size)), format!("={n} \n\n"));
        for (i, mv) in game.moves.iter().enumerate() {
            assert_eq!(ok(&mut e, "final_score"), "cannot score", "game {n} before move {i}");
            let colour = if i % 2 == 0 { "black" } else { "white" };
            ok(&mut e, &format!("play {colour} {mv}"));
        }
        let expected = match game.winner.as_str() {
            "black" => "B+",
            "white" => "W+",
            other => panic!("game {n}: unknown winner {other}"),
        };
        assert_eq!(ok(&mut e, "final_score"), expected, "game {n}");
        assert_eq!(ok(&mut e, "genmove b"), "resign", "game {n}");
        // Taking back the winning move reopens the game; playing it again wins again.
        let last = game.moves.last().expect("a game has moves");
        ok(&mut e, "undo");
        assert_eq!(ok(&mut e, "final_score"), "cannot score", "game {n}");
        let colour = if game.moves.len() % 2 == 1 { "b" } else { "w" };
        ok(&mut e, &format!("play {colour} {last}"));
        assert_eq!(ok(&mut e, "final_score"), expected, "game {n}");
    }
    eprintln!("replayed {} OpenSpiel games through play", games.len());
}

/// Runs the `hex-gtp` binary on `input`; its standard output.
fn run_binary(input: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hex-gtp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hex-gtp starts");
    child.stdin.take().expect("a pipe").write_all(input).expect("hex-gtp reads its input");
    let out = child.wait_with_output().expect("hex-gtp runs");
    assert!(out.status.success(), "hex-gtp failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("hex-gtp writes UTF-8")
}

#[test]
fn the_binary_answers_a_scripted_session() {
    let script = "\
# a session as a controller would send it
1 name
2 protocol_version

boardsize 3
play b b1
play w b1
3 play w a1
play b b2
play w a2
final_score
play b b3
final_score
genmove w
undo
final_score
param_hex
frobnicate
quit
name
";
    let expected = "\
=1 hex-gtp

=2 2

= 

= 

? illegal move: white b1 (occupied)

=3 

= 

= 

= cannot score

= 

= B+

= resign

= 

= cannot score

= [string] player mcts
[string] time 0.5
[string] depth 3
[string] seed 1
[string] knowledge 200
[string] solver 0.3
[string] solver_empty 70
[string] priors 3
[string] exploration 0
[string] rave 500
[bool] reuse 0
[bool] playout_patterns 0
[string] threads 1
[string] solver_beside 80
[bool] fill_in 0
[bool] inferior 0
[bool] dominated 0
[bool] fresh_by_prior 0
[bool] local_priors 1
[bool] local_playouts 0
[string] local_scale 1
[bool] playout_inferior 0
[string] playout_weights off
[string] answer_factors off
[string] playout_table off
[string] playout_answers off
[string] rave_prior 0
[string] rave_counts off
[string] expand 1
[string] vc_answers off
[string] patterns shipped
[string] answer_patterns off
[bool] exploration_in_mean 0
[string] plain_every 0
[string] first_play_urgency off
[bool] edge_bridges 0
[string] verify off
[string] verify_moves 4
[bool] captured_regions 0
[string] prove_after off
[string] prove_nodes 30
[string] prove_empty 100
[string] prove_share 0.3
[string] eval_mix 0
[string] eval_scale 0.5
[string] widening off
[string] net off
[string] net_after 50
[string] net_values 0

? unknown command: frobnicate

= 

";
    assert_eq!(run_binary(script.as_bytes()), expected);
}

#[test]
fn the_binary_survives_bad_bytes_and_ends_at_the_end_of_its_input() {
    let mut input = b"boardsize 2\n\xff\xfe play\n".to_vec();
    input.extend_from_slice(b"play b a1\r\ngenmove w\nshowboard");
    let out = run_binary(&input);
    let responses: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 5, "{out:?}");
    assert_eq!(responses[0], "= ");
    assert!(responses[1].starts_with("? unknown command"), "{out:?}");
    assert_eq!(responses[2], "= ");
    assert!(["= b1", "= a2", "= b2"].contains(&responses[3]), "{out:?}");
    assert!(responses[4].starts_with("= \n"), "{out:?}");
    assert!(out.ends_with("\n\n"));
    // No input at all: no output, a clean exit.
    assert_eq!(run_binary(b""), "");
}

#[test]
fn solve_state_names_the_winner() {
    let mut engine = engine_on(3);
    assert_eq!(ok(&mut engine, "solve-state"), "black");
    // Black a1 loses on 2x2, Black b1 wins.
    let mut two = engine_on(2);
    ok(&mut two, "play b a1");
    assert_eq!(ok(&mut two, "solve-state"), "white");
    assert_eq!(ok(&mut two, "solve-state white"), "white");
    // With Black to move again on the same stones, Black wins (b1 or a2 next to a1).
    assert_eq!(ok(&mut two, "solve-state b"), "black");
    assert!(fails(&mut two, "solve-state purple").contains("invalid color"));
    assert!(fails(&mut two, "solve-state b w").contains("at most one"));
    // A finished game: the side that connected.
    for line in ["play w a2", "play b b1", "play w b2"] {
        ok(&mut two, line);
    }
    assert_eq!(ok(&mut two, "solve-state"), "white");
    assert_eq!(ok(&mut two, "find-winning"), "");
    assert_eq!(ok(&mut two, "known_command solve-state"), "true");
    assert!(ok(&mut two, "list_commands").lines().any(|l| l == "find-winning"));
}

#[test]
fn find_winning_lists_every_winning_move_in_cell_order() {
    let mut engine = engine_on(3);
    assert_eq!(ok(&mut engine, "find-winning"), "c1 a2 b2 c2 a3");
    let mut four = engine_on(4);
    assert_eq!(ok(&mut four, "find-winning black"), "d1 c2 b3 a4");
    // After a losing opening the opponent has winning moves.
    ok(&mut four, "play b a1");
    assert_ne!(ok(&mut four, "find-winning"), "");
    // White a2 on 2x2 threatens b1 and b2: Black, to move, has no winning move.
    let mut two = engine_on(2);
    ok(&mut two, "play w a2");
    assert_eq!(ok(&mut two, "find-winning"), "");
    assert_eq!(ok(&mut two, "find-winning w"), "a1 b1 b2");
}

#[test]
fn solver_commands_answer_unknown_past_their_limit() {
    let mut engine = engine_on(12);
    assert!(fails(&mut engine, "solve-state").contains("11x11"));
    let mut nine = engine_on(9);
    ok(&mut nine, "param_solver time 0.2");
    let message = fails(&mut nine, "solve-state");
    assert_eq!(message, "unknown: the solver reached its time limit");
    assert!(fails(&mut nine, "find-winning").starts_with("unknown: "));
}

#[test]
fn param_solver_lists_and_sets_the_time_limit_and_the_table() {
    let mut e = engine_on(4);
    assert_eq!(
        ok(&mut e, "param_solver"),
        "[string] time 10\n[string] table_bits 18\n[string] threads 1\n[bool] captured_regions 1"
    );
    assert_eq!(*e.solver_config(), hex::gtp::SOLVER_CONFIG);
    ok(&mut e, "param_solver time 2.5");
    ok(&mut e, "param_solver table_bits 12");
    assert_eq!(
        ok(&mut e, "param_solver"),
        "[string] time 2.5\n[string] table_bits 12\n[string] threads 1\n[bool] captured_regions 1"
    );
    assert_eq!(e.solver_config().time_limit, Some(std::time::Duration::from_millis(2500)));
    // 0, inf and none all mean no limit, listed as inf.
    for none in ["0", "inf", "INF", "none", "infinity"] {
        ok(&mut e, "param_solver time 1");
        ok(&mut e, &format!("param_solver time {none}"));
        assert_eq!(
            ok(&mut e, "param_solver"),
            "[string] time inf\n[string] table_bits 12\n[string] threads 1\n[bool] captured_regions 1",
            "{none}"
        );
        assert_eq!(e.solver_config().time_limit, None);
    }
    // The settings outlive a new game and apply to both solver commands.
    ok(&mut e, "boardsize 4");
    assert_eq!(ok(&mut e, "solve-state"), "black");
    assert_eq!(ok(&mut e, "find-winning"), "d1 c2 b3 a4");
    assert_eq!(
        ok(&mut e, "param_solver"),
        "[string] time inf\n[string] table_bits 12\n[string] threads 1\n[bool] captured_regions 1"
    );
    for bad in ["-1", "soon", "NaN", "1e10"] {
        assert!(
            fails(&mut e, &format!("param_solver time {bad}")).contains("time must be a number"),
            "{bad}"
        );
    }
    for bad in ["0", "27", "-3", "many"] {
        let message = fails(&mut e, &format!("param_solver table_bits {bad}"));
        assert!(message.contains("table_bits must be a number from 1 to 26"), "{bad}: {message}");
    }
    assert_eq!(
        fails(&mut e, "param_solver depth 2"),
        "unknown parameter: depth (parameters: time, table_bits, threads, captured_regions)"
    );
    for bad in ["0", "65", "two"] {
        let message = fails(&mut e, &format!("param_solver threads {bad}"));
        assert!(message.contains("threads must be a number from 1 to 64"), "{bad}: {message}");
    }
    assert!(fails(&mut e, "param_solver time").contains("param_solver [NAME VALUE]"));
    assert_eq!(
        fails(&mut e, "param_solver captured_regions yes"),
        "captured_regions must be 0 or 1, not yes"
    );
    // Refused values change nothing.
    assert_eq!(
        ok(&mut e, "param_solver"),
        "[string] time inf\n[string] table_bits 12\n[string] threads 1\n[bool] captured_regions 1"
    );
    assert_eq!(ok(&mut e, "known_command param_solver"), "true");
    assert!(ok(&mut e, "hexgui-analyze_commands").lines().any(|l| l.ends_with("/param_solver")));
    // Two threads on one table give the same answers.
    ok(&mut e, "param_solver threads 2");
    assert_eq!(e.solver_config().threads, 2);
    assert_eq!(
        ok(&mut e, "param_solver"),
        "[string] time inf\n[string] table_bits 12\n[string] threads 2\n[bool] captured_regions 1"
    );
    assert_eq!(ok(&mut e, "solve-state"), "black");
    ok(&mut e, "play b a1");
    assert_eq!(ok(&mut e, "solve-state"), "white");
    // Captured regions off: listed, and the same answer.
    ok(&mut e, "param_solver captured_regions 0");
    assert!(!e.solver_config().captured_regions);
    assert!(ok(&mut e, "param_solver").ends_with("[bool] captured_regions 0"));
    assert_eq!(ok(&mut e, "solve-state"), "white");
}

#[test]
fn the_streams_of_cargo_xtask_hex_solve_vs_are_answered() {
    // The exact commands hex-solve-vs sends: the board, the moves with full colour names
    // alternating from Black, the setup, the solve command, quit.
    let mut e = Engine::default();
    for line in ["boardsize 5 5", "play black c3", "play white b4", "param_solver time 0"] {
        ok(&mut e, line);
    }
    assert_eq!(ask(&mut e, "solve-state"), "= black\n\n");
    assert_eq!(ask(&mut e, "7 solve-state"), "=7 black\n\n");
    assert_eq!(ask(&mut e, "quit"), "= \n\n");
    // Start-up alone: the board size and quit.
    let mut startup = Engine::default();
    assert_eq!(ask(&mut startup, "boardsize 8 8"), "= \n\n");
    assert_eq!(ask(&mut startup, "quit"), "= \n\n");
}

#[test]
fn swap_pieces_keeps_the_stone_and_white_moves_next_as_in_benzene() {
    let mut e = engine_on(5);
    ok(&mut e, "param_game allow_swap 1");
    ok(&mut e, "play b b4");
    ok(&mut e, "play w swap-pieces");
    let board = *e.position().board();
    assert_eq!(board.get(hex::Cell::new(3, 1)), Some(Color::Black));
    assert_eq!(board.count(Color::Black) + board.count(Color::White), 1);
    assert_eq!(e.position().to_move(), Color::White);
    assert!(fails(&mut e, "play w swap-pieces").contains("only as the second move"));
    // The program that placed the stone now plays White: it is asked `genmove w`.
    let mv = ok(&mut e, "genmove w");
    assert_ne!(mv, "swap-pieces");
    assert_eq!(e.position().to_move(), Color::Black);
    // Undo takes back the move, then the swap.
    ok(&mut e, "undo");
    ok(&mut e, "undo");
    assert_eq!(e.position().board().get(hex::Cell::new(3, 1)), Some(Color::Black));
    assert!(e.position().can_swap());
}

#[test]
fn play_resign_ends_the_game_and_final_score_names_the_winner() {
    let mut e = engine_on(5);
    ok(&mut e, "play b c3");
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    ok(&mut e, "play w resign");
    assert_eq!(e.resigned(), Some(Color::White));
    assert_eq!(ok(&mut e, "final_score"), "B+");
    assert_eq!(ok(&mut e, "genmove b"), "resign");
    assert_eq!(fails(&mut e, "play b d4"), "illegal move: black d4 (the game is over: white resigned)");
    assert!(fails(&mut e, "play b resign").contains("white resigned"));
    // Undo takes back the resignation first.
    ok(&mut e, "undo");
    assert_eq!(e.resigned(), None);
    assert_eq!(ok(&mut e, "final_score"), "cannot score");
    ok(&mut e, "play w d4");
    // The driver relays the loser's resignation after a connection too.
    let mut done = engine_on(2);
    for line in ["play b a1", "play w b1", "play b a2"] {
        ok(&mut done, line);
    }
    assert_eq!(ok(&mut done, "genmove w"), "resign");
    ok(&mut done, "play w resign");
    assert_eq!(ok(&mut done, "final_score"), "B+");
    ok(&mut done, "clear_board");
    assert_eq!(done.resigned(), None);
}

#[test]
fn clocks_start_at_game_time_and_time_left_reads_and_sets_them() {
    let mut e = engine_on(5);
    assert_eq!(ok(&mut e, "time_left"), "Black: 1800, White: 1800");
    ok(&mut e, "param_game game_time 60");
    assert_eq!(ok(&mut e, "time_left w"), "60");
    ok(&mut e, "time_left b 12.5");
    ok(&mut e, "time_left white 30 0");
    assert_eq!(ok(&mut e, "time_left"), "Black: 12.5, White: 30");
    assert_eq!(e.time_left(Color::Black), 12.5);
    for bad in ["-1", "soon", "NaN", "inf"] {
        assert!(fails(&mut e, &format!("time_left b {bad}")).contains("number of seconds"), "{bad}");
        assert!(fails(&mut e, &format!("param_game game_time {bad}")).contains("number of seconds"), "{bad}");
    }
    assert!(fails(&mut e, "time_left b 1 many").contains("stones"));
    assert!(fails(&mut e, "time_left purple").contains("invalid color"));
    // A played genmove runs the mover's clock, a reg_genmove does not.
    ok(&mut e, "genmove b");
    assert!(e.time_left(Color::Black) <= 12.5);
    assert_eq!(e.time_left(Color::White), 30.0);
    assert!(fails(&mut e, "param_game game_time 10").contains("once the game has started"));
    // A new game restarts both clocks at the game time.
    ok(&mut e, "clear_board");
    assert_eq!(ok(&mut e, "time_left"), "Black: 60, White: 60");
    assert!(ok(&mut e, "list_commands").lines().any(|c| c == "time_left"));
}

#[test]
fn a_low_clock_cuts_the_search_time_but_still_plays() {
    let mut e = engine_on(7);
    ok(&mut e, "param_hex player mcts");
    ok(&mut e, "param_hex time 30");
    ok(&mut e, "time_left b 0");
    // With no time left the search gets the least time, not thirty seconds.
    let started = std::time::Instant::now();
    let mv = ok(&mut e, "genmove b");
    assert!(mv.len() >= 2 && mv != "resign", "{mv}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert_eq!(e.time_left(Color::Black), 0.0);
}

#[test]
fn no_response_contains_an_empty_line() {
    let mut e = engine_on(4);
    for line in ["showboard", "param_game", "param_hex", "param_solver", "list_commands", "time_left"] {
        let response = ask(&mut e, line);
        let body = response.strip_suffix("\n\n").expect("framed");
        assert!(!body.contains("\n\n"), "{line}: {response:?}");
    }
}

/// One command of a recorded session and the response the engine gave then.
struct Exchange {
    command: String,
    response: String,
}

/// Reads a `hex-gtp --logfile-name` log: `>command` lines, each followed by its `<response`
/// lines (the response's final empty line is a lone `<`).
fn read_log(text: &str) -> Vec<Exchange> {
    let mut exchanges: Vec<Exchange> = Vec::new();
    for line in text.lines() {
        if let Some(command) = line.strip_prefix('>') {
            exchanges.push(Exchange { command: command.to_string(), response: String::new() });
        } else if let Some(response) = line.strip_prefix('<') {
            let last = exchanges.last_mut().expect("a response follows a command");
            last.response.push_str(response);
            last.response.push('\n');
        } else {
            panic!("not a log line: {line:?}");
        }
    }
    exchanges
}

#[test]
fn replays_command_streams_recorded_from_benzenes_tournament_driver() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/benzene-tournament");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    let mut resigns_relayed = 0;
    let mut swaps = 0;
    for path in files {
        let exchanges = read_log(&std::fs::read_to_string(&path).unwrap());
        assert!(exchanges.len() > 10, "{}", path.display());
        // As `--config ours.htp` set it up, with a fast player: a genmove's answer is replaced by
        // the recorded move below, so the game follows the recording.
        let mut e = Engine::default();
        ok(&mut e, "param_game allow_swap 1");
        ok(&mut e, "param_hex player random");
        for Exchange { command, response } in &exchanges {
            let ours = ask(&mut e, command);
            let context = format!("{}: {command:?}", path.display());
            assert!(ours.starts_with("= ") && ours.ends_with("\n\n"), "{context}: {ours:?}");
            assert!(!ours.trim_end_matches('\n').contains("\n\n"), "{context}: {ours:?}");
            let words: Vec<&str> = command.split_whitespace().collect();
            match words[..] {
                ["genmove", color] => {
                    let recorded = response.strip_prefix("= ").unwrap().trim();
                    let answered = ours.strip_prefix("= ").unwrap().trim();
                    if answered != recorded {
                        assert_ne!(answered, "resign", "{context}: the game is not over here");
                        assert_ne!(recorded, "resign", "{context}: the game is over here");
                        ok(&mut e, "undo");
                        ok(&mut e, &format!("play {color} {recorded}"));
                    }
                    swaps += usize::from(recorded == "swap-pieces");
                }
                ["version"] => assert_eq!(ours, format!("= {}\n\n", env!("CARGO_PKG_VERSION"))),
                _ => {
                    assert_eq!(&ours, response, "{context}");
                    resigns_relayed += usize::from(words.get(2) == Some(&"resign"));
                    swaps += usize::from(words.get(2) == Some(&"swap-pieces"));
                }
            }
        }
        assert!(e.has_quit(), "{}: the session ends with quit", path.display());
    }
    assert_eq!(resigns_relayed, 1);
    assert_eq!(swaps, 2);
}

/// Every listed command is dispatched (none answers "unknown command") and known; an unlisted
/// one is neither.
#[test]
fn the_command_list_and_the_dispatch_agree() {
    let mut e = Engine::default();
    for command in COMMANDS {
        if command == "quit" {
            continue;
        }
        let answer = e.handle(command).unwrap();
        assert!(!answer.contains("unknown command"), "{command}: {answer}");
        assert_eq!(ok(&mut e, &format!("known_command {command}")), "true");
    }
    assert_eq!(ok(&mut e, "known_command frobnicate"), "false");
    assert!(e.handle("frobnicate").unwrap().starts_with("? unknown command"));
}

/// The framing the engine writes is the framing the referee reads: every response of a session
/// parses back, ids and all, with the text the engine meant.
#[test]
fn responses_parse_back() {
    use hex::gtp::{Answer, frame, parse_response};
    for (id, result) in [
        ("", Ok("c3".to_string())),
        ("12", Ok(String::new())),
        ("3", Ok("line one\n\nline three\n".to_string())),
        ("", Err("illegal move: c3 is occupied".to_string())),
    ] {
        let framed = frame(id, result.clone());
        assert!(framed.ends_with("\n\n") && !framed.trim_end().contains("\n\n"), "{framed:?}");
        let expected = match result {
            Ok(text) => {
                Answer::Success(text.lines().filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n"))
            }
            Err(message) => Answer::Failure(message),
        };
        assert_eq!(parse_response(framed.trim_end_matches('\n')), Some(expected));
    }
    assert_eq!(parse_response("= "), Some(Answer::Success(String::new())));
    assert_eq!(parse_response("=c3"), None);
    assert_eq!(parse_response(""), None);
}

/// `vc-between-cells-full` and `-semi`: H-search's connections between cells and edges, in
/// the format the module docs give, with clear errors for ends that are no ends.
#[test]
fn connections_between_cells_and_edges() {
    let mut e = engine_on(8);
    for line in ["play b e4", "play w e5", "play b d6", "play w d5", "play b g3", "play w f4"] {
        ok(&mut e, line);
    }
    // White's group d5-e5-f4 reaches the right edge round Black's g3: one 13-cell carrier,
    // the same whichever stone of the group names it.
    let carrier = "[h3 g4 h4 f5 g5 h5 e6 f6 g6 h6 f7 g7 h7]";
    assert_eq!(ok(&mut e, "vc-between-cells-full white d5 east"), carrier);
    assert_eq!(ok(&mut e, "vc-between-cells-full w f4 EAST"), carrier);
    // Adjacent ends: a connection with an empty carrier.
    assert_eq!(ok(&mut e, "vc-between-cells-full white e6 d5"), "[]");
    // No VC between White's edges, only semi-connections, each a key inside its carrier.
    assert_eq!(ok(&mut e, "vc-between-cells-full white west east"), "");
    let semis = ok(&mut e, "vc-between-cells-semi white west east");
    assert!(!semis.is_empty());
    for line in semis.lines() {
        let (key, carrier) = line.split_once(' ').expect("key and carrier");
        let cells: Vec<&str> = carrier.trim_matches(['[', ']']).split(' ').collect();
        assert!(cells.contains(&key), "{line}");
    }
    // Black's view of the same board: its edges are north and south.
    assert!(!ok(&mut e, "vc-between-cells-full black e4 north").is_empty());
    assert_eq!(
        fails(&mut e, "vc-between-cells-full white north east"),
        "north is not one of white's edges (west and east)"
    );
    assert_eq!(fails(&mut e, "vc-between-cells-full white e4 east"), "e4 holds a black stone");
    assert_eq!(fails(&mut e, "vc-between-cells-semi white d5 f4"), "both ends are the same");
    assert!(fails(&mut e, "vc-between-cells-full white z9 east").contains("off the 8x8 board"));
    assert!(fails(&mut e, "vc-between-cells-full purple d5 east").contains("invalid color"));
    assert!(fails(&mut e, "vc-between-cells-full white d5").contains("3 arguments"));
    // The solver's board limit applies.
    let mut big = engine_on(12);
    assert!(fails(&mut big, "vc-between-cells-full black a1 north").contains("up to 11x11"));
}

/// How many players the counting factory below has built.
static BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn counting_factory(settings: &hex::gtp::Settings) -> Box<dyn hex::HexPlayer> {
    BUILT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    hex::gtp::default_player(settings)
}

#[test]
fn a_clock_running_low_keeps_the_player_and_other_settings_rebuild_it() {
    let mut e = Engine::new(counting_factory);
    ok(&mut e, "boardsize 7 7");
    ok(&mut e, "param_hex player mcts");
    ok(&mut e, "param_hex time 0.2");
    // Two seconds for the game: every move gets a share of what is left, a little less each
    // time, so the search time changes from move to move.
    ok(&mut e, "time_left b 2");
    let before = BUILT.load(std::sync::atomic::Ordering::SeqCst);
    for _ in 0..3 {
        ok(&mut e, "genmove b");
        ok(&mut e, "genmove w");
    }
    assert_eq!(BUILT.load(std::sync::atomic::Ordering::SeqCst) - before, 1, "one player for the whole game");
    // Any other setting builds a new player.
    ok(&mut e, "param_hex seed 9");
    ok(&mut e, "genmove b");
    assert_eq!(BUILT.load(std::sync::atomic::Ordering::SeqCst) - before, 2);
}

/// `param_hex patterns FILE` reads the priors' weights from a file, lists its name, plays with
/// it, names the file in its errors (and keeps the weights it had), and `shipped` goes back.
#[test]
fn param_hex_patterns_reads_a_weights_file() {
    let dir = std::env::temp_dir().join(format!("hex-gtp-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("flat.txt");
    std::fs::write(&good, "hex-patterns 1\n# every pattern as strong as any other\n").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "hex-patterns 1\n00a4 strong\n").unwrap();
    let missing = dir.join("missing.txt");
    let mut e = Engine::default();
    let listed = |e: &mut Engine| {
        let all = ok(e, "param_hex");
        all.lines().find(|line| line.starts_with("[string] patterns ")).unwrap().to_string()
    };
    assert_eq!(listed(&mut e), "[string] patterns shipped");
    ok(&mut e, &format!("param_hex patterns {}", good.display()));
    assert_eq!(listed(&mut e), format!("[string] patterns {}", good.display()));
    assert_eq!(e.settings().patterns.map(|p| p.weights.len()), Some(0));
    ok(&mut e, "boardsize 5 5");
    ok(&mut e, "param_hex time 0.05");
    let answer = ok(&mut e, "genmove b");
    assert!(hex::parse_move(&answer, 5).is_ok(), "{answer}");
    let err = fails(&mut e, &format!("param_hex patterns {}", bad.display()));
    assert!(err.contains(&bad.display().to_string()) && err.contains("line 2"), "{err}");
    let err = fails(&mut e, &format!("param_hex patterns {}", missing.display()));
    assert!(err.contains("cannot read") && err.contains(&missing.display().to_string()), "{err}");
    assert_eq!(
        listed(&mut e),
        format!("[string] patterns {}", good.display()),
        "a failed load changes nothing"
    );
    ok(&mut e, "param_hex patterns shipped");
    assert_eq!(listed(&mut e), "[string] patterns shipped");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `param_hex answer_patterns FILE`, `playout_weights FILE`, `answer_factors FILE`,
/// `playout_table FILE` and `playout_answers FILE` each read a
/// table, list its name, play with it after the opponent's stone, name the file in their errors
/// (and keep the table they had), and `off` turns them off. The answer table reads a file in the
/// edge code too; the playouts' tables refuse one, since the playouts keep stones codes.
#[test]
fn param_hex_table_files_read_list_play_and_fail_cleanly() {
    let dir = std::env::temp_dir().join(format!("hex-gtp-answers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("answers.txt");
    // The pattern of a cell beside a lone stone, and one more, strongly favoured.
    std::fs::write(&good, "hex-patterns 1\n000002 50\n000008 40.5\n").unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "hex-patterns 1\n000002 0\n").unwrap();
    let edges = dir.join("edges.txt");
    std::fs::write(&edges, "hex-patterns 1 edges\n000002 50\n").unwrap();
    type Field = fn(&hex::gtp::Settings) -> Option<hex::gtp::PatternsFile>;
    let tables: [(&str, Field); 5] = [
        ("answer_patterns", |s| s.answer_patterns),
        ("playout_weights", |s| s.playout_weights),
        ("answer_factors", |s| s.answer_factors),
        ("playout_table", |s| s.playout_table),
        ("playout_answers", |s| s.playout_answers),
    ];
    for (name, field) in tables {
        let mut e = Engine::default();
        let listed = |e: &mut Engine| {
            let all = ok(e, "param_hex");
            all.lines().find(|l| l.starts_with(&format!("[string] {name} "))).unwrap().to_string()
        };
        assert_eq!(listed(&mut e), format!("[string] {name} off"));
        ok(&mut e, &format!("param_hex {name} {}", good.display()));
        assert_eq!(listed(&mut e), format!("[string] {name} {}", good.display()));
        assert_eq!(field(e.settings()).map(|p| p.weights.get(2)), Some(Some(50.0)), "{name}");
        ok(&mut e, "boardsize 5 5");
        ok(&mut e, "param_hex time 0.05");
        ok(&mut e, "play b c3");
        let answer = ok(&mut e, "genmove w");
        assert!(hex::parse_move(&answer, 5).is_ok(), "{name}: {answer}");
        let err = fails(&mut e, &format!("param_hex {name} {}", bad.display()));
        assert!(err.contains(&bad.display().to_string()) && err.contains("line 2"), "{err}");
        assert_eq!(
            listed(&mut e),
            format!("[string] {name} {}", good.display()),
            "a failed load changes nothing"
        );
        if name == "answer_patterns" {
            ok(&mut e, &format!("param_hex {name} {}", edges.display()));
            ok(&mut e, "genmove w");
        } else {
            let err = fails(&mut e, &format!("param_hex {name} {}", edges.display()));
            assert!(err.contains("Edges code") && err.contains(&edges.display().to_string()), "{err}");
        }
        ok(&mut e, &format!("param_hex {name} off"));
        assert_eq!(listed(&mut e), format!("[string] {name} off"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `param_hex net FILE` reads a convolutional policy, lists its file, plays with it, names the
/// file in its errors (keeping the network it had), and `off` turns it off.
#[test]
fn param_hex_net_reads_lists_plays_and_fails_cleanly() {
    let dir = std::env::temp_dir().join(format!("hex-gtp-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("net.txt");
    hex::net::PolicyNet::random(4, 2, 3).write(&good).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "hex-policy-net 1\n4 2\n0.5\n").unwrap();
    let mut e = Engine::default();
    let listed = |e: &mut Engine| {
        let all = ok(e, "param_hex");
        all.lines().find(|l| l.starts_with("[string] net ")).unwrap().to_string()
    };
    assert_eq!(listed(&mut e), "[string] net off");
    ok(&mut e, &format!("param_hex net {}", good.display()));
    assert_eq!(listed(&mut e), format!("[string] net {}", good.display()));
    assert_eq!(e.settings().net.map(|n| n.net.channels()), Some(4));
    ok(&mut e, "boardsize 5 5");
    ok(&mut e, "param_hex time 0.05");
    ok(&mut e, "play b c3");
    let answer = ok(&mut e, "genmove w");
    assert!(hex::parse_move(&answer, 5).is_ok(), "{answer}");
    for file in [bad.clone(), dir.join("missing.txt")] {
        let err = fails(&mut e, &format!("param_hex net {}", file.display()));
        assert!(err.contains(&file.display().to_string()), "{err}");
        assert_eq!(
            listed(&mut e),
            format!("[string] net {}", good.display()),
            "a failed load changes nothing"
        );
    }
    ok(&mut e, "param_hex net_after 10");
    assert_eq!(e.settings().mcts_config().net_after, 10);
    assert!(ok(&mut e, "param_hex").lines().any(|l| l == "[string] net_after 10"));
    assert!(fails(&mut e, "param_hex net_after -1").contains("net_after"));
    ok(&mut e, "genmove w");
    ok(&mut e, "param_hex net_values 40");
    assert_eq!(e.settings().mcts_config().net_values, 40);
    assert!(ok(&mut e, "param_hex").lines().any(|l| l == "[string] net_values 40"));
    assert!(fails(&mut e, "param_hex net_values many").contains("net_values"));
    ok(&mut e, "genmove w");
    ok(&mut e, "param_hex net off");
    assert_eq!(listed(&mut e), "[string] net off");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `param_hex dominated` switches the pruning of dominated cells at new nodes, lists it, and
/// refuses what is not a switch; a short search with it answers a legal move.
#[test]
fn param_hex_dominated_switches_the_pruning_at_new_nodes() {
    let mut e = Engine::default();
    assert!(!e.settings().dominated);
    ok(&mut e, "param_hex dominated 1");
    assert!(e.settings().dominated);
    assert!(ok(&mut e, "param_hex").contains("[bool] dominated 1\n"));
    assert!(fails(&mut e, "param_hex dominated maybe").contains("dominated"));
    assert!(e.settings().dominated);
    ok(&mut e, "boardsize 5");
    ok(&mut e, "param_hex time 0.05");
    ok(&mut e, "play b c3");
    let answer = ok(&mut e, "genmove w");
    assert!(hex::parse_cell(&answer, 5).is_ok() || answer == "resign", "{answer}");
    ok(&mut e, "param_hex dominated 0");
    assert!(!e.settings().dominated);
}
