//! Taking moves back: `undo` (one ply, sent in force mode) and `remove` (two
//! plies, the engine keeps its side).

use crate::harness::Transcript;

#[test]
fn undo_takes_back_one_move() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "force", "e2e4", "e7e5", "undo"]), Vec::<String>::new());
    // Black is on move again after 1.e4: e7e5 is legal once more, and `go` plays Black.
    assert_eq!(t.say(&["go"]), ["move a7a5"]);
    assert_eq!(t.say(&["force", "undo", "e7e5", "ping 1"]), ["pong 1"]);
}

#[test]
fn remove_takes_back_two_moves_and_the_engine_keeps_its_side() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "e2e4"]), ["move a7a5"]);
    assert_eq!(t.say(&["remove"]), Vec::<String>::new());
    // The start position again, White (the user) on move, the engine Black.
    assert_eq!(t.say(&["e2e4"]), ["move a7a5"]);
}

#[test]
fn undo_after_a_claimed_mate_reopens_the_game() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "force", "f2f3", "e7e5", "g2g4", "d8h4"]), ["0-1 {Black mates}"]);
    // Back before the mate: Black is on move, and the engine plays its lowest move.
    assert_eq!(t.say(&["undo", "go"]), ["move e5e4"]);
}
