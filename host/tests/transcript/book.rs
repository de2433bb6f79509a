//! `bk`: the book moves of the position, as lines that start with a blank and an
//! empty line after them.

use crate::harness::Transcript;

#[test]
fn bk_answers_with_indented_lines_and_an_empty_line() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "bk"]), [" No opening book is loaded.", ""]);
    // Also in analyze mode (the table comes before the analysis reports).
    assert_eq!(t.say(&["post", "analyze", "bk"]), [" No opening book is loaded.", "", "1 12 0 1 1 1000 0\tb1a3"]);
}
