//! Analyze mode: `analyze`, then moves, `undo`, `new`, `setboard` and `edit` each
//! start an analysis of the new position; `.` asks for a status line; `exit` leaves.

use crate::harness::{Transcript, is_thinking};

#[test]
fn analysis_follows_every_new_position() {
    let mut t = Transcript::playing("scripted");
    // The scripted search reports one line and ends, so each analysis is one line.
    assert_eq!(t.say(&["new", "post", "analyze"]), ["1 12 0 1 1 1000 0\tb1a3"]);
    assert_eq!(t.say(&["e2e4"]), ["1 12 0 1 1 1000 0\ta7a5"]);
    assert_eq!(t.say(&["undo"]), ["1 12 0 1 1 1000 0\tb1a3"]);
    // The analysis of 1.e4 is dropped unseen: `new` comes before its report.
    assert_eq!(t.say(&["e2e4", "new"]), ["1 12 0 1 1 1000 0\tb1a3"]);
    assert_eq!(t.say(&["setboard 4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"]), ["1 12 0 1 1 1000 0\te8d7"]);
    // Leaving edit mode returns to analysis.
    assert_eq!(t.say(&["edit", "#", "Kh1", "c", "Ka8", "."]), ["1 12 0 1 1 1000 0\ta8a7"]);
}

#[test]
fn exit_leaves_analyze_mode() {
    let mut t = Transcript::playing("scripted");
    t.say(&["new", "post", "analyze"]);
    assert_eq!(t.say(&["exit"]), Vec::<String>::new());
    // No analysis of later positions.
    assert_eq!(t.say(&["force", "e2e4", "ping 1"]), ["pong 1"]);
    assert_eq!(t.say(&["exit"]), ["Error (command not legal now): exit"]);
}

#[test]
fn a_dot_is_answered_with_the_search_status() {
    let mut t = Transcript::playing("patient");
    // The patient search reports progress (7 nodes, depth 2, its first root move of
    // 20 being b1a3), then its line, and analyses on.
    assert_eq!(t.say_until(&["new", "post", "analyze"], is_thinking), ["1 12 0 1 1 1000 0\tb1a3"]);
    let said = t.say_now(&["."]);
    assert_eq!(said.len(), 1, "{said:?}");
    // stat01: TIME NODES PLY MOVES-LEFT MOVES-TOTAL MOVE; the time is the search's own.
    let fields: Vec<&str> = said[0].split(' ').collect();
    assert_eq!(fields[0], "stat01:");
    assert!(fields[1].parse::<u64>().is_ok(), "{said:?}");
    assert_eq!(fields[2..], ["7", "2", "19", "20", "b1a3"]);
    // Pings are answered at once while analysing, and the analysis goes on.
    assert_eq!(t.say_now(&["ping 1"]), ["pong 1"]);
    assert!(t.session.is_searching());
    assert_eq!(t.say(&["exit"]), Vec::<String>::new());
    assert!(!t.session.is_searching());
    // Outside analysis `.` has nothing to report.
    assert_eq!(t.say(&[".", "ping 2"]), ["pong 2"]);
}

#[test]
fn a_plugin_option_change_clears_the_hash_and_restarts_the_analysis() {
    let mut t = Transcript::playing("probe");
    // Pesto has a weight to change; the network's only option is its file.
    t.feed(&["option Evaluation=pesto", "new", "analyze"]);
    let first = t.await_searches(1);
    assert!(first[0].clear_hash, "a new game starts with a clear table");
    // The evaluation's weights changed: old scores must not be shown for new ones.
    t.feed(&["option Tempo=40"]);
    let after = t.await_searches(1);
    assert!(after[0].infinite && after[0].clear_hash, "{after:?}");
    // A host option that does not touch the scores keeps the table.
    t.feed(&["option Move overhead=100", "e2e4"]);
    let next = t.await_searches(1);
    assert!(!next[0].clear_hash, "{next:?}");
}
