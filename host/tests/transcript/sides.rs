//! Who plays which side: `new`, `force`, `go`, `playother`, and protocol 1's
//! `white` and `black`.

use crate::harness::Transcript;

#[test]
fn new_starts_a_game_with_the_engine_playing_black() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "e2e4"]), ["move a7a5"]);
    // A new game again, from the start position: e2e4 is legal once more.
    assert_eq!(t.say(&["force", "d2d4", "new", "e2e4"]), ["move a7a5"]);
}

#[test]
fn new_while_thinking_drops_the_search() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "go", "new", "ping 1"]), ["pong 1"]);
}

#[test]
fn force_makes_the_engine_play_neither_side() {
    let mut t = Transcript::playing("scripted");
    // Moves of both sides are taken, checked, and not answered.
    assert_eq!(t.say(&["new", "force", "e2e4", "e7e5", "g1f3"]), Vec::<String>::new());
    assert_eq!(t.say(&["g1f3"]), ["Illegal move (not legal in this position): g1f3"]);
    // `force` while thinking: the search is dropped, no move comes.
    assert_eq!(t.say(&["go", "force", "ping 2"]), ["pong 2"]);
}

#[test]
fn go_plays_the_side_on_move_from_then_on() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "go"]), ["move b1a3"]);
    assert_eq!(t.say(&["force", "new", "force", "e2e4", "go"]), ["move a7a5"]);
    // Still Black: the next move of White is answered.
    assert_eq!(t.say(&["d2d4"]), ["move a5a4"]);
}

#[test]
fn playother_takes_the_side_not_on_move_and_waits() {
    let mut t = Transcript::playing("scripted");
    // Black is on move: the engine plays White, and does not think yet.
    assert_eq!(t.say(&["new", "force", "e2e4", "playother"]), Vec::<String>::new());
    assert_eq!(t.say(&["e7e5"]), ["move b1a3"]);
    // From the start, playother makes the engine Black.
    assert_eq!(t.say(&["new", "force", "playother"]), Vec::<String>::new());
    assert_eq!(t.say(&["e2e4"]), ["move a7a5"]);
}

#[test]
fn white_puts_white_on_move_and_the_engine_on_black() {
    let mut t = Transcript::playing("scripted");
    // After 1.e4 Black is on move; `white` gives the move back to White.
    assert_eq!(t.say(&["new", "force", "e2e4", "white"]), Vec::<String>::new());
    assert_eq!(t.say(&["d2d4"]), ["move a7a5"]);
}

#[test]
fn black_puts_black_on_move_and_the_engine_on_white() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "black"]), Vec::<String>::new());
    assert_eq!(t.say(&["e7e5"]), ["move b1a3"]);
}

#[test]
fn the_clock_idiom_white_time_otim_black_go_plays_black() {
    // xboard's idiom for a Black-on-move position whose clocks need updating
    // (protocol 1 GUIs; colors=0 turns it off in protocol 2).
    let mut t = Transcript::new();
    t.say(&["option Search=scripted"]);
    assert_eq!(t.say(&["new", "force", "e2e4", "white", "time 6000", "otim 6000", "black", "go"]), ["move a7a5"]);
}

#[test]
fn the_clock_idiom_keeps_the_en_passant_right() {
    // After 3.d2-d4 Black may take e4xd3 en passant, its lowest move.
    let opening = ["new", "force", "a2a3", "e7e5", "a3a4", "e5e4", "d2d4"];
    let mut t = Transcript::new();
    t.say(&["option Search=scripted"]);
    t.say(&opening);
    assert_eq!(t.say(&["go"]), ["move e4d3"]);
    // The idiom leaves Black on move in the same position.
    let mut t = Transcript::new();
    t.say(&["option Search=scripted"]);
    t.say(&opening);
    assert_eq!(t.say(&["white", "time 6000", "otim 6000", "black", "go"]), ["move e4d3"]);
}
