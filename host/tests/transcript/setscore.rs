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

#[test]
fn setscore_is_forgotten_with_the_game_and_bounded() {
    let mut t = Transcript::playing("probe");
    t.say(&["new", "setscore -15000 20", "go"]);
    assert_eq!(t.searches()[0].preset_scores, [-15000]);
    // A new game, a new position, another variant: no preset from before.
    for change in ["new", "setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "variant normal"] {
        t.say(&["force", "setscore 99", change, "go"]);
        assert!(t.searches()[0].preset_scores.is_empty(), "after {change}");
    }
    // Each preset is handed to every search: their number is bounded.
    let mut t = Transcript::playing("probe");
    t.say(&["new", "force"]);
    let mut refused = Vec::new();
    // Knights shuffling: the clocks make each position a new one.
    let shuffle = ["g1f3", "b8c6", "f3g1", "c6b8"];
    for n in 0..300 {
        refused.extend(t.say(&[&format!("setscore {n}"), shuffle[n % 4]]));
    }
    assert!(
        refused.iter().any(|l| l.starts_with("Error (command not legal now): setscore") && l.contains("at most 256")),
        "{refused:?}"
    );
}
