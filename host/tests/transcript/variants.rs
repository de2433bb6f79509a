//! `variant`: normal chess and Fischer random; other variants are refused.

use crate::harness::Transcript;

#[test]
fn fischer_random_castles_by_the_chess960_rules() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "variant fischerandom", "ping 1"]), ["pong 1"]);
    // King b1 beside rook a1: its lowest move is castling queen-side, king-takes-rook b1a1,
    // which the GUI must see as O-O-O.
    t.say(&["setboard rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1"]);
    assert_eq!(t.say(&["go"]), ["move O-O-O"]);
    // Black castles king-side, as the GUI writes it; the scripted engine answers.
    let reply = t.say(&["O-O"]);
    assert!(reply.len() == 1 && reply[0].starts_with("move "), "{reply:?}");
}

#[test]
fn variant_normal_is_plain_chess() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "variant normal", "e2e4"]), ["move a7a5"]);
}

#[test]
fn variants_not_announced_are_refused() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(
        t.say(&["new", "variant atomic", "variant crazyhouse"]),
        ["Error (unsupported variant): variant atomic", "Error (unsupported variant): variant crazyhouse"]
    );
    // The game goes on as normal chess.
    assert_eq!(t.say(&["e2e4"]), ["move a7a5"]);
}
