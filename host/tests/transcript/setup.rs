//! Setting up a position: `setboard FEN`, and protocol 1's `edit` with its
//! subcommands `#`, `c`, `Pa4`, `xa4` and `.`. An illegal position is refused,
//! and so is every move until the next position.

use crate::harness::Transcript;

#[test]
fn setboard_sets_up_the_position_and_the_side_to_move() {
    let mut t = Transcript::playing("scripted");
    // White: the lowest move is the king's, e1-d1.
    assert_eq!(t.say(&["new", "force", "setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "go"]), ["move e1d1"]);
    // Black to move in the same position: e8-d7.
    assert_eq!(t.say(&["force", "setboard 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", "go"]), ["move e8d7"]);
}

#[test]
fn an_illegal_setboard_refuses_moves_until_the_next_position() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(
        t.say(&["new", "force", "setboard 8/8/8/8/8/8/8/8 w - - 0 1"]),
        ["tellusererror Illegal position: empty board, missing king (8/8/8/8/8/8/8/8 w - - 0 1)"]
    );
    assert_eq!(t.say(&["e2e4"]), ["Illegal move (no legal position is set up): e2e4"]);
    // A GUI waiting for the move must hear why none comes.
    assert_eq!(
        t.say(&["go", "ping 1"]),
        ["Error (command not legal now): go (no legal position is set up; send one with setboard or new)", "pong 1"]
    );
    let said = t.say(&["force", "setboard this is no fen"]);
    assert!(said.len() == 1 && said[0].starts_with("tellusererror Illegal position"), "{said:?}");
    // A legal position again: moves are taken.
    assert_eq!(t.say(&["setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", "go"]), ["move e8d7"]);
}

#[test]
fn edit_sets_up_a_position_and_keeps_the_side_to_move() {
    let mut t = Transcript::playing("scripted");
    // The black-to-move kludge: a move in force mode, then edit.
    assert_eq!(
        t.say(&["new", "force", "a2a3", "edit", "#", "Ke1", "Ra1", "c", "Ke8", "Zz", "."]),
        ["Error (bad parameter): Zz (expected a piece letter and a square, like Pe4 or xe4)"]
    );
    // Black is to move; the scripted search plays the lowest move: Ke8-d7.
    assert_eq!(t.say(&["go"]), ["move e8d7"]);
    // White may still castle queen-side: the rook and king stood on their squares.
    assert_eq!(t.say(&["force", "e1c1", "ping 1"]), ["pong 1"]);
    assert_eq!(t.say(&["edit", "#", "Ke1", "."]), ["tellusererror Illegal position: missing king"]);
    assert_eq!(t.say(&["e1e2"]), ["Illegal move (no legal position is set up): e1e2"]);
}

#[test]
fn edit_starts_from_the_board_as_it_is_and_x_empties_a_square() {
    let mut t = Transcript::playing("scripted");
    // Without the knight on b1 the lowest move is the rook's, a1-b1.
    assert_eq!(t.say(&["new", "force", "edit", "xb1", ".", "go"]), ["move a1b1"]);
}

#[test]
fn edit_places_pieces_of_the_colour_c_switches_to() {
    let mut t = Transcript::playing("scripted");
    // White Ke1, Pa2; `c`: black Ke8, Pb3; `c` again (as `C`): white Ph2.
    let lines = ["new", "force", "edit", "#", "Ke1", "Pa2", "c", "Ke8", "Pb3", "C", "Ph2", "."];
    assert_eq!(t.say(&lines), Vec::<String>::new());
    // a2xb3 takes a black pawn, and h2-h3 moves a white one.
    assert_eq!(t.say(&["a2b3", "e8d7", "h2h3", "ping 1"]), ["pong 1"]);
}
