//! The opening book through stdin/stdout: `bk` as the user sees it, book moves
//! played without a search in a game, the book's reply as the hint, and a file
//! that is no book refused while the engine plays on.

use crate::common;

use std::path::PathBuf;

use common::Engine;

fn book(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/books").join(name).display().to_string()
}

fn engine_with_book(name: &str) -> Engine {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("option Book file={}", book(name)));
    engine.send("option Book choice=best");
    engine
}

#[test]
fn bk_lists_every_book_move_with_its_share() {
    let mut engine = engine_with_book("gm2001.bin");
    engine.send("new");
    engine.send("force");
    engine.send("bk");
    let start: Vec<String> = engine.sync(1).into_iter().filter(|l| !l.starts_with('#')).collect();
    // The weights are gm2001.bin's as python-chess reads them (tests/data/books/MANIFEST.md).
    let expected = [
        " e4       42.2%  (10439)",
        " d4       41.9%  (10366)",
        " Nf3       8.7%  (2146)",
        " c4        6.6%  (1645)",
        " g3        0.4%  (102)",
        " b3        0.1%  (32)",
        " Nc3       0.0%  (5)",
        " f4        0.0%  (3)",
        "",
    ];
    assert_eq!(start, expected);

    for m in ["e2e4", "c7c5", "g1f3"] {
        engine.send(m);
    }
    engine.send("bk");
    let sicilian: Vec<String> = engine.sync(2).into_iter().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(sicilian[..3], [" d6       46.7%  (3938)", " Nc6      27.3%  (2301)", " e6       24.2%  (2045)"]);
    assert_eq!(sicilian.last().map(String::as_str), Some(""));

    // Out of the book: a line that says so, then the empty line.
    engine.send("new");
    engine.send("force");
    for m in ["a2a4", "h7h5", "a1a3"] {
        engine.send(m);
    }
    engine.send("bk");
    let out: Vec<String> = engine.sync(3).into_iter().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(out, [" No book or tablebase moves in this position.", ""]);
}

#[test]
fn book_moves_are_played_without_search_and_give_the_hint() {
    let mut engine = engine_with_book("gm2001.bin");
    for line in ["new", "post", "level 0 1 0", "white", "go"] {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("move "));
    assert_eq!(lines.last().map(String::as_str), Some("move e2e4"));
    let thinking: Vec<&String> = lines.iter().filter(|l| l.contains('\t')).collect();
    // One line, marked as no search result by its '('.
    assert_eq!(thinking.len(), 1, "{lines:?}");
    assert!(thinking[0].ends_with("\t(book e4: e4 42%, d4 41%, Nf3 8%, c4 6%, g3 0%, b3 0%)"), "{thinking:?}");
    engine.send("hint");
    let hint = engine.sync(1).into_iter().filter(|l| l.starts_with("Hint:")).collect::<Vec<_>>();
    assert_eq!(hint, ["Hint: c7c5"]);

    // The opponent follows the book: every answer is the book's heaviest move.
    engine.send("c7c5");
    assert_eq!(engine.expect_move(), "g1f3");
    engine.send("d7d6");
    assert_eq!(engine.expect_move(), "d2d4");

    // Off the book's path, the search takes over.
    engine.send("h7h5");
    let lines = engine.read_until(|l| l.starts_with("move "));
    assert!(lines.iter().any(|l| l.contains('\t') && !l.contains("\t(")), "no search line: {lines:?}");
}

#[test]
fn the_book_can_be_switched_off_and_limited_in_depth() {
    let mut engine = engine_with_book("gm2001.bin");
    for line in ["option Use book=0", "new", "post", "sd 3", "white", "go"] {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("move "));
    assert!(!lines.iter().any(|l| l.contains("\t(book")), "{lines:?}");

    for line in ["option Use book=1", "option Book depth=1", "new", "post", "sd 3", "white", "go"] {
        engine.send(line);
    }
    let first = engine.read_until(|l| l.starts_with("move "));
    assert!(first.iter().any(|l| l.contains("\t(book")), "{first:?}");
    engine.send("c7c5");
    let second = engine.read_until(|l| l.starts_with("move "));
    assert!(!second.iter().any(|l| l.contains("\t(book")), "move 2 is past a depth of 1: {second:?}");
}

#[test]
fn a_file_that_is_no_book_is_refused_and_the_engine_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.bin");
    std::fs::write(&broken, [0u8; 17]).unwrap();
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("option Book file={}", broken.display()));
    let said = engine.sync(1);
    assert!(
        said.iter().any(|l| l.starts_with("tellusererror Book not opened: ") && l.contains("whole number")),
        "{said:?}"
    );
    engine.send(&format!("option Book file={}", dir.path().join("missing.bin").display()));
    let said = engine.sync(2);
    assert!(said.iter().any(|l| l.starts_with("tellusererror Book not opened: cannot read")), "{said:?}");
    for line in ["new", "sd 2", "white", "go"] {
        engine.send(line);
    }
    assert!(!engine.expect_move().is_empty());
    // A good book replaces the bad one at once.
    engine.send(&format!("option Book file={}", book("gm2001.bin")));
    engine.send("option Book choice=best");
    for line in ["new", "white", "go"] {
        engine.send(line);
    }
    assert_eq!(engine.expect_move(), "e2e4");
}

#[test]
fn a_ponder_hit_in_the_book_plays_the_book_move() {
    let mut engine = engine_with_book("gm2001.bin");
    for line in ["new", "hard", "post", "level 0 1 0", "white", "go"] {
        engine.send(line);
    }
    assert_eq!(engine.expect_move(), "e2e4");
    // Pondering on the book's favourite reply; it comes: the book answers, not the search.
    let hint = engine.read_until(|l| l.starts_with("Hint:"));
    assert_eq!(hint.last().map(String::as_str), Some("Hint: c7c5"));
    engine.send("c7c5");
    let lines = engine.read_until(|l| l.starts_with("move "));
    assert_eq!(lines.last().map(String::as_str), Some("move g1f3"));
    assert!(lines.iter().any(|l| l.contains("\t(book Nf3")), "{lines:?}");
}

/// A Polyglot entry for the start position.
fn start_entry(from: u16, to: u16, weight: u16) -> Vec<u8> {
    const START_KEY: u64 = 0x463b_9618_1691_fc9c;
    let mut bytes = START_KEY.to_be_bytes().to_vec();
    bytes.extend(((from << 6) | to).to_be_bytes());
    bytes.extend(weight.to_be_bytes());
    bytes.extend(0u32.to_be_bytes());
    bytes
}

#[test]
fn a_move_listed_65538_times_outweighs_a_heavier_single_entry() {
    // 65,538 entries of e4 at full weight sum past what 16 bits hold (wrapped, to
    // 65,534), and d4's one entry of 65,535 must still be the lighter.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("heavy.bin");
    let mut bytes: Vec<u8> = (0..65_538).flat_map(|_| start_entry(12, 28, u16::MAX)).collect();
    bytes.extend(start_entry(11, 27, u16::MAX));
    std::fs::write(&path, bytes).unwrap();

    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("option Book file={}", path.display()));
    engine.send("option Book choice=best");
    engine.send("new");
    engine.send("force");
    engine.send("bk");
    let rows: Vec<String> = engine.sync(1).into_iter().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows, [" e4      100.0%  (4295032830)", " d4        0.0%  (65535)", ""]);
    engine.send("white");
    engine.send("go");
    assert_eq!(engine.expect_move(), "e2e4");
}
