//! `quit`: leave at once, without a word.

use plugboard::event::Event;

use crate::harness::Transcript;

#[test]
fn quit_ends_the_session_without_a_word() {
    let mut t = Transcript::playing("scripted");
    assert!(!t.session.wants_to_quit());
    assert_eq!(t.say(&["new", "quit"]), Vec::<String>::new());
    assert!(t.session.wants_to_quit());
}

#[test]
fn quit_while_thinking_leaves_without_moving() {
    let mut t = Transcript::playing("scripted");
    // The search has started, but `quit` comes before its move is handled.
    assert_eq!(t.say(&["new", "go", "quit"]), Vec::<String>::new());
    assert!(t.session.wants_to_quit());
}

#[test]
fn quit_with_a_parameter_is_refused_and_does_not_quit() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["quit now"]), ["Error (too many parameters): quit now"]);
    assert!(!t.session.wants_to_quit());
}

#[test]
fn the_end_of_input_is_taken_as_quit() {
    let mut t = Transcript::playing("scripted");
    t.session.handle(Event::EndOfInput);
    assert!(t.session.wants_to_quit());
    assert_eq!(t.output(), Vec::<String>::new());
}
