//! `lift`, `put`, `hover`: the user handles a piece; a lifted piece's legal
//! destinations are answered with `highlight`.

use crate::harness::Transcript;

#[test]
fn lift_is_answered_with_the_legal_destinations() {
    let mut t = Transcript::playing("scripted");
    t.say(&["new"]);
    assert_eq!(t.say(&["lift e2"]), ["highlight 8/8/8/8/4Y3/4Y3/8/8"]);
    // `put` and `hover` need no answer.
    assert_eq!(t.say(&["lift b1", "put c3", "hover c3"]), ["highlight 8/8/8/8/8/Y1Y5/8/8"]);
    assert_eq!(t.say(&["lift e9"]), ["Error (bad parameter): lift e9 (no such square on this board)"]);
    assert_eq!(t.say(&["lift e"]), ["Error (bad parameter): lift e"]);
}

#[test]
fn captures_and_promotions_have_colours_of_their_own() {
    let mut t = Transcript::playing("scripted");
    // The pawn on b7 may take on a8 or go to b8, promoting either way: magenta.
    // The rook on h1 may take on h8: red.
    t.say(&["new", "force", "setboard r3k2r/1P6/8/8/8/8/8/4K2R w - - 0 1"]);
    assert_eq!(t.say(&["lift b7"]), ["highlight MM6/8/8/8/8/8/8/8"]);
    assert_eq!(t.say(&["lift h1"]), ["highlight 7R/7Y/7Y/7Y/7Y/7Y/7Y/5YY1"]);
}

#[test]
fn in_atomic_chess_hovering_over_a_capture_shows_what_it_blows_up() {
    let mut t = Transcript::playing("scripted");
    // The knight on c3 may take the pawn on d5: the knight on c6 and the
    // queen on d6 beside it go too; the pawn on e6 stays, the knight on e7 is
    // out of reach.
    t.say(&["new", "variant atomic", "force", "setboard 4k3/4n3/2nqp3/3p4/8/2N5/8/4K3 w - - 0 1"]);
    t.say(&["lift c3"]);
    assert_eq!(t.say(&["hover d5"]), ["highlight 8/8/2RR4/3R4/8/8/8/8"]);
    // Over a quiet move's square, nothing to show.
    assert_eq!(t.say(&["hover b5"]), Vec::<String>::new());
    // In chess a capture has no side effects: no answer.
    t.say(&["new", "force", "setboard 4k3/4n3/2nqp3/3p4/8/2N5/8/4K3 w - - 0 1", "lift c3"]);
    assert_eq!(t.say(&["hover d5"]), Vec::<String>::new());
}
