//! `plugboard book make` from the command line: a book built from PGN games gives
//! back their moves, weighted by results, and bad input is refused with a message.

mod common;

use std::process::Command;

use plugboard::book::Book;
use shakmaty::{Chess, Position, san::San};

const GAMES: &str = r#"[Event "Round trip"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 {a comment} e5 2. Nf3 (2. Bc4 Nf6) Nc6 3. Bb5 a6 4. O-O 1-0

[Event "Round trip"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O 1/2-1/2

[Event "Round trip"]
[Result "0-1"]

1. d4 d5 2. c4 e6 3. cxd5 exd5 0-1
"#;

fn make(dir: &std::path::Path, pgn: &str, args: &[&str]) -> (std::process::Output, std::path::PathBuf) {
    let games = dir.join("games.pgn");
    std::fs::write(&games, pgn).unwrap();
    let book = dir.join("book.bin");
    let output = Command::new(common::binary())
        .args(["book", "make"])
        .arg(&games)
        .arg("-o")
        .arg(&book)
        .args(args)
        .output()
        .expect("plugboard runs");
    (output, book)
}

/// The book's moves after `moves`, in SAN with their weights.
fn book_moves(book: &Book, moves: &[&str]) -> Vec<(String, u32)> {
    let mut position = Chess::default();
    for text in moves {
        position.play_unchecked(text.parse::<San>().unwrap().to_move(&position).unwrap());
    }
    book.moves(&position).iter().map(|b| (San::from_move(&position, b.m).to_string(), b.weight)).collect()
}

#[test]
fn a_book_made_from_games_gives_back_their_moves() {
    let dir = tempfile::tempdir().unwrap();
    let (output, path) = make(dir.path(), GAMES, &["--min-games", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(summary.starts_with("3 games read, 3 used, 0 skipped"), "{summary}");
    let book = Book::open(&path).unwrap();
    // Two points a win, one a draw, for the side that moved; the variation is not a game.
    assert_eq!(book_moves(&book, &[]), [("e4".to_owned(), 3)]);
    assert_eq!(book_moves(&book, &["e4", "e5"]), [("Nf3".to_owned(), 3)]);
    assert_eq!(book_moves(&book, &["e4", "e5", "Nf3", "Nc6", "Bb5"]), [("Nf6".to_owned(), 1)]);
    // Castling goes in as king takes rook and comes back as castling.
    assert_eq!(book_moves(&book, &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]), [("O-O".to_owned(), 2)]);
    // Black won the third game: every Black move of it is in, every White move out.
    assert_eq!(book_moves(&book, &["d4"]), [("d5".to_owned(), 2)]);
    assert!(book_moves(&book, &["d4", "d5"]).is_empty());
    // The file is whole entries, sorted by key.
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len() % 16, 0);
    let keys: Vec<u64> = bytes.chunks(16).map(|c| u64::from_be_bytes(c[..8].try_into().unwrap())).collect();
    assert!(keys.is_sorted());
}

#[test]
fn the_engine_plays_from_a_book_it_made() {
    let dir = tempfile::tempdir().unwrap();
    let (output, path) = make(dir.path(), GAMES, &["--min-games", "2", "--only-white"]);
    assert!(output.status.success());
    let mut engine = common::Engine::start(None);
    engine.handshake();
    engine.send(&format!("option Book file={}", path.display()));
    for line in ["option Book choice=best", "new", "white", "go"] {
        engine.send(line);
    }
    assert_eq!(engine.expect_move(), "e2e4");
    engine.send("e7e5");
    assert_eq!(engine.expect_move(), "g1f3");
}

#[test]
fn bad_input_is_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let missing = Command::new(common::binary())
        .args(["book", "make", "/nonexistent/games.pgn", "-o"])
        .arg(dir.path().join("x.bin"))
        .output()
        .unwrap();
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read /nonexistent/games.pgn"));
    let (empty, path) = make(dir.path(), "this is no PGN\n", &[]);
    assert!(!empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no usable game"));
    assert!(!path.exists(), "no book is written from nothing");
    let good = dir.path().join("good.pgn");
    std::fs::write(&good, GAMES).unwrap();
    let unwritable = Command::new(common::binary())
        .args(["book", "make"])
        .arg(&good)
        .args(["-o", "/nonexistent/folder/book.bin"])
        .output()
        .unwrap();
    assert!(!unwritable.status.success());
    assert!(String::from_utf8_lossy(&unwritable.stderr).contains("cannot write /nonexistent/folder/book.bin"));
}
