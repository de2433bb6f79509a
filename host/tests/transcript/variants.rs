//! `variant`: normal chess and Fischer random with a search that plays only those;
//! unknown variants are refused. (The others, with the real search: tests/variants.rs.)

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
        t.say(&["new", "variant seirawan", "variant 12x8+5_capablanca"]),
        ["Error (unsupported variant): variant seirawan", "Error (unsupported variant): variant 12x8+5_capablanca"]
    );
    // The game goes on as normal chess.
    assert_eq!(t.say(&["e2e4"]), ["move a7a5"]);
}

#[test]
fn a_variant_the_search_cannot_play_goes_to_the_built_in_search() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(
        t.say(&["new", "variant atomic"]),
        ["telluser The search scripted cannot play atomic; alphabeta plays this game."]
    );
    assert_eq!(t.say(&["new", "variant fischerandom"]), Vec::<String>::new());
}
