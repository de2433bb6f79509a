//! The UCI front end through the engine's stdin and stdout, with the real
//! plugins: chosen by the first line `uci`, it answers `go` with a legal move
//! (checked by shakmaty and by the variants' own rules), `isready` while it
//! thinks, `stop` with the move, a variant chosen with `UCI_Variant`, and it
//! ends with status 0.

use crate::common;

use std::time::Duration;

use common::Engine;
use shakmaty::{CastlingMode, Chess, Position, uci::UciMove};

fn greeted() -> Engine {
    let mut engine = Engine::start(None);
    engine.send("uci");
    let greeting = engine.read_until(|line| line == "uciok");
    assert!(greeting[0].starts_with("id name Plugboard "), "{greeting:?}");
    assert!(greeting.iter().any(|line| line.starts_with("option name Evaluation type combo")), "{greeting:?}");
    assert!(!greeting.iter().any(|line| line.starts_with("feature")), "{greeting:?}");
    engine
}

/// The move of a `bestmove` line, legal in `position` (which it then plays).
#[track_caller]
fn legal_best_move(position: &mut Chess, line: &str) -> String {
    let text = line.split_whitespace().nth(1).unwrap_or_default().to_owned();
    let uci: UciMove = text.parse().unwrap_or_else(|_| panic!("{line}: not a move"));
    let m = uci.to_move(position).unwrap_or_else(|_| panic!("{line}: not legal"));
    position.play_unchecked(m);
    text
}

#[test]
fn uci_answers_go_with_legal_moves_isready_while_thinking_and_quits() {
    let mut engine = greeted();
    engine.send("isready");
    assert_eq!(engine.read_until(|line| line == "readyok"), ["readyok"]);
    engine.send("ucinewgame");
    let mut position = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..3 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        engine.send("go wtime 3000 btime 3000 winc 20 binc 20");
        let lines = engine.read_until(|line| line.starts_with("bestmove "));
        // Every line's PV is legal from the position searched.
        for info in lines.iter().filter(|line| line.contains(" pv ")) {
            let mut line_position = position.clone();
            for text in info.split(" pv ").nth(1).unwrap_or_default().split_whitespace() {
                let m = text.parse::<UciMove>().ok().and_then(|uci| uci.to_move(&line_position).ok());
                let m = m.unwrap_or_else(|| panic!("{text} in {info:?} is not legal"));
                line_position.play_unchecked(m);
            }
        }
        moves.push(legal_best_move(&mut position, lines.last().expect("bestmove")));
        // The opponent's reply: the first legal move.
        let reply = position.legal_moves()[0];
        moves.push(reply.to_uci(CastlingMode::Standard).to_string());
        position.play_unchecked(reply);
    }
    // While it thinks without end, `isready` is answered at once, and `stop` brings the move.
    engine.send(&format!("position startpos moves {}", moves.join(" ")));
    engine.send("go infinite");
    assert!(engine.next_line(Duration::from_secs(5)).is_some_and(|line| line.starts_with("info ")));
    engine.send("isready");
    let lines = engine.read_until(|line| line == "readyok");
    assert!(!lines.iter().any(|line| line.starts_with("bestmove")), "{lines:?}");
    engine.send("stop");
    let lines = engine.read_until(|line| line.starts_with("bestmove "));
    legal_best_move(&mut position, lines.last().expect("bestmove"));
    engine.send("quit");
    let status = engine.wait_exit(Duration::from_secs(5)).expect("the engine ends");
    assert!(status.success(), "{status:?}");
}

