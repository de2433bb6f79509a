//! `hard` and `easy` (pondering on and off) and `hint` (the reply the engine
//! expects).

use crate::harness::{Transcript, is_thinking};

#[test]
fn hint_tells_the_reply_the_engine_expects() {
    let mut t = Transcript::playing("scripted");
    // Nothing to suggest before the engine has searched.
    assert_eq!(t.say(&["new", "hint"]), Vec::<String>::new());
    // After 1.Na3 the scripted search expects a7-a5.
    assert_eq!(t.say(&["go"]), ["move b1a3"]);
    assert_eq!(t.say(&["hint"]), ["Hint: a7a5"]);
    // A new game forgets it.
    assert_eq!(t.say(&["new", "hint"]), Vec::<String>::new());
}

#[test]
fn hard_ponders_on_the_expected_reply_and_a_hit_keeps_that_search() {
    let mut t = Transcript::playing("probe");
    let is_hint = |line: &str| line.starts_with("Hint:");
    assert_eq!(t.say_until(&["hard", "new", "go"], is_hint), ["move b1a3", "Hint: a7a5"]);
    let searches = t.await_searches(2);
    assert_eq!((searches[0].moves.len(), searches[0].infinite), (0, false));
    // The ponder search looks at the position after the expected reply, with no deadline.
    assert_eq!(searches[1].moves, ["b1a3", "a7a5"]);
    assert!(searches[1].infinite);
    // Pondering does not hold back a pong.
    assert_eq!(t.say_now(&["ping 1"]), ["pong 1"]);
    // A hit: the ponder search gives the move, and the next ponder search is the only
    // search started.
    assert_eq!(t.say_until(&["a7a5"], is_hint), ["move a1b1", "Hint: a5a4"]);
    let searches = t.await_searches(1);
    assert_eq!(searches[0].moves, ["b1a3", "a7a5", "a1b1", "a5a4"]);
    assert!(searches[0].infinite);
    // A miss: the ponder search is dropped and a search for the move made.
    assert_eq!(t.say_until(&["h7h6"], is_hint), ["move b1a1", "Hint: a5a4"]);
    let searches = t.await_searches(2);
    assert_eq!(searches[0].moves, ["b1a3", "a7a5", "a1b1", "h7h6"]);
    assert!(!searches[0].infinite);
    assert_eq!(searches[1].moves, ["b1a3", "a7a5", "a1b1", "h7h6", "b1a1", "a5a4"]);
}

#[test]
fn easy_stops_pondering() {
    let mut t = Transcript::playing("probe");
    let is_hint = |line: &str| line.starts_with("Hint:");
    assert_eq!(t.say_until(&["hard", "new", "go"], is_hint), ["move b1a3", "Hint: a7a5"]);
    // `easy` drops the ponder search: nothing is left running.
    assert_eq!(t.say(&["easy", "ping 1"]), ["pong 1"]);
    assert!(!t.session.is_searching());
    // And after the next move no ponder search starts, so no hint comes.
    assert_eq!(t.say(&["h7h6"]), ["move a1b1"]);
    assert!(!t.session.is_searching());
}

#[test]
fn post_shows_the_pondering_too() {
    let mut t = Transcript::playing("scripted");
    let is_hint = |line: &str| line.starts_with("Hint:");
    assert_eq!(
        t.say_until(&["hard", "post", "new", "go"], is_hint),
        ["1 12 0 1 1 1000 0\tb1a3", "move b1a3", "Hint: a7a5"]
    );
    // The ponder search's line, from the position after the expected reply, comes
    // only after the GUI's next command: clients take what follows `move` as that
    // move's thinking.
    assert_eq!(t.wait(std::time::Duration::from_millis(200)), Vec::<String>::new());
    assert_eq!(t.say_until(&["ping 1"], is_thinking), ["pong 1", "1 12 0 1 1 1000 0\ta1b1"]);
}

#[test]
fn playother_with_hard_ponders_on_the_expected_reply() {
    let mut t = Transcript::playing("probe");
    let is_hint = |line: &str| line.starts_with("Hint:");
    assert_eq!(t.say_until(&["new", "go"], |l| l.starts_with("move")), ["move b1a3"]);
    t.await_searches(1);
    // Taken out of play, then put back on the other side with pondering on: it
    // ponders on the reply it expects, as after its own move.
    assert_eq!(t.say_until(&["force", "hard", "playother"], is_hint), ["Hint: a7a5"]);
    let searches = t.await_searches(1);
    assert_eq!(searches[0].moves, ["b1a3", "a7a5"]);
    assert!(searches[0].infinite);
}
