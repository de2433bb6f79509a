//! Malformed and out-of-place commands: `Error (ERRORTYPE): COMMAND`, with the
//! line as it came (trimmed), and nothing else changed.

use crate::harness::Transcript;

/// Says each line alone and returns the one reply to each.
fn replies(t: &mut Transcript, lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let said = t.say(&[line]);
            assert_eq!(said.len(), 1, "{line:?} got {said:?}");
            said[0].clone()
        })
        .collect()
}

fn expected(kind: &str, lines: &[&str]) -> Vec<String> {
    lines.iter().map(|line| format!("Error ({kind}): {}", line.trim())).collect()
}

#[test]
fn unknown_commands() {
    let mut t = Transcript::playing("scripted");
    let lines = ["frobnicate", "  analyse  ", "e2e", "Usermove e2e4", "PING 1", "partners mann"];
    assert_eq!(replies(&mut t, &lines), expected("unknown command", &lines));
    // Squares of any board the protocol names make a move, which the game then judges.
    assert_eq!(t.say(&["e2e9"]), ["Illegal move (not a move): e2e9"]);
}

#[test]
fn bad_parameters() {
    let mut t = Transcript::playing("scripted");
    let lines = [
        "protover two",
        "variant",
        "level 40 5",
        "level forty 5 0",
        "level 40 5:xx 0",
        "level 40 5 -1",
        "st",
        "st -1",
        "st soon",
        "sd deep",
        "nps fast",
        "time",
        "otim -",
        "usermove",
        "result 2-0",
        "result",
        "setboard",
        "rating 2600",
        "memory lots",
        "cores 0",
        "cores all",
        "egtpath syzygy",
        "option",
        "exclude",
        "include",
        "setscore good",
        "lift",
        "put z9",
        "hover e44",
    ];
    assert_eq!(replies(&mut t, &lines), expected("bad parameter", &lines));
    // None of them changed the game.
    assert_eq!(t.say(&["new", "e2e4"]), ["move a7a5"]);
}

#[test]
fn too_many_parameters() {
    let mut t = Transcript::playing("scripted");
    let lines = [
        "xboard now",
        "new now",
        "quit now",
        "random 5",
        "force please",
        "go now",
        "playother please",
        "white please",
        "black please",
        "? now",
        "draw please",
        "hint please",
        "bk please",
        "undo 2",
        "remove 2",
        "hard please",
        "easy please",
        "post please",
        "nopost please",
        "analyze please",
        "exit please",
        ". please",
        "computer yes",
        "edit please",
        "pause please",
        "resume please",
        "setscore 10 5 1",
    ];
    assert_eq!(replies(&mut t, &lines), expected("too many parameters", &lines));
    assert!(!t.session.wants_to_quit());
    // None of them changed the game.
    assert_eq!(t.say(&["new", "e2e4"]), ["move a7a5"]);
}

#[test]
fn the_spec_example_of_too_many_parameters() {
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["level 1 2 3 4 5 6 7"]), ["Error (too many parameters): level 1 2 3 4 5 6 7"]);
}

#[test]
fn commands_not_legal_now() {
    // `exit` outside analyze mode; `pause` and `resume` out of turn are in `pause`.
    let mut t = Transcript::playing("scripted");
    assert_eq!(t.say(&["exit", "ping 1"]), ["Error (command not legal now): exit", "pong 1"]);
    assert_eq!(t.say(&["analyze", "exit", "exit"]), ["Error (command not legal now): exit"]);
}
