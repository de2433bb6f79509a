//! `setscore N [DEPTH]`: the score of the current position, in centipawns for the
//! side to move, for every search that reaches it. The fake searches report it.

use crate::harness::Transcript;

#[test]
fn setscore_fixes_the_score_of_the_current_position() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "post", "analyze"]), ["1 12 0 1 1 1000 0\tb1a3"]);
    // The analysis starts again and finds the score set.
    assert_eq!(t.say(&["setscore 150"]), ["1 150 0 1 1 1000 0\tb1a3"]);
    // Another position has its own score...
    assert_eq!(t.say(&["e2e4"]), ["1 12 0 1 1 1000 0\ta7a5"]);
    // ...and back in the first one the score set holds.
    assert_eq!(t.say(&["undo"]), ["1 150 0 1 1 1000 0\tb1a3"]);
    // A depth may follow the score; a second setscore replaces the first.
    assert_eq!(t.say(&["setscore -30 12"]), ["1 -30 0 1 1 1000 0\tb1a3"]);
}
