//! `variant xiangqi` over CECP: announced, coordinates a0–i9 with Red at rank 0,
//! `setboard` in both letterings, `edit` with xboard's letters, `bk`, `lift`,
//! thinking output, and results claimed by xiangqi's rules only.

use crate::harness::Transcript;

fn xiangqi() -> Transcript {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["new", "variant xiangqi", "ping 1"]), ["pong 1"]);
    t
}

#[test]
fn xiangqi_is_announced() {
    let mut t = Transcript::new();
    let said = t.say(&["xboard", "protover 2"]);
    let variants = said.iter().find(|l| l.contains("variants=")).expect("the variants feature");
    assert!(variants.contains(",xiangqi"), "{variants}");
}

#[test]
fn moves_are_coordinates_with_red_at_rank_0() {
    let mut t = xiangqi();
    // The scripted search plays the legal move with the lowest squares: Black's soldier a6a5.
    assert_eq!(t.say(&["h2e2"]), ["move a6a5"]);
    assert_eq!(t.say(&["usermove b0c2"]), ["move a5a4"]);
    // Ranks counted from 1 (UCI style) are not ours: h3 is empty.
    assert_eq!(t.say(&["force", "h3e3"]), ["Illegal move (not legal in this position): h3e3"]);
    assert_eq!(t.say(&["usermove a0a10"]), ["Illegal move (not a move): a0a10"]);
}

#[test]
fn setboard_reads_both_letterings_with_or_without_the_empty_fields() {
    let mut t = xiangqi();
    for fen in [
        "rheakae1r/9/1c4hc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR w 0 1",
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1",
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w",
    ] {
        assert_eq!(t.say(&["force", &format!("setboard {fen}"), "ping 2"]), ["pong 2"], "{fen}");
        // The horse on b0 may go to c2; a chess knight's b0 would not exist.
        assert_eq!(t.say(&["b0c2", "ping 3"]), ["pong 3"], "{fen}");
    }
    assert_eq!(
        t.say(&["setboard rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR w"]),
        [
            "tellusererror Illegal position: generals face each other on an open file (rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR w)"
        ]
    );
}

#[test]
fn edit_sets_up_a_xiangqi_board_with_xboards_letters() {
    let mut t = xiangqi();
    t.say(&["force"]);
    assert_eq!(t.say(&["edit", "#", "Ke0", "Ra8", "Rb0", "c", "Kd9", ".", "ping 1"]), ["pong 1"]);
    // b0b9 mates: the claim comes at once, in force mode too.
    assert_eq!(t.say(&["b0b9"]), ["1-0 {Red mates}"]);
    assert_eq!(
        t.say(&["edit", "#", "Ke0", "Qa8", "."]),
        ["Error (bad parameter): Qa8 (unknown piece letter)", "tellusererror Illegal position: no Black general"]
    );
}

#[test]
fn the_engine_claims_mate_and_stalemate_but_never_a_repetition() {
    let mut t = xiangqi();
    // Black's general on d9 has no move once the chariot reaches a8, and is not in check: a loss.
    t.say(&["force", "setboard 3k5/9/R8/9/9/9/9/9/9/4K3R w"]);
    assert_eq!(t.say(&["a7a8"]), ["1-0 {Black has no legal move}"]);
    // Horses to and fro: four times the same position, and no claim from us.
    let mut t = xiangqi();
    t.say(&["force"]);
    let repeated = t.say(&["b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "c2b0", "c7b9", "b0c2", "b9c7", "ping 4"]);
    assert_eq!(repeated, ["pong 4"]);
}

#[test]
fn bk_says_there_is_no_book_and_lift_shows_xiangqi_destinations() {
    let mut t = xiangqi();
    assert_eq!(t.say(&["bk"]), [" There is no opening book or tablebase for xiangqi.", ""]);
    // The cannon on b2: along its file to b6, over Black's cannon onto the horse on b9, and along rank 2.
    assert_eq!(t.say(&["lift b2"]), ["highlight 1R7/9/9/1Y7/1Y7/1Y7/1Y7/Y1YYYYY2/1Y7/9"]);
    assert_eq!(t.say(&["lift j2"]), ["Error (bad parameter): lift j2 (no such square on this board)"]);
}

#[test]
fn thinking_is_shown_as_in_chess() {
    let mut t = xiangqi();
    assert_eq!(t.say(&["post", "h2e2"]), ["1 12 0 1 1 1000 0\ta6a5", "move a6a5"]);
}
