//! Draws: `draw` (the opponent offers one; `offer draw` accepts it, silence
//! declines it), and a draw by rule claimed with `offer draw` before the move.

use crate::harness::Transcript;

#[test]
fn draw_offers_follow_the_score_and_claims_come_before_the_move() {
    let mut t = Transcript::playing("scripted");
    // The scripted search scores +12 for itself: no reason to accept.
    t.say(&["new", "go"]);
    assert_eq!(t.say(&["draw", "ping 1"]), ["pong 1"]);
    // Bare kings: nobody can win, so accept.
    assert_eq!(t.say(&["setboard 4k3/8/8/8/8/8/8/4K3 w - - 0 1", "draw"]), ["offer draw"]);
    // A move that repeats the position a third time is claimed with offer draw first.
    t.say(&["setboard 8/8/8/8/8/7K/k7/3R4 w - - 0 1", "force"]);
    t.say(&["h3h4", "a2b2", "h4h3", "b2a2", "h3h4", "a2b2", "h4h3"]);
    assert_eq!(t.say(&["go"]), ["offer draw", "move b2a2", "1/2-1/2 {Draw by repetition}"]);
}

#[test]
fn a_draw_offer_is_accepted_when_the_engine_stands_worse() {
    let mut t = Transcript::playing("scripted");
    // `setscore` makes the scripted search see its position as lost.
    t.say(&["new", "setscore -300", "go"]);
    assert_eq!(t.say(&["draw"]), ["offer draw"]);
}

#[test]
fn contempt_is_how_much_worse_the_engine_must_stand_to_take_a_draw() {
    let mut t = Transcript::playing("scripted");
    // 40 centipawns down: worse, but not by the default contempt of 50.
    t.say(&["new", "setscore -40", "go"]);
    assert_eq!(t.say(&["draw", "ping 1"]), ["pong 1"]);
    assert_eq!(t.say(&["option Contempt=30", "draw"]), ["offer draw"]);
    // Negative contempt: an engine that likes draws takes one while a little ahead.
    // The old game's score does not carry over: at once after `new` there is none to go by.
    assert_eq!(t.say(&["new", "option Contempt=-20", "draw", "ping 2"]), ["pong 2"]);
    assert_eq!(t.say(&["setscore 15", "go"]), ["move b1a3"]);
    assert_eq!(t.say(&["draw"]), ["offer draw"]);
    assert_eq!(t.say(&["option Contempt=-10", "draw", "ping 3"]), ["pong 3"]);
}
