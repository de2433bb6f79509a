//! Thinking output: `post` and `nopost`, and `random`, whose evaluation noise the
//! fake searches add to the score they report.

use crate::harness::Transcript;

#[test]
fn post_shows_the_thinking_and_nopost_hides_it() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "go"]), ["move b1a3"]);
    assert_eq!(t.say(&["post", "a7a6"]), ["1 12 0 1 1 1000 0\ta1b1", "move a1b1"]);
    assert_eq!(t.say(&["nopost", "a6a5"]), ["move b1a1"]);
}

#[test]
fn extended_thinking_off_leaves_the_four_fields_scid_reads() {
    let mut t = Transcript::playing("scripted");
    // Scid's engine window took the fields after the fourth for the PV: `illegal_pv!`.
    assert_eq!(t.say(&["option Extended thinking=0", "new", "post", "go"]), ["1 12 0 1 b1a3", "move b1a3"]);
    assert_eq!(t.say(&["option Extended thinking=1", "a7a6"]), ["1 12 0 1 1 1000 0\ta1b1", "move a1b1"]);
}

#[test]
fn random_asks_for_evaluation_noise_until_new() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "post", "random", "white", "go"]), ["1 22 0 1 1 1000 0\tb1a3", "move b1a3"]);
    assert_eq!(t.say(&["new", "post", "white", "go"]), ["1 12 0 1 1 1000 0\tb1a3", "move b1a3"]);
    // `random` toggles.
    assert_eq!(t.say(&["new", "post", "random", "random", "white", "go"]), ["1 12 0 1 1 1000 0\tb1a3", "move b1a3"]);
}
