//! `pause` and `resume`: a paused engine does not think, and its clock stands
//! still; `resume` lets the search go on from where it was.

use std::time::Duration;

use crate::harness::{Transcript, is_thinking};

/// Well past the deadline of `st 0.2`.
const PAUSED: Duration = Duration::from_millis(600);

#[test]
fn pause_holds_a_search_past_its_deadline_until_resume() {
    let mut t = Transcript::playing("patient");
    assert_eq!(t.say_until(&["new", "post", "st 0.2", "go"], is_thinking), ["1 12 0 1 1 1000 0\tb1a3"]);
    assert_eq!(t.say_now(&["pause"]), Vec::<String>::new());
    // The patient search moves when its deadline stops it: not while paused.
    assert_eq!(t.wait(PAUSED), Vec::<String>::new());
    assert_eq!(t.say(&["resume"]), ["move b1a3"]);
}

#[test]
fn a_search_started_while_paused_waits_for_resume() {
    let mut t = Transcript::playing("patient");
    assert_eq!(t.say(&["new", "pause"]), Vec::<String>::new());
    assert_eq!(t.say_until(&["post", "st 0.2", "go"], is_thinking), ["1 12 0 1 1 1000 0\tb1a3"]);
    assert_eq!(t.wait(PAUSED), Vec::<String>::new());
    assert_eq!(t.say(&["resume"]), ["move b1a3"]);
}

#[test]
fn pause_twice_or_resume_unpaused_is_not_legal_now() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(
        t.say(&["resume", "pause", "pause", "resume", "resume", "ping 3"]),
        [
            "Error (command not legal now): resume",
            "Error (command not legal now): pause",
            "Error (command not legal now): resume",
            "pong 3",
        ]
    );
}
