//! The cxboard front end in force mode and between games: the greeting,
//! `isready`, `go` with every limit, `stop`, `?`, `position`, `setoption`,
//! `debug`, `hint`, `score`, `undo`, `remove`, `draw`, `result`, `name`,
//! `computer`, `quit`, and the errors. Play mode, clocks and pause are in
//! `cxboard_play.rs`.

use std::time::Duration;

use plugboard::cxboard::Session;
use plugboard_plugin_api::NO_DEADLINE;

use crate::harness::Transcript;

fn forced(search: &str) -> Transcript<Session> {
    Transcript::cxboard_playing(search)
}

fn is_bestmove(line: &str) -> bool {
    line.starts_with("bestmove")
}

#[test]
fn the_greeting_names_the_engine_declares_the_options_and_ends_with_cxboardok() {
    let mut t = Transcript::cxboard();
    let said = t.say(&["cxboard 1"]);
    assert_eq!(said[0], concat!("id name Plugboard ", env!("CARGO_PKG_VERSION")));
    assert_eq!(said[1], "id author The Plugboard authors");
    assert_eq!(said.last().map(String::as_str), Some("cxboardok"));
    for option in [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Ponder type check default false",
        "option name Move overhead type spin default 50 min 0 max 5000",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Use book type check default true",
        "option name Variant file type string default <empty>",
        "option name Book file type string default <empty>",
        "option name Book choice type combo default weighted random var weighted random var best",
        "option name Save settings type button",
        "option name Configure type string default <empty>",
        "option name Search type combo default alphabeta var alphabeta var patient var probe var scripted",
        "option name Evaluation type combo default nnue var nnue var fairy var pesto var xiangqi-nnue var xiangqi-pst",
        "option name Rescan plugins type button",
        "option name Null move pruning type check default true",
    ] {
        assert!(said.iter().any(|line| line == option), "{option} not in {said:#?}");
    }
    assert!(said[2..said.len() - 1].iter().all(|line| line.starts_with("option name ")), "{said:#?}");
    assert_eq!(t.say(&["isready"]), ["readyok"]);
}

#[test]
fn go_reports_its_best_move_and_the_reply_it_expects() {
    let mut t = forced("scripted");
    // The scripted search plays the lowest move: Red's chariot a0a1, expecting Black's soldier a6a5.
    assert_eq!(
        t.say(&["go depth 1"]),
        ["info depth 1 seldepth 1 score cp 12 time 0 nodes 1 nps 1000 pv a0a1", "bestmove a0a1 ponder a6a5"]
    );
    // Nothing was played: the same position, the same answer.
    assert_eq!(t.say(&["go movetime 100"]).last().map(String::as_str), Some("bestmove a0a1 ponder a6a5"));
    // The move recommended to the side to move: the best move found.
    assert_eq!(t.say(&["hint"]), ["info hint a0a1"]);
}

#[test]
fn go_is_for_force_mode_only() {
    let mut t = forced("scripted");
    assert_eq!(
        t.say(&["playother", "go", "stop"]),
        ["Error (not in force mode): go", "Error (not in force mode): stop"]
    );
    assert_eq!(t.say(&["force", "go depth 1"]).last().map(String::as_str), Some("bestmove a0a1 ponder a6a5"));
}

#[test]
fn go_with_no_legal_move_says_none() {
    let mut t = forced("scripted");
    // Black's general on d9 has no move and is not in check: a loss, and no move to report.
    t.say(&["position cfen 3k5/9/R8/9/9/9/9/9/9/4K3R r 1 moves a7a8"]);
    assert_eq!(t.say(&["go depth 3"]), ["bestmove (none)"]);
    assert_eq!(t.say(&["score"]), ["info score mate 0"]);
}

#[test]
fn searchmoves_restricts_the_root_and_refuses_an_illegal_move() {
    let mut t = forced("scripted");
    assert_eq!(
        t.say(&["go searchmoves h2e2 b0c2 depth 1"]).last().map(String::as_str),
        Some("bestmove b0c2 ponder a6a5")
    );
    assert_eq!(t.say(&["go searchmoves h2e2 depth 1"]).last().map(String::as_str), Some("bestmove h2e2 ponder a6a5"));
    assert_eq!(t.say(&["go searchmoves h3e3 depth 1"]), ["Illegal move (not legal in this position): h3e3"]);
    assert_eq!(t.say(&["go searchmoves a0a10"]), ["Illegal move (not a move): a0a10"]);
}

