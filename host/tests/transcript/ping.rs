//! `ping N` and `?`: a pong comes only after everything sent before it is done,
//! and after the move when the engine was thinking; `?` makes a thinking engine
//! move at once and is ignored otherwise.

use std::time::Duration;

use crate::harness::{Transcript, is_thinking};

#[test]
fn a_ping_is_answered_after_the_commands_before_it() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["ping 1"]), ["pong 1"]);
    assert_eq!(
        t.say(&["new", "force", "e2e4", "e2e4", "ping 2", "ping 3"]),
        ["Illegal move (not legal in this position): e2e4", "pong 2", "pong 3"]
    );
}

#[test]
fn a_ping_sent_while_thinking_is_answered_after_the_move() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "white", "go", "ping 7"]), ["move b1a3", "pong 7"]);
    assert_eq!(t.say(&["ping 8"]), ["pong 8"]);
}

#[test]
fn move_now_makes_a_thinking_engine_move_at_once() {
    let mut t = Transcript::playing("patient");
    // A thousand seconds a move: only `?` ends this search.
    assert_eq!(t.say_until(&["new", "post", "st 1000", "go"], is_thinking), ["1 12 0 1 1 1000 0\tb1a3"]);
    assert_eq!(t.say_now(&["ping 1", "ping 2"]), Vec::<String>::new());
    assert_eq!(t.say(&["?"]), ["move b1a3", "pong 1", "pong 2"]);
}

#[test]
fn move_now_is_ignored_when_not_thinking() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "force", "?", "ping 1"]), ["pong 1"]);
    // Nor does it end an analysis.
    let mut t = Transcript::playing("patient");
    t.say_until(&["new", "post", "analyze"], is_thinking);
    assert_eq!(t.say_now(&["?"]), Vec::<String>::new());
    assert_eq!(t.wait(Duration::from_millis(200)), Vec::<String>::new());
    assert!(t.session.is_searching());
}
