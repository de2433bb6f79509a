//! `exclude MOVE`, `include MOVE`, `exclude all`, `include all`: root moves left
//! out of the analysis of the current position, until another position comes up
//! or analysis ends.

use crate::harness::Transcript;

#[test]
fn exclude_and_include_steer_the_analysis() {
    let mut t = Transcript::playing("scripted");
    t.say(&["post"]);
    // The scripted search reports its one line and ends, so each analysis is one line.
    // Exclusions may come before `analyze`, as python-chess sends them.
    assert_eq!(t.say(&["new", "force", "exclude b1a3", "analyze"]), ["1 12 0 1 1 1000 0\tb1c3"]);
    assert_eq!(t.say(&["include all"]), ["1 12 0 1 1 1000 0\tb1a3"]);
    assert_eq!(t.say(&["exclude b1a3"]), ["1 12 0 1 1 1000 0\tb1c3"]);
    assert_eq!(t.say(&["exclude all", "ping 1"]), ["pong 1"]);
    assert_eq!(t.say(&["include g1f3"]), ["1 12 0 1 1 1000 0\tg1f3"]);
    // A new position forgets the exclusions.
    assert_eq!(t.say(&["e2e4"]), ["1 12 0 1 1 1000 0\ta7a5"]);
    assert_eq!(t.say(&["exclude e2e5"]), ["Illegal move (not legal in this position): e2e5"]);
    assert_eq!(t.say(&["exit", "exit"]), ["Error (command not legal now): exit"]);
    // A search for a move honours them too, and ignores them when nothing is left.
    assert_eq!(t.say(&["nopost", "new", "exclude b1a3", "white", "go"]), ["move b1c3"]);
    assert_eq!(t.say(&["new", "exclude all", "white", "go"]), ["move b1a3"]);
}

#[test]
fn leaving_analysis_forgets_the_exclusions() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "post", "analyze", "exclude b1a3"]), ["1 12 0 1 1 1000 0\tb1c3"]);
    assert_eq!(t.say(&["exit", "analyze"]), ["1 12 0 1 1 1000 0\tb1a3"]);
}

#[test]
fn undo_brings_back_a_position_without_the_exclusions() {
    let mut t = Transcript::playing("scripted");
    t.say(&["new", "post", "analyze", "e2e4", "e7e5"]);
    assert_eq!(t.say(&["exclude b1a3"]), ["1 12 0 1 1 1000 0\tb1c3"]);
    assert_eq!(t.say(&["undo"]), ["1 12 0 1 1 1000 0\ta7a5"]);
    // "The effect of these commands should be reset any time a new position comes up."
    assert_eq!(t.say(&["undo"]), ["1 12 0 1 1 1000 0\tb1a3"]);
}
