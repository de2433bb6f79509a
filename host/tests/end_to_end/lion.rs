//! Mighty Lion chess through stdin and stdout as xboard plays it: moves of two
//! legs read as `d4d5,d5d6` and written as one `move` line a leg, the lifted
//! lion's first-leg victims shown in cyan and, after `put`, where it may end,
//! and the lion-trading rules refereed.

use crate::common;

use common::Engine;

fn lion_engine() -> Engine {
    let (engine, features, said) = Engine::in_variant("lion");
    assert!(features.contains("highlight=1"), "{features}");
    // xboard is told the lion's moves as the engine plays them.
    assert!(said.iter().any(|line| line == "piece L& KNADcaKcabKmabK"), "{said:?}");
    engine
}

/// Two black pawns in a column in front of the white lion.
const PAWNS_IN_FRONT: &str = "7k/8/3p4/3p4/3L4/8/8/4K3 w - - 0 1";

/// The colour `highlight`'s board gives `square` (`d5`), if any.
fn colour_at(line: &str, square: &str) -> Option<char> {
    let board = line.strip_prefix("highlight ").unwrap_or_else(|| panic!("not a highlight: {line}"));
    let (file, rank) = (square.as_bytes()[0] - b'a', square[1..].parse::<usize>().unwrap());
    let row = board.split('/').nth(8 - rank).unwrap();
    let mut at = 0u8;
    for c in row.chars() {
        if let Some(empty) = c.to_digit(10) {
            at += empty as u8;
        } else {
            if at == file {
                return Some(c);
            }
            at += 1;
        }
        if at > file {
            return None;
        }
    }
    None
}

#[test]
fn moves_of_two_legs_are_read_as_xboard_sends_them() {
    let mut engine = lion_engine();
    engine.send(&format!("setboard {PAWNS_IN_FRONT}"));
    // The lion takes both pawns; Black's king steps; the lion passes (out to
    // an empty square and back, or `@@@@`); a leg that ends where it began is no
    // move, nor are legs that do not meet.
    engine.send("usermove d4d5,d5d6");
    engine.send("usermove h8g8");
    engine.send("usermove d6d7,d7d6");
    engine.send("usermove g8h8");
    // The documents' null move, as HaChu sends the lion's pass.
    engine.send("usermove @@@@");
    engine.send("usermove h8g8");
    engine.send("usermove d6d7,d7d7");
    engine.send("usermove d6c7,d7d6");
    engine.send("usermove d6d7,d7d6");
    let lines = engine.said_but_pieces(1);
    assert_eq!(
        lines,
        ["Illegal move (not legal in this position): d6d7,d7d7", "Illegal move (not a move): d6c7,d7d6",]
    );
    // Igui: the lion takes beside it and stays; undo puts the pawn back.
    engine.send(&format!("setboard {PAWNS_IN_FRONT}"));
    engine.send("usermove d4d5,d5d4");
    engine.send("undo");
    engine.send("usermove d4d5,d5c6");
    assert_eq!(engine.said_but_pieces(2), Vec::<String>::new());
    engine.send("quit");
}

#[test]
fn the_engine_writes_each_leg_of_its_move_on_a_move_line() {
    let mut engine = lion_engine();
    // Queen and rook stand in a column in front of the lion: both fall to one move.
    engine.send("setboard k7/8/3r4/3q4/3L4/8/8/7K w - - 0 1");
    engine.send("sd 3");
    engine.send("go");
    let first = engine.expect_move();
    assert_eq!(first, "d4d5,");
    let second = engine.next_line(std::time::Duration::from_secs(10));
    assert_eq!(second.as_deref(), Some("move d5d6"));
    engine.send("quit");
}

#[test]
fn a_lifted_lion_shows_its_victims_in_cyan_then_where_it_may_end() {
    let mut engine = lion_engine();
    engine.send(&format!("setboard {PAWNS_IN_FRONT}"));
    engine.send("lift d4");
    let lines = engine.said_but_pieces(1);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(colour_at(&lines[0], "d5"), Some('C'), "the pawn it may take and go on from: {}", lines[0]);
    assert_eq!(colour_at(&lines[0], "d6"), Some('R'), "{}", lines[0]);
    assert_eq!(colour_at(&lines[0], "b2"), Some('Y'), "{}", lines[0]);
    assert_eq!(colour_at(&lines[0], "d4"), None, "{}", lines[0]);
    // Put down on the pawn, lifted again there: on to take the second pawn,
    // back home (igui), aside, or stop on d5.
    engine.send("put d5");
    engine.send("lift d5");
    let lines = engine.said_but_pieces(2);
    assert_eq!(lines.len(), 1, "{lines:?}");
    for (square, colour) in [("d6", 'R'), ("d5", 'R'), ("d4", 'Y'), ("c6", 'Y'), ("e4", 'Y')] {
        assert_eq!(colour_at(&lines[0], square), Some(colour), "{square}: {}", lines[0]);
    }
    assert_eq!(colour_at(&lines[0], "b2"), None, "{}", lines[0]);
    // A plain move put down on e1, then the king lifted from there: its own moves.
    engine.send("setboard 7k/8/8/8/8/8/8/3K4 w - - 0 1");
    engine.send("lift d1");
    engine.send("put e1");
    engine.send("usermove d1e1");
    engine.send("usermove h8g8");
    engine.send("lift e1");
    let lines = engine.said_but_pieces(3);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(colour_at(&lines[1], "e2"), Some('Y'), "{}", lines[1]);
    engine.send("quit");
}

#[test]
fn lions_are_not_traded_off() {
    let mut engine = lion_engine();
    // The black lion is protected by a pawn: taking it from afar is refused.
    engine.send("setboard 4k3/4p3/3l4/8/3L4/8/8/4K3 w - - 0 1");
    engine.send("usermove d4d6");
    assert_eq!(engine.said_but_pieces(1), ["Illegal move (not legal in this position): d4d6"]);
    // A rook takes a lion: the bishop may not take the other at once.
    engine.send("setboard 4k3/8/8/7b/3l4/5L2/8/3RK3 w - - 0 1");
    engine.send("usermove d1d4");
    engine.send("usermove h5f3");
    engine.send("usermove h5g6");
    assert_eq!(engine.said_but_pieces(2), ["Illegal move (not legal in this position): h5f3"]);
    engine.send("quit");
}
