//! The end of a game: the engine claims results by rule (`RESULT {REASON}`), also
//! in force mode; the GUI's `result` ends the game for the engine.

use crate::harness::Transcript;

#[test]
fn results_are_claimed_after_a_mating_move_even_in_force_mode() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "force", "f2f3", "e7e5", "g2g4", "d8h4"]), ["0-1 {Black mates}"]);
    assert_eq!(t.say(&["go"]), Vec::<String>::new());
    assert_eq!(t.say(&["undo", "undo", "ping 1"]), ["pong 1"]);
}

#[test]
fn stalemate_is_claimed_as_a_draw() {
    let mut t = Transcript::playing("scripted");
    t.say(&["new", "force", "setboard k7/8/8/1Q6/8/8/8/K7 w - - 0 1"]);
    assert_eq!(t.say(&["b5b6"]), ["1/2-1/2 {Stalemate}"]);
}

#[test]
fn result_ends_the_search_without_a_move() {
    let mut t = Transcript::playing("scripted");
    // The search has started; `result` comes before its move is handled.
    assert_eq!(t.say(&["new", "go", "result 0-1 {White resigns}", "ping 1"]), ["pong 1"]);
    // Every result form is taken, with or without a comment.
    assert_eq!(
        t.say(&["result 1-0 {Black resigns}", "result 1/2-1/2 {Draw by agreement}", "result *"]),
        Vec::<String>::new()
    );
    // The next game is played as usual.
    assert_eq!(t.say(&["new", "go"]), ["move b1a3"]);
}

#[test]
fn go_in_a_position_drawn_by_repetition_claims_and_still_moves() {
    let mut t = Transcript::playing("scripted");
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
    let mut lines = vec!["new", "force"];
    lines.extend(shuffle);
    // Threefold: claimed at once in force mode...
    assert_eq!(t.say(&lines), ["1/2-1/2 {Draw by repetition}"]);
    // ...and `go` still gets a move: a server that does not end the game on a
    // claim (lichess by default) would otherwise wait until our flag falls.
    assert_eq!(t.say(&["go"]), ["move b1a3"]);
    // The same when the opponent's move makes the repetition with us to move.
    let mut t = Transcript::playing("scripted");
    t.say(&["new", "force", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "playother"]);
    assert_eq!(t.say(&["f6g8"]), ["1/2-1/2 {Draw by repetition}", "move b1a3"]);
}