#[test]
fn every_limit_of_go_reaches_the_search() {
    let mut t = forced("probe");
    t.say(&["go depth 4 nodes 5000"]);
    let seen = t.searches().remove(0);
    assert_eq!(
        (seen.depth, seen.nodes, seen.soft_ms, seen.hard_ms, seen.infinite),
        (4, 5000, NO_DEADLINE, NO_DEADLINE, false)
    );
    // A mate in 3 needs 5 plies.
    t.say(&["go mate 3"]);
    assert_eq!(t.searches().remove(0).depth, 5);
    // Exactly this long, less the move overhead kept for lag.
    t.say(&["go movetime 1000"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (950, 950));
    // Red is to move: Red's time, less the overhead for the lag of each move to
    // go and one more, spread over the moves to go.
    t.say(&["go rtime 60550 btime 1000 movestogo 10"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (6000, 18_000));
    // No move longer than mtime.
    t.say(&["go rtime 60050 btime 1000 movestogo 10 mtime 2050"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (2000, 2000));
    // The game time spent: the overtime of each move.
    t.say(&["go rtime 0 btime 0 otime 3050"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (3000, 3000));
    // Nothing said of the time: the time control (five minutes for 40 moves by
    // default, less the overhead for each move's lag and one more).
    t.say(&["go"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (7448, 22_344));
}

#[test]
fn infinite_waits_for_stop_even_when_the_search_is_done() {
    let mut t = forced("probe");
    // The probe returns at once; the answer waits all the same.
    assert_eq!(
        t.say_at_once(&["go infinite"]),
        ["info depth 1 seldepth 1 score cp 12 time 0 nodes 1 nps 1000 pv a0a1"]
    );
    assert!(t.searches().remove(0).infinite);
    assert_eq!(t.wait(Duration::from_secs(60)), Vec::<String>::new());
    assert_eq!(t.say_at_once(&["isready"]), ["readyok"]);
    assert_eq!(t.say(&["stop"]), ["bestmove a0a1 ponder a6a5"]);
    assert_eq!(t.say(&["stop"]), Vec::<String>::new());
}

#[test]
fn stop_and_move_now_end_a_search_that_runs_on() {
    let mut t = forced("patient");
    assert_eq!(
        t.say_at_once(&["go infinite"]),
        ["info depth 1 seldepth 1 score cp 12 time 0 nodes 1 nps 1000 pv a0a1"]
    );
    assert_eq!(t.say(&["stop"]), ["bestmove a0a1"]);
    t.say_at_once(&["go infinite"]);
    assert_eq!(t.say(&["?"]), ["bestmove a0a1"]);
    // With a deadline it ends there by itself.
    assert_eq!(t.say(&["go movetime 300"]).last().map(String::as_str), Some("bestmove a0a1"));
}

#[test]
fn go_mate_ends_the_search_when_the_mate_is_found() {
    // The built-in search, limited to the plies a mate in one needs, stops at its mate.
    let mut t = forced("alphabeta");
    t.say(&["position cfen 3k5/R8/9/9/9/9/9/9/9/1R2K4 r 1"]);
    let said = t.say(&["go mate 1"]);
    assert_eq!(said.last().map(String::as_str), Some("bestmove b0d0"), "{said:?}");
    assert!(said.iter().any(|line| line.contains("score mate 1")), "{said:?}");
}

#[test]
fn go_ponder_waits_for_the_guis_move_then_searches_or_starts_again() {
    let mut t = forced("probe");
    // The GUI sets the position with the reply it expects (h9g7) and ponders on it.
    t.say(&["position startpos moves h2e2 h9g7"]);
    let said = t.say_at_once(&["go ponder movetime 2050"]);
    assert!(!said.iter().any(|line| is_bestmove(line)), "{said:?}");
    let seen = t.searches().remove(0);
    assert!(seen.infinite, "{seen:?}");
    // The expected move: a ponder hit. The search, already done, answers at once.
    assert_eq!(t.say(&["move h9g7"]), ["bestmove a0a1 ponder a6a5"]);
    // Another move replaces the expected one and is searched afresh, with the limits of `go`.
    t.say(&["position startpos moves h2e2 h9g7"]);
    t.say_at_once(&["go ponder movetime 2050"]);
    t.searches();
    let said = t.say(&["move b9c7"]);
    assert_eq!(said.last().map(String::as_str), Some("bestmove a0a1 ponder a6a5"), "{said:?}");
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms, seen.infinite), (2000, 2000, false));
    assert_eq!(seen.moves.len(), 2, "{seen:?}");
    // The replaced move must be legal where the expected one was played.
    t.say_at_once(&["go ponder"]);
    assert_eq!(t.say_at_once(&["move h2e2"]), ["Illegal move (not legal in this position): h2e2"]);
    assert_eq!(t.say(&["stop"]), ["bestmove a0a1 ponder a6a5"]);
}

#[test]
fn position_sets_up_a_cfen_or_the_start_and_plays_the_legal_moves() {
    let mut t = forced("scripted");
    assert_eq!(
        t.say(&[
            "position cfen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r 1 moves h2e2 h9g7",
            "isready"
        ]),
        ["readyok"]
    );
    // Red to move again: the moves were played, none answered.
    assert_eq!(t.say(&["go depth 1"]).last().map(String::as_str), Some("bestmove a0a1 ponder a6a5"));
    // The start, then Black to move after one move.
    t.say(&["position startpos moves b0c2"]);
    assert_eq!(t.say(&["go depth 1"]).last().map(String::as_str), Some("bestmove a6a5 ponder a0b0"));
    // Both letterings, and a FEN with the empty fields.
    t.say(&["position cfen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2"]);
    assert_eq!(t.say(&["go depth 1"]).last().map(String::as_str), Some("bestmove a6a5 ponder a0b0"));
    // An illegal move keeps the legal ones before it.
    assert_eq!(t.say(&["position startpos moves h2e2 h2e2 h9g7"]), ["Illegal move (not legal in this position): h2e2"]);
    assert_eq!(t.say(&["go depth 1"]).last().map(String::as_str), Some("bestmove a6a5 ponder a0a1"));
}

#[test]
fn a_bad_cfen_is_refused_and_nothing_is_played_until_the_next_position() {
    let mut t = forced("scripted");
    assert_eq!(
        t.say(&["position cfen rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR r 1"]),
        [
            "Error (bad position: generals face each other on an open file): position cfen rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR r 1"
        ]
    );
    assert_eq!(
        t.say(&["move h2e2", "go", "playcurrent", "score"]),
        [
            "Illegal move (no legal position is set up): h2e2",
            "Error (no legal position is set up): go",
            "Error (no legal position is set up): playcurrent",
            "Error (no legal position is set up): score",
        ]
    );
    assert_eq!(
        t.say(&["position startpos", "go depth 1"]).last().map(String::as_str),
        Some("bestmove a0a1 ponder a6a5")
    );
}

#[test]
fn setoption_takes_names_in_any_case_and_refuses_what_does_not_fit() {
    let mut t = forced("probe");
    assert_eq!(
        t.say(&["setoption name move OVERHEAD value 250", "setoption name hash value 32"]),
        Vec::<String>::new()
    );
    t.say(&["go movetime 1000"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.hard_ms, seen.hash_mb), (750, 32));
    assert_eq!(
        t.say(&[
            "setoption name Frobnication value 1",
            "setoption name Move overhead value 9999",
            "setoption name Hash value 0",
            "setoption name Ponder value maybe",
            "setoption name Use book value true",
            "setoption name Probe button",
            "setoption name Book file value <empty>",
        ]),
        [
            "Error (unknown option): setoption name Frobnication value 1",
            "Error (bad value: Move overhead must be between 0 and 5000): setoption name Move overhead value 9999",
            "Error (bad value: Hash must be between 1 and 65536): setoption name Hash value 0",
            "Error (bad value: Ponder must be 0 or 1): setoption name Ponder value maybe",
        ]
    );
    assert_eq!(
        t.say(&["setoption name Configure value Threads=2; MultiPV=x"]),
        ["Error (bad value: MultiPV must be a whole number): setoption name MultiPV value x"]
    );
    t.say(&["go movetime 1000"]);
    assert_eq!(t.searches().remove(0).threads, 2);
}

#[test]
fn choosing_another_search_is_told_as_info_strings() {
    let mut t = forced("scripted");
    let said = t.say(&["setoption name Search value probe"]);
    assert_eq!(said[0], "info string the options are now:");
    assert!(
        said.iter().any(|line| line == "info string option name Probe spin type spin default 5 min 0 max 10"),
        "{said:?}"
    );
}

#[test]
fn debug_on_shows_diagnostics_as_info_strings() {
    let mut t = forced("scripted");
    assert_eq!(t.say(&["name GuestABCD"]), Vec::<String>::new());
    assert_eq!(t.say(&["debug on", "name GuestABCD"]), ["info string opponent GuestABCD"]);
    assert_eq!(t.say(&["debug off", "name GuestABCD"]), Vec::<String>::new());
    assert_eq!(t.say(&["debug", "debug loud"]), ["Error (bad parameter): debug", "Error (bad parameter): debug loud"]);
}

#[test]
fn score_reports_the_last_score_of_the_position_or_searches_for_one() {
    let mut t = forced("scripted");
    // No search yet: a short one, whose line is not shown.
    assert_eq!(t.say(&["score"]), ["info score cp 12"]);
    t.say(&["go depth 1"]);
    assert_eq!(t.say(&["score"]), ["info score cp 12"]);
    assert_eq!(t.say(&["score now"]), ["Error (too many parameters): score now"]);
}

#[test]
fn hint_tells_the_expected_reply_or_nothing() {
    let mut t = forced("scripted");
    assert_eq!(t.say(&["hint"]), Vec::<String>::new());
    t.say(&["go depth 1"]);
    assert_eq!(t.say(&["hint"]), ["info hint a0a1"]);
    // Once that move is played, nothing is known of the next.
    t.say(&["move a0a1"]);
    assert_eq!(t.say(&["hint"]), Vec::<String>::new());
}

#[test]
fn undo_in_force_mode_and_remove_in_any() {
    let mut t = forced("scripted");
    t.say(&["move h2e2", "move h9g7", "move b0c2"]);
    assert_eq!(t.say(&["undo", "go depth 1"]).last().map(String::as_str), Some("bestmove a0a1 ponder a6a5"));
    assert_eq!(t.say(&["remove", "go depth 1"]).last().map(String::as_str), Some("bestmove a0a1 ponder a6a5"));
    assert_eq!(t.say(&["remove", "go depth 1"]).last().map(String::as_str), Some("bestmove a0a1 ponder a6a5"));
    assert_eq!(t.say(&["playother", "undo"]), ["Error (not in force mode): undo"]);
    assert_eq!(t.say(&["remove", "isready"]), ["readyok"]);
}

#[test]
fn draw_is_accepted_only_where_nobody_can_win() {
    let mut t = forced("scripted");
    assert_eq!(t.say(&["draw"]), Vec::<String>::new());
    t.say(&["position cfen 3k5/9/9/9/9/9/9/9/9/4K4 r 1"]);
    assert_eq!(t.say(&["draw"]), ["offer draw"]);
}

#[test]
fn result_ends_the_game_and_the_engine_stops() {
    let mut t = forced("patient");
    t.say_at_once(&["playcurrent"]);
    assert_eq!(t.say(&["result 1-0 {Red mates}", "isready"]), ["readyok"]);
    assert!(!t.session.is_searching());
    assert_eq!(t.say(&["playcurrent", "isready"]), ["readyok"]);
    assert_eq!(t.say(&["result 3-0"]), ["Error (bad parameter): result 3-0"]);
}

#[test]
fn name_and_computer_are_taken_quietly() {
    let mut t = forced("scripted");
    assert_eq!(t.say(&["name Fairy-Max 5.0b", "computer", "isready"]), ["readyok"]);
    assert!(t.session.core.ics.computer());
}

#[test]
fn bad_lines_get_errors_and_quit_ends_the_session() {
    let mut t = forced("scripted");
    assert_eq!(
        t.say(&["frobnicate", "h2e2", "move", "move h2e2 h9g7", "move z9z9", "force now", "clock 1 2", "go depth", ""]),
        [
            "Error (unknown command): frobnicate",
            "Error (unknown command): h2e2",
            "Error (bad parameter): move",
            "Error (too many parameters): move h2e2 h9g7",
            "Illegal move (not a move): z9z9",
            "Error (too many parameters): force now",
            "Error (bad parameter): clock 1 2",
            "Error (bad parameter): go depth",
            "Error (unknown command): ",
        ]
    );
    t.session.handle(plugboard::event::Event::Overlong { start: "x".repeat(300), length: 70_000 });
    assert_eq!(t.output(), [format!("Error (line too long): {}... (70000 bytes in all)", "x".repeat(100))]);
    assert!(!t.session.wants_to_quit());
    t.say(&["quit"]);
    assert!(t.session.wants_to_quit());
}