#[test]
fn uci_variant_plays_a_variant_defined_as_data_and_bad_lines_leave_the_engine_working() {
    let mut engine = greeted();
    engine.send("setoption name UCI_Variant value capablanca");
    engine.send("position startpos moves e2e4");
    engine.send("go movetime 300");
    let lines = engine.read_until(|line| line.starts_with("bestmove "));
    let best = lines.last().and_then(|line| line.split_whitespace().nth(1)).unwrap_or_default().to_owned();
    let catalog = plugboard_variants::Catalog::builtin();
    let capablanca = catalog.get("capablanca").expect("capablanca").clone();
    let mut after_e4 = plugboard_variants::Position::start(capablanca).expect("a start");
    let e4 = after_e4.parse_move("e2e4").expect("e2e4");
    after_e4.play(e4);
    assert!(after_e4.parse_move(&best).is_ok(), "{best} is not a legal reply in capablanca: {lines:?}");
    // Garbage, a bad position and a bad `go`: answered, and the next `go` still is.
    engine.send("frobnicate");
    engine.send("position fen nonsense");
    engine.send("go depth 0");
    engine.send("setoption name UCI_Variant value chess");
    engine.send("position startpos");
    engine.send("go depth 2");
    let lines = engine.read_until(|line| line.starts_with("bestmove "));
    assert!(lines.iter().any(|line| line.starts_with("info string Error (bad position")), "{lines:?}");
    assert!(lines.iter().any(|line| line.starts_with("info string Error (bad parameter")), "{lines:?}");
    legal_best_move(&mut Chess::default(), lines.last().expect("bestmove"));
    engine.send("quit");
    let status = engine.wait_exit(Duration::from_secs(5)).expect("the engine ends");
    assert!(status.success(), "{status:?}");
}

fn book(name: &str) -> String {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/books").join(name).display().to_string()
}

#[test]
fn the_book_answers_a_game_but_not_an_analysis_and_a_long_search_tells_its_root_move() {
    let mut engine = greeted();
    engine.send(&format!("setoption name Book file value {}", book("gm2001.bin")));
    engine.send("setoption name Book choice value best");
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("position startpos moves e2e4 c7c5");
    engine.send("go wtime 60000 btime 60000");
    let lines = engine.read_until(|line| line.starts_with("bestmove "));
    // gm2001.bin's most played reply to the Sicilian; said as a book move, not searched.
    assert_eq!(lines.last().map(String::as_str), Some("bestmove g1f3 ponder d7d6"), "{lines:?}");
    assert!(lines.iter().any(|line| line.starts_with("info string g1f3 (book Nf3: Nf3 91%")), "{lines:?}");
    assert!(!lines.iter().any(|line| line.starts_with("info depth")), "{lines:?}");

    // An analysing GUI wants the search's view: every line with its chances and the table's fill.
    engine.send("setoption name UCI_AnalyseMode value true");
    engine.send("go wtime 60000 btime 60000");
    let mut lines = engine.read_until(|line| line.starts_with("bestmove "));
    // After a second, a search tells the root move it is on.
    engine.send("go infinite");
    lines.extend(engine.read_until(|line| line.contains(" currmove ")));
    engine.send("stop");
    lines.extend(engine.read_until(|line| line.starts_with("bestmove ")));
    let searched: Vec<&String> = lines.iter().filter(|line| line.contains(" pv ")).collect();
    assert!(!searched.is_empty(), "{lines:?}");
    for line in &searched {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|&word| word == "wdl").unwrap_or_else(|| panic!("no wdl in {line}"));
        let chances: Vec<u32> = words[at + 1..at + 4].iter().map(|word| word.parse().expect("permille")).collect();
        assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
        let at = words.iter().position(|&word| word == "hashfull").unwrap_or_else(|| panic!("no hashfull in {line}"));
        assert!(words[at + 1].parse::<u32>().is_ok_and(|permille| permille <= 1000), "{line}");
    }
    let mut position = Chess::default();
    legal_best_move(&mut position, "bestmove e2e4");
    legal_best_move(&mut position, "bestmove c7c5");
    let current: Vec<&String> = lines.iter().filter(|line| line.contains(" currmove ")).collect();
    assert!(!current.is_empty(), "{lines:?}");
    for line in current {
        let m = line.split(" currmove ").nth(1).and_then(|rest| rest.split_whitespace().next()).unwrap_or_default();
        let legal = m.parse::<UciMove>().ok().is_some_and(|uci| uci.to_move(&position).is_ok());
        assert!(legal, "{line}");
        assert!(line.contains(" currmovenumber "), "{line}");
    }
    legal_best_move(&mut position, lines.last().expect("bestmove"));
}
