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
