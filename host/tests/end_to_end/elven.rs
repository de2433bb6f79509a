//! Elven chess through stdin and stdout as xboard plays it: crownings read
//! and written with `+` (the knight's making a lion), a pawn's lion, the king's
//! castling three squares, and black without castling, as xboard starts it.

use crate::common;

use common::Engine;

fn elven_engine() -> Engine {
    Engine::in_variant("elven").0
}

/// White: bishops on c4 and b7 (inside the zone), a knight on b5, a pawn on
/// h6; ranks are counted from 0 on a board of ten.
const CROWNING: &str = "4k5/10/1B8/7P2/1N8/2B7/10/10/10/R4K3R w KQ - 0 1";

#[test]
fn crownings_and_the_pawns_lion_are_read_as_xboard_sends_them() {
    let mut engine = elven_engine();
    engine.send(&format!("setboard {CROWNING}"));
    // Within the zone there is no crowning; entering it there is.
    engine.send("usermove b7c8+");
    engine.send("usermove c4f7+");
    engine.send("usermove e9f9");
    // The knight crowned is a lion, so the pawn may not choose another.
    engine.send("usermove b5a7+");
    engine.send("usermove f9e9");
    engine.send("usermove h6h7l");
    engine.send("usermove h6h7");
    engine.send("usermove h6h7q");
    let lines = engine.said_but_pieces(1);
    assert_eq!(
        lines,
        [
            "Illegal move (not legal in this position): b7c8+",
            "Illegal move (not legal in this position): h6h7l",
            "Illegal move (not legal in this position): h6h7",
        ]
    );
}

#[test]
fn the_engine_crowns_its_knight_with_a_plus() {
    let mut engine = elven_engine();
    // A lone knight beside the zone against a lone king: the lion it can
    // become is worth five knights.
    engine.send("setboard 9k/10/10/10/1N8/10/10/10/10/K9 w - - 0 1");
    engine.send("sd 3");
    engine.send("go");
    let played = engine.expect_move();
    assert!(["b5a7+", "b5c7+"].contains(&played.as_str()), "{played}");
}

#[test]
fn white_castles_three_squares_and_black_not_at_all_from_the_start() {
    let mut engine = elven_engine();
    engine.send("usermove f0i0");
    // Black's way to h9 is clear, but xboard's start gives black no rights.
    engine.send("usermove e9h9");
    engine.send("usermove e9f9");
    // The rook went from j0 to h0, the king from f0 to i0.
    engine.send("usermove h0g0");
    engine.send("usermove f9e9");
    engine.send("usermove i0j0");
    let lines = engine.said_but_pieces(1);
    assert_eq!(lines, ["Illegal move (not legal in this position): e9h9"]);
}
