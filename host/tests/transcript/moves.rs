//! The GUI's moves: bare or after `usermove`, in coordinates or SAN, castling and
//! promotions; illegal ones are refused with `Illegal move`.

use crate::harness::Transcript;

#[test]
fn a_game_with_the_scripted_search() {
    let mut t = Transcript::new();
    t.say(&["xboard", "protover 2", "accepted done"]);
    let switched = t.say(&["option Search=scripted"]);
    assert_eq!(switched.first().map(String::as_str), Some("feature done=0"));
    assert!(
        switched.contains(&"feature option=\"Search -combo alphabeta /// patient /// probe /// *scripted\"".to_owned())
    );
    assert_eq!(switched.last().map(String::as_str), Some("feature done=1"));
    assert_eq!(t.say(&["new", "post", "force", "usermove e2e4", "go"]), ["1 12 0 1 1 1000 0\ta7a5", "move a7a5"]);
    assert_eq!(t.say(&["d2d4"]), ["1 12 0 1 1 1000 0\ta5a4", "move a5a4"]);
    assert_eq!(t.say(&["nopost", "usermove f1b5"]), ["move a4a3"]);
    assert_eq!(t.say(&["e2e4"]), ["Illegal move (not legal in this position): e2e4"]);
}

#[test]
fn moves_in_san_are_read_too() {
    let mut t = Transcript::playing("scripted");
    let ruy_lopez = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"].map(|m| format!("usermove {m}"));
    let mut lines = vec!["new", "force"];
    lines.extend(ruy_lopez.iter().map(String::as_str));
    assert_eq!(t.say(&lines), Vec::<String>::new());
    assert_eq!(t.say(&["usermove Nf6"]), Vec::<String>::new());
    assert_eq!(t.say(&["usermove Nf6"]), ["Illegal move (not legal in this position): Nf6"]);
    // White to move after 5...Nf6: the lowest move is the knight's that never moved.
    assert_eq!(t.say(&["go"]), ["move b1a3"]);
}

#[test]
fn castling_moves_the_rook_too() {
    let mut t = Transcript::playing("scripted");
    t.say(&["new", "force", "setboard r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]);
    // Both castle; then each rook can only have reached the f- and d-file by castling.
    assert_eq!(t.say(&["e1g1", "usermove e8c8", "f1f8", "d8f8"]), Vec::<String>::new());
    // The castling words are read as well.
    assert_eq!(t.say(&["undo", "undo", "undo", "undo", "O-O", "O-O-O", "f1f8", "d8f8"]), Vec::<String>::new());
}

#[test]
fn a_promotion_makes_the_piece_asked_for() {
    let mut t = Transcript::playing("scripted");
    // Kb6 and Pc7 against Ka8: a queen or rook on c8 mates, a knight does not (and
    // the pawn on h2 keeps the knight from being a dead draw).
    t.say(&["new", "force", "setboard k7/2P5/1K6/8/8/8/7P/8 w - - 0 1"]);
    assert_eq!(t.say(&["c7c8n"]), Vec::<String>::new());
    assert_eq!(t.say(&["undo", "c7c8=Q"]), ["1-0 {White mates}"]);
    assert_eq!(t.say(&["undo", "usermove c7c8r"]), ["1-0 {White mates}"]);
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(
        t.say(&["new", "e2e5", "e7e5", "usermove e1e2", "e2e4"]),
        [
            "Illegal move (not legal in this position): e2e5",
            "Illegal move (not legal in this position): e7e5",
            "Illegal move (not legal in this position): e1e2",
            "move a7a5",
        ]
    );
}
