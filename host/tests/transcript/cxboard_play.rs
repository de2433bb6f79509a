//! The cxboard front end in play mode: `playcurrent`, `playother`, the GUI's
//! `move` (refused from the side the engine plays), `?`, `isready` after our
//! move, pondering (the `Ponder` option), `clock` with our own clock charged,
//! `pause`/`resume`, and results said as `info string`.

use std::time::Duration;

use plugboard::cxboard::Session;

use crate::harness::Transcript;

fn playing(search: &str) -> Transcript<Session> {
    Transcript::cxboard_playing(search)
}

#[test]
fn playcurrent_plays_the_side_to_move_and_answers_each_move() {
    let mut t = playing("scripted");
    assert_eq!(
        t.say(&["playcurrent"]),
        ["info depth 1 seldepth 1 score cp 12 time 0 nodes 1 nps 1000 pv a0a1", "move a0a1"]
    );
    assert_eq!(
        t.say(&["move a6a5"]),
        ["info depth 1 seldepth 1 score cp 12 time 0 nodes 1 nps 1000 pv b0a2", "move b0a2"]
    );
    assert_eq!(t.say(&["move h3e3"]), ["Illegal move (not legal in this position): h3e3"]);
}

#[test]
fn playother_waits_for_the_guis_move() {
    let mut t = playing("scripted");
    assert_eq!(t.say(&["playother"]), Vec::<String>::new());
    assert_eq!(t.say(&["move h2e2"]).last().map(String::as_str), Some("move a6a5"));
}

#[test]
fn a_move_for_the_side_the_engine_plays_is_refused() {
    let mut t = playing("patient");
    t.say_at_once(&["playcurrent"]);
    assert_eq!(t.say_now(&["move h2e2"]), ["Error (not your turn): move h2e2"]);
    // `?` moves at once; `isready` waits for the move.
    assert_eq!(t.say_now(&["isready"]), Vec::<String>::new());
    assert_eq!(t.say(&["?"]), ["move a0a1", "readyok"]);
    assert_eq!(t.say(&["isready"]), ["readyok"]);
}

#[test]
fn force_stops_the_engine_thinking_and_its_move_is_never_made() {
    let mut t = playing("patient");
    t.say_at_once(&["playcurrent"]);
    assert_eq!(t.say(&["force"]), Vec::<String>::new());
    assert!(!t.session.is_searching());
    assert_eq!(t.wait(Duration::from_secs(60)), Vec::<String>::new());
}

#[test]
fn with_ponder_on_the_engine_thinks_on_the_reply_it_expects() {
    let mut t = playing("scripted");
    let said = t.say_at_once(&["setoption name Ponder value true", "playcurrent"]);
    assert_eq!(said[1..3], ["move a0a1", "info hint a6a5"], "{said:?}");
    // The expected reply: a ponder hit, our move at once, and pondering on the next reply.
    let said = t.say_at_once(&["move a6a5"]);
    assert_eq!(said[..2], ["move b0a2", "info hint a5a4"], "{said:?}");
    assert_eq!(t.say_at_once(&["setoption name Ponder value false", "isready"]), ["readyok"]);
    assert!(!t.session.is_searching());
}

#[test]
fn clock_sets_game_time_time_per_move_and_overtime() {
    let mut t = playing("probe");
    // The document's example: an hour, at most a minute a move, then thirty seconds a move.
    t.say(&["clock 60 1 :30", "playcurrent"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (59_950, 59_950));
    // A second left of the game and five seconds a move after it: the overtime counts.
    t.say(&["force", "clock :01 0 :05", "move a6a5", "playcurrent"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (4950, 4950));
}

#[test]
fn our_own_clock_is_charged_with_our_thinking_in_play_mode_only() {
    let mut t = playing("patient");
    // Ten seconds for the game, spread over thirty moves, each with the 50 ms
    // overhead for lag and one more kept back: 281 ms planned, three times that at most.
    let said = t.say(&["clock :10 0 0", "playcurrent"]);
    assert_eq!(said.last().map(String::as_str), Some("move a0a1"));
    // The patient search ran to its hard deadline, 843 ms: 9157 ms are left.
    t.say(&["force", "setoption name Search value probe", "go depth 1", "playother", "move a6a5"]);
    let seen = t.searches();
    let planned = (9157 - 31 * 50) / 30;
    assert_eq!((seen[1].soft_ms, seen[1].hard_ms), (planned, planned * 3), "{seen:?}");
}

#[test]
fn pause_holds_the_search_and_takes_only_resume() {
    let mut t = playing("patient");
    t.say_at_once(&["clock :10 0 0", "playcurrent"]);
    assert_eq!(t.say_now(&["pause"]), Vec::<String>::new());
    assert_eq!(t.wait(Duration::from_secs(5)), Vec::<String>::new());
    assert_eq!(
        t.say_now(&["go depth 1", "pause", "move h2e2", "isready"]),
        ["Error (paused): go depth 1", "Error (paused): pause", "Error (paused): move h2e2", "readyok"]
    );
    assert_eq!(t.say(&["resume"]), ["move a0a1"]);
    assert_eq!(t.say(&["resume"]), ["Error (not paused): resume"]);
}

#[test]
fn the_engines_claims_are_told_as_info_strings() {
    let mut t = playing("scripted");
    // Black's general on d9 has no move once the chariot reaches a8: a loss.
    t.say(&["position cfen 3k5/9/R8/9/9/9/9/9/9/4K3R r 1"]);
    assert_eq!(t.say(&["move a7a8"]), ["info string 1-0 {Black has no legal move}"]);
}
