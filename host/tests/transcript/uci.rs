//! The UCI front end: the greeting, `isready` at any time, `setoption` (names
//! with spaces, any case, buttons), `ucinewgame`, `position` with its moves,
//! `go` with every limit, `stop`, `ponderhit`, `debug`, `quit`, the variants
//! of `UCI_Variant`, Chess960 castling, and what a bad line gets.

use std::time::Duration;

use plugboard::uci::Session;
use plugboard_plugin_api::NO_DEADLINE;

use crate::harness::Transcript;

fn playing(search: &str) -> Transcript<Session> {
    Transcript::uci_playing(search)
}

fn last(said: &[String]) -> Option<&str> {
    said.last().map(String::as_str)
}

#[test]
fn the_greeting_names_the_engine_declares_the_options_and_ends_with_uciok() {
    let mut t = Transcript::uci();
    let said = t.say(&["uci"]);
    assert_eq!(said[0], concat!("id name Plugboard ", env!("CARGO_PKG_VERSION")));
    assert_eq!(said[1], "id author The Plugboard authors");
    assert_eq!(last(&said), Some("uciok"));
    for option in [
        "option name UCI_Chess960 type check default false",
        "option name SyzygyPath type string default <empty>",
        "option name UCI_AnalyseMode type check default false",
        "option name UCI_ShowWDL type check default false",
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Move overhead type spin default 50 min 0 max 5000",
        "option name Search type combo default alphabeta var alphabeta var patient var probe var scripted",
        "option name Rescan plugins type button",
    ] {
        assert!(said.iter().any(|line| line == option), "{option} not in {said:#?}");
    }
    let variants = said.iter().find(|line| line.starts_with("option name UCI_Variant ")).expect("UCI_Variant");
    assert!(variants.starts_with("option name UCI_Variant type combo default chess var chess "), "{variants}");
    assert!(variants.contains(" var xiangqi") && !variants.contains(" var normal"), "{variants}");
    assert!(said[2..said.len() - 1].iter().all(|line| line.starts_with("option name ")), "{said:#?}");
    // CECP's thinking lines are no business of UCI's.
    assert!(!said.iter().any(|line| line.contains("Extended thinking")), "{said:#?}");
    assert_eq!(t.say(&["isready"]), ["readyok"]);
}

#[test]
fn go_reports_its_best_move_and_the_reply_it_expects() {
    let mut t = playing("scripted");
    // The scripted search plays the lowest move, b1a3, expecting a7a5.
    let said = t.say(&["go depth 1"]);
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(said[0].starts_with("info depth 1 seldepth 1 multipv 1 score cp "), "{said:?}");
    assert!(said[0].ends_with(" pv b1a3"), "{said:?}");
    assert_eq!(said[1], "bestmove b1a3 ponder a7a5");
    // Nothing was played: the same position, the same answer; after the moves, another.
    assert_eq!(last(&t.say(&["go movetime 100"])), Some("bestmove b1a3 ponder a7a5"));
    t.say(&["position startpos moves b1a3 b8a6"]);
    assert_eq!(last(&t.say(&["go depth 1"])), Some("bestmove a1b1 ponder a6b4"));
}

#[test]
fn position_plays_the_legal_moves_and_says_where_it_stops() {
    let mut t = playing("probe");
    assert_eq!(
        t.say(&["position startpos moves e2e4 e7e5 e1e3 g1f3"]),
        ["info string Illegal move (not legal in this position): e1e3; the position ends before it"]
    );
    t.say(&["go depth 1"]);
    assert_eq!(t.searches().remove(0).moves, ["e2e4", "e7e5"]);
    // A FEN, then its moves.
    t.say(&["position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4"]);
    t.say(&["go depth 1"]);
    assert_eq!(t.searches().remove(0).moves, ["e2e4"]);
    // A bad FEN is refused, and the next `go` is still answered.
    let said = t.say(&["position fen 9/9 w - - 0 1"]);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("info string Error (bad position: "), "{said:?}");
    assert_eq!(
        t.say(&["go depth 1"]),
        ["info string Error (no legal position is set up): go depth 1", "bestmove 0000"]
    );
    // Lines that are no `position` at all.
    assert_eq!(
        t.say(&["position somewhere"]),
        [
            "info string Error (bad parameter: position needs fen FEN or startpos, then moves if any): position somewhere"
        ]
    );
}

