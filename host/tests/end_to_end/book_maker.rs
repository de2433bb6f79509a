//! `plugboard book make` from the command line: a book built from PGN games gives
//! back their moves, weighted by results, and bad input is refused with a message.

use crate::common;

use std::{collections::HashMap, io::Write, process::Command};

use plugboard::book::Book;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, fen::Fen, san::San};

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
fn book_moves(book: &Book, moves: &[&str]) -> Vec<(String, u64)> {
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

/// Games that share openings, castle both ways, allow en passant (taken and not)
/// and end in every result, with their moves in SAN.
const TREE: [(&str, &str); 7] = [
    ("1-0", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3"),
    ("1/2-1/2", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4"),
    ("0-1", "e4 Nf6 e5 d5 exd6 exd6 d4 Be7 Nf3 O-O"),
    ("1-0", "e4 Nf6 e5 d5 d4 c5 c3 Nc6 Bd3 Qb6 Ne2 Bg4 O-O"),
    ("*", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6 Bh4 b6 Qc2 Bb7 O-O-O"),
    ("0-1", "d4 d5 c4 dxc4 e4 b5"),
    ("1-0", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3"),
];

/// The games as PGN, with numbers, a comment and a variation for the reader to get past.
fn tree_pgn() -> String {
    let mut pgn = String::new();
    for (round, (result, moves)) in TREE.iter().enumerate() {
        pgn += &format!("[Event \"Tree\"]\n[Round \"{}\"]\n[Result \"{result}\"]\n\n", round + 1);
        for (ply, san) in moves.split(' ').enumerate() {
            if ply % 2 == 0 {
                pgn += &format!("{}. ", ply / 2 + 1);
            }
            pgn += san;
            pgn += if ply == 2 { " {a comment} (3. Qh5 Nc6) " } else { " " };
        }
        pgn += result;
        pgn += "\n\n";
    }
    // From a set-up position: left out.
    pgn += "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n[Result \"1-0\"]\n\n1. O-O-O 1-0\n";
    pgn
}

/// Every position of the games (by FEN) with the moves played from it (SAN) and
/// their games and points, counted here from the games themselves.
fn tally() -> HashMap<String, HashMap<String, (u32, u32)>> {
    let mut positions: HashMap<String, HashMap<String, (u32, u32)>> = HashMap::new();
    for (result, moves) in TREE {
        let mut position = Chess::default();
        for (ply, san) in moves.split(' ').enumerate() {
            let white_points = match result {
                "1-0" => 2,
                "0-1" => 0,
                _ => 1,
            };
            let points = if ply % 2 == 0 { white_points } else { 2 - white_points };
            let fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
            let stat = positions.entry(fen).or_default().entry(san.to_owned()).or_default();
            stat.0 += 1;
            stat.1 += points;
            position.play_unchecked(san.parse::<San>().unwrap().to_move(&position).unwrap());
        }
    }
    positions
}

#[test]
fn every_position_of_the_games_has_their_moves_weighted_by_results() {
    let dir = tempfile::tempdir().unwrap();
    let (output, path) = make(dir.path(), &tree_pgn(), &["--min-games", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let summary = String::from_utf8_lossy(&output.stdout);
    assert!(summary.starts_with("8 games read, 7 used, 1 skipped"), "{summary}");
    let book = Book::open(&path).unwrap();
    let expected = tally();
    let mut checked = 0;
    for (_, moves) in TREE {
        let mut position = Chess::default();
        for san in moves.split(' ') {
            let fen = Fen::from_position(&position, EnPassantMode::Legal).to_string();
            let got: Vec<(String, u64)> =
                book.moves(&position).iter().map(|b| (San::from_move(&position, b.m).to_string(), b.weight)).collect();
            assert!(got.windows(2).all(|w| w[0].1 >= w[1].1), "{fen}: not heaviest first: {got:?}");
            let mut got_sorted = got.clone();
            got_sorted.sort();
            // Moves that never scored are not in the book.
            let mut want: Vec<(String, u64)> =
                expected[&fen].iter().filter(|(_, s)| s.1 > 0).map(|(m, s)| (m.clone(), u64::from(s.1))).collect();
            want.sort();
            assert_eq!(got_sorted, want, "after {fen}");
            checked += 1;
            position.play_unchecked(san.parse::<San>().unwrap().to_move(&position).unwrap());
        }
    }
    assert_eq!(checked, TREE.iter().map(|(_, m)| m.split(' ').count()).sum::<usize>());
    // Spot checks of the tally itself: 1.e4 won three times, drew once and lost once;
    // 1.d4 drew once (an unfinished game) and lost once.
    assert_eq!(book_moves(&book, &[]), [("e4".to_owned(), 7), ("d4".to_owned(), 1)]);
    // With en passant possible, White lost after exd6 and won after d4.
    assert_eq!(book_moves(&book, &["e4", "Nf6", "e5", "d5"]), [("d4".to_owned(), 2)]);

    // Polyglot's default of three games keeps the moves of the Ruy Lopez's first plies.
    let (output, path) = make(dir.path(), &tree_pgn(), &[]);
    assert!(output.status.success());
    let common = Book::open(&path).unwrap();
    assert_eq!(book_moves(&common, &[]), [("e4".to_owned(), 7)]);
    assert_eq!(book_moves(&common, &["e4"]), [("e5".to_owned(), 1)]);
    assert_eq!(book_moves(&common, &["e4", "e5"]), [("Nf3".to_owned(), 5)]);
    assert_eq!(book_moves(&common, &["e4", "e5", "Nf3"]), [("Nc6".to_owned(), 1)]);
    assert!(book_moves(&common, &["e4", "e5", "Nf3", "Nc6", "Bb5"]).is_empty(), "a6 twice, Nf6 once");
}

/// python-chess reads the same moves and weights from the book, for every position of
/// the games. Skipped, with a note, where python3 has no `chess` module.
#[test]
fn python_chess_reads_the_same_book() {
    let has_chess = Command::new("python3").args(["-c", "import chess.polyglot"]).output();
    if !has_chess.is_ok_and(|o| o.status.success()) {
        eprintln!("python3 with python-chess not found: cross-check skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (output, path) = make(dir.path(), &tree_pgn(), &["--min-games", "1"]);
    assert!(output.status.success());
    let book = Book::open(&path).unwrap();
    // One line per position: the FEN, then the book's moves as uci:weight, sorted.
    let script = r#"
import sys, chess, chess.polyglot
reader = chess.polyglot.open_reader(sys.argv[1])
for line in sys.stdin:
    board = chess.Board()
    for san in line.split():
        moves = sorted("%s:%d" % (e.move.uci(), e.weight) for e in reader.find_all(board))
        print(board.fen(en_passant="legal"), " ".join(moves))
        board.push_san(san)
"#;
    let mut python = Command::new("python3")
        .args(["-c", script])
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = python.stdin.take().unwrap();
    for (_, moves) in TREE {
        writeln!(stdin, "{moves}").unwrap();
    }
    drop(stdin);
    let output = python.wait_with_output().unwrap();
    assert!(output.status.success());
    let theirs = String::from_utf8(output.stdout).unwrap();
    let mut ours = String::new();
    for (_, moves) in TREE {
        let mut position = Chess::default();
        for san in moves.split(' ') {
            let mut listed: Vec<String> = book
                .moves(&position)
                .iter()
                .map(|b| format!("{}:{}", b.m.to_uci(CastlingMode::Standard), b.weight))
                .collect();
            listed.sort();
            ours += &format!("{} {}\n", Fen::from_position(&position, EnPassantMode::Legal), listed.join(" "));
            position.play_unchecked(san.parse::<San>().unwrap().to_move(&position).unwrap());
        }
    }
    assert_eq!(theirs, ours);
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
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("cannot read /nonexistent/games.pgn"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!stderr.contains("panicked"));
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
    // A book that cannot replace its target leaves no temporary file behind.
    let folder = dir.path().join("a folder");
    std::fs::create_dir(&folder).unwrap();
    let onto_folder = Command::new(common::binary()).args(["book", "make"]).arg(&good).arg("-o").arg(&folder).output();
    assert!(!onto_folder.unwrap().status.success());
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.iter().all(|name| !name.to_string_lossy().ends_with(".partial")), "{left:?}");
}

#[test]
fn the_games_and_files_that_are_no_books_are_never_written_over() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.pgn");
    std::fs::write(&games, GAMES).unwrap();
    let notes = dir.path().join("notes.txt");
    // 32 bytes, a whole number of entries, but no book.
    std::fs::write(&notes, "my notes, not to be lost at all!").unwrap();
    let run = |output: &std::path::Path| {
        Command::new(common::binary())
            .args(["book", "make", "--min-games", "1"])
            .arg(&games)
            .arg("-o")
            .arg(output)
            .output()
            .expect("plugboard runs")
    };
    let same_file_named_otherwise = dir.path().join(".").join("games.pgn");
    for (output, why) in [
        (games.clone(), "is the games to read"),
        (same_file_named_otherwise, "is the games to read"),
        (notes.clone(), "is not a Polyglot book"),
    ] {
        let made = run(&output);
        let said = String::from_utf8_lossy(&made.stderr);
        assert!(!made.status.success(), "{} was written over", output.display());
        assert!(said.contains(why), "{said}");
    }
    assert_eq!(std::fs::read_to_string(&games).unwrap(), GAMES);
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes, not to be lost at all!");
    // A book is made anew over the book of an earlier run.
    let book = dir.path().join("book.bin");
    assert!(run(&book).status.success());
    let first = std::fs::read(&book).unwrap();
    assert!(run(&book).status.success());
    assert_eq!(std::fs::read(&book).unwrap(), first);
}