#[test]
fn go_with_no_legal_move_says_0000() {
    let mut t = playing("scripted");
    // Black is mated.
    t.say(&["position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"]);
    assert_eq!(t.say(&["go depth 3"]), ["bestmove 0000"]);
}

#[test]
fn every_limit_of_go_reaches_the_search() {
    let mut t = playing("probe");
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
    // White is to move: White's time, less the overhead for the lag of each
    // move to go and one more, spread over the moves to go.
    t.say(&["go wtime 60550 btime 1000 movestogo 10"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (6000, 18_000));
    // White's increment adds to each move's share; Black's does not.
    t.say(&["go wtime 60550 btime 1000 winc 1000 binc 5000 movestogo 10"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (6900, 20_166));
    // Black to move: Black's clock.
    t.say(&["position startpos moves e2e4", "go wtime 1000 btime 60550 movestogo 10"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (6000, 18_000));
    // The `Move Overhead` a GUI sets (in UCI's spelling) is kept back.
    t.say(&["setoption name Move Overhead value 100", "go movetime 1000"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.soft_ms, seen.hard_ms), (900, 900));
}

#[test]
fn searchmoves_restricts_the_root_and_passes_over_an_illegal_move() {
    let mut t = playing("scripted");
    assert_eq!(last(&t.say(&["go searchmoves e2e4 d2d4 depth 1"])), Some("bestmove d2d4 ponder a7a5"));
    assert_eq!(
        t.say(&["go searchmoves e2e5 e2e4 depth 1"])[0],
        "info string Illegal move (not legal in this position): e2e5; searchmoves goes on without it"
    );
}

#[test]
fn infinite_waits_for_stop_and_isready_is_answered_meanwhile() {
    let mut t = playing("probe");
    // The probe returns at once; the answer waits all the same.
    let said = t.say_at_once(&["go infinite"]);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].starts_with("info depth 1 "), "{said:?}");
    assert!(t.searches().remove(0).infinite);
    assert_eq!(t.wait(Duration::from_secs(60)), Vec::<String>::new());
    assert_eq!(t.say_at_once(&["isready"]), ["readyok"]);
    assert_eq!(t.say(&["stop"]), ["bestmove b1a3 ponder a7a5"]);
    // A second `stop` has no search to end.
    assert_eq!(t.say(&["stop"]), Vec::<String>::new());
}

#[test]
fn a_search_cut_short_by_the_next_position_still_reports_its_best_move() {
    let mut t = playing("patient");
    let said = t.say_at_once(&["go infinite"]);
    assert!(said.iter().any(|line| line.starts_with("info depth 1 ")), "{said:?}");
    // The GUI sends the next position without `stop`: the best move so far comes first.
    assert_eq!(t.say_at_once(&["position startpos moves e2e4"]), ["bestmove b1a3"]);
    assert!(!t.session.is_searching());
    assert_eq!(t.say(&["go movetime 300"]).last().map(String::as_str), Some("bestmove a7a5"));
}

#[test]
fn go_ponder_waits_for_ponderhit_then_answers_under_its_limits() {
    let mut t = playing("probe");
    // The GUI sets the position with the reply it expects (e7e5) and ponders on it.
    t.say(&["position startpos moves e2e4 e7e5"]);
    let said = t.say_at_once(&["go ponder movetime 2050"]);
    assert!(!said.iter().any(|line| line.starts_with("bestmove")), "{said:?}");
    assert!(t.searches().remove(0).infinite);
    assert_eq!(t.wait(Duration::from_secs(60)), Vec::<String>::new());
    // The expected move was played: the search, already done, answers at once.
    assert_eq!(t.say(&["ponderhit"]), ["bestmove b1a3 ponder a7a5"]);
    // The opponent played another move: the GUI stops the ponder search and
    // starts again, and the stopped search's answer is reported.
    t.say_at_once(&["go ponder movetime 2050"]);
    assert_eq!(t.say(&["stop"]), ["bestmove b1a3 ponder a7a5"]);
    // `ponderhit` with no ponder search running does nothing.
    assert_eq!(t.say(&["ponderhit"]), Vec::<String>::new());
}

#[test]
fn options_are_found_in_any_case_and_bad_values_are_answered() {
    let mut t = playing("probe");
    t.say(&["setoption name threads value 3", "setoption name HASH value 16", "go depth 1"]);
    let seen = t.searches().remove(0);
    assert_eq!((seen.threads, seen.hash_mb), (3, 16));
    assert_eq!(
        t.say(&["setoption name Frobnicate value 1"]),
        ["info string Error (unknown option): setoption name Frobnicate value 1"]
    );
    assert_eq!(
        t.say(&["setoption name Threads value many"]),
        ["info string Error (bad value: Threads must be a whole number): setoption name Threads value many"]
    );
    assert_eq!(
        t.say(&["setoption name UCI_Variant value nosuch"]),
        [
            "info string Error (bad value: UCI_Variant has no choice named nosuch): setoption name UCI_Variant value nosuch"
        ]
    );
}

#[test]
fn uci_variant_chooses_the_game_of_each_position() {
    let mut t = playing("scripted");
    t.say(&["setoption name UCI_Variant value xiangqi", "position startpos"]);
    assert_eq!(last(&t.say(&["go depth 1"])), Some("bestmove a0a1 ponder a6a5"));
    // Back to chess.
    t.say(&["setoption name UCI_Variant value chess", "position startpos"]);
    assert_eq!(last(&t.say(&["go depth 1"])), Some("bestmove b1a3 ponder a7a5"));
}

#[test]
fn castling_is_the_kings_two_steps_or_in_chess960_the_king_onto_its_rook() {
    let mut t = playing("scripted");
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    t.say(&[&format!("position fen {fen}")]);
    assert_eq!(last(&t.say(&["go searchmoves e1g1 depth 1"])), Some("bestmove e1g1 ponder e8d7"));
    t.say(&["setoption name UCI_Chess960 value true", &format!("position fen {fen}")]);
    assert_eq!(last(&t.say(&["go searchmoves e1h1 depth 1"])), Some("bestmove e1h1 ponder e8d7"));
    // A GUI that sends the king's two steps in Chess960 is understood too.
    t.say(&[&format!("position fen {fen} moves e1g1")]);
    assert_eq!(last(&t.say(&["go depth 1"])), Some("bestmove e8d7 ponder f1a1"));
}

#[test]
fn ucinewgame_debug_unknown_commands_and_quit() {
    let mut t = playing("scripted");
    // Unknown commands are ignored, as the specification asks; with `debug on` they are said.
    assert_eq!(t.say(&["frobnicate now"]), Vec::<String>::new());
    assert_eq!(t.say(&["debug on", "frobnicate now"]), ["info string ignored: frobnicate now"]);
    assert_eq!(t.say(&["debug off", "frobnicate"]), Vec::<String>::new());
    // A line that is a command but a bad one is answered.
    assert_eq!(t.say(&["go depth 0"]), ["info string Error (bad parameter: depth needs at least one ply): go depth 0"]);
    t.say(&["position startpos moves e2e4", "ucinewgame", "position startpos"]);
    assert_eq!(last(&t.say(&["go depth 1"])), Some("bestmove b1a3 ponder a7a5"));
    assert_eq!(t.say(&["quit"]), Vec::<String>::new());
    assert!(t.session.wants_to_quit());
}
