//! Endgames with the Syzygy tables of `tests/data/syzygy`, played through stdin and
//! stdout against a defender that resists as long as the same tables allow: the
//! engine converts every won position to mate within the fifty-move rule, and
//! never loses a drawn rook ending.

use crate::common;

use std::path::PathBuf;

use common::Engine;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Move, Piece, Position, Role, Setup, Square, fen::Fen,
    uci::UciMove,
};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

const POSITIONS_PER_ENDING: usize = 20;

fn tables_folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/syzygy")
}

fn tables() -> Tablebase<Chess> {
    let mut tables = Tablebase::new();
    tables.add_directory(tables_folder()).expect("the test tables");
    tables
}

/// A small deterministic generator, so every run plays the same positions.
struct Draws(u64);

impl Draws {
    fn next(&mut self, below: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % u64::from(below)) as u32
    }
}

/// Random legal positions with White to move and these pieces beside the kings
/// (White's in `white`, Black's in `black`), whose result for White is `wanted`.
fn positions(white: &[Role], black: &[Role], wanted: Wdl, seed: u64) -> Vec<Chess> {
    let tables = tables();
    let mut draws = Draws(seed);
    let mut found = Vec::new();
    while found.len() < POSITIONS_PER_ENDING {
        let mut board = Board::empty();
        let mut occupied = Bitboard::EMPTY;
        let pieces = [(Color::White, Role::King), (Color::Black, Role::King)]
            .into_iter()
            .chain(white.iter().map(|&r| (Color::White, r)))
            .chain(black.iter().map(|&r| (Color::Black, r)));
        for (color, role) in pieces {
            let square = loop {
                let square = Square::new(draws.next(64));
                if !occupied.contains(square) {
                    break square;
                }
            };
            occupied.add(square);
            board.set_piece_at(square, Piece { color, role });
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = Color::White;
        let Ok(position) = Chess::from_setup(setup, CastlingMode::Standard) else { continue };
        if position.is_game_over() || position.is_check() {
            continue;
        }
        if tables.probe_wdl_after_zeroing(&position).ok() == Some(wanted) {
            found.push(position);
        }
    }
    found
}

/// The defender's move: the best result the tables allow it under the fifty-move
/// rule, then the longest way to a zeroing move when losing (the shortest when
/// winning), and a capture or pawn move last when losing.
fn defend(tables: &Tablebase<Chess>, position: &Chess) -> Move {
    let rank = |wdl: AmbiguousWdl| match wdl {
        AmbiguousWdl::Loss => 0,
        AmbiguousWdl::MaybeLoss => 1,
        AmbiguousWdl::BlessedLoss | AmbiguousWdl::Draw | AmbiguousWdl::CursedWin => 2,
        AmbiguousWdl::MaybeWin => 3,
        AmbiguousWdl::Win => 4,
    };
    let mut best: Option<(Move, (i32, i32, bool))> = None;
    for m in position.legal_moves() {
        let mut after = position.clone();
        after.play_unchecked(m);
        let key = if after.is_checkmate() {
            (5, i32::MAX, true)
        } else if after.is_game_over() {
            (2, 0, true)
        } else {
            let wdl = tables.probe_wdl(&after).expect("a probe after the defender's move");
            let dtz = tables.probe_dtz(&after).expect("a DTZ probe").ignore_rounding().0;
            // `wdl` and `dtz` are the engine's; the defender wants them low.
            let ours = 4 - rank(wdl);
            // Losing: a long DTZ for the engine's win is good; winning: a short one.
            (ours, if ours >= 3 { dtz } else { dtz.abs() }, !m.is_zeroing())
        };
        if best.as_ref().is_none_or(|(_, known)| key > *known) {
            best = Some((m, key));
        }
    }
    best.expect("the defender has a move").0
}

struct Played {
    /// Moves of the engine until mate, or `None` when it did not mate.
    moves_to_mate: Option<u32>,
    /// Engine moves shown as the tables' choice (a `(tablebase` thinking line).
    tablebase_moves: u32,
    engine_lost: bool,
    transcript: String,
}

/// The engine plays White from `start` against the tables' defence, for at most
/// `max_moves` of its moves.
fn play(engine: &mut Engine, tables: &Tablebase<Chess>, start: &Chess, max_moves: u32) -> Played {
    let fen = Fen::from_position(start, shakmaty::EnPassantMode::Legal).to_string();
    for line in ["new", "force", "post", &format!("setboard {fen}"), "sd 4", "go"] {
        engine.send(line);
    }
    let mut position = start.clone();
    let mut transcript = vec![fen];
    let mut played = Played { moves_to_mate: None, tablebase_moves: 0, engine_lost: false, transcript: String::new() };
    for moves in 1..=max_moves {
        let lines = engine.read_until(|l| l.starts_with("move ") || is_result(l));
        if lines.iter().any(|l| l.contains(" (tablebase ")) {
            played.tablebase_moves += 1;
        }
        let last = lines.last().cloned().unwrap_or_default();
        let Some(text) = last.strip_prefix("move ").map(str::to_owned) else {
            // The engine claimed the game over (a repetition the defender allowed).
            transcript.push(format!("{{{last}}}"));
            break;
        };
        let m = text.parse::<UciMove>().ok().and_then(|u| u.to_move(&position).ok());
        let Some(m) = m else {
            panic!("illegal engine move {text} in {}\n{}", transcript.join(" "), engine.transcript.join("\n"))
        };
        transcript.push(text);
        position.play_unchecked(m);
        if position.is_checkmate() {
            played.moves_to_mate = Some(moves);
            break;
        }
        if position.is_game_over() || position.halfmoves() >= 100 {
            break;
        }
        let reply = defend(tables, &position);
        transcript.push(UciMove::from_standard(reply).to_string());
        position.play_unchecked(reply);
        if position.is_game_over() || position.halfmoves() >= 100 {
            played.engine_lost = position.is_checkmate();
            break;
        }
        engine.send(&UciMove::from_standard(reply).to_string());
    }
    // Whatever the engine still says about this game (a result claim) is left behind.
    engine.send("force");
    engine.sync(1);
    played.transcript = transcript.join(" ");
    played
}

fn is_result(line: &str) -> bool {
    ["1-0 ", "0-1 ", "1/2-1/2 "].iter().any(|r| line.starts_with(r))
}

fn engine_with_tables() -> Engine {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("egtpath syzygy {}", tables_folder().display()));
    engine
}

/// Converts every position of one ending; returns the average number of moves to mate.
fn converts(name: &str, white: &[Role], black: &[Role], seed: u64) {
    let tables = tables();
    let mut engine = engine_with_tables();
    let mut total = 0;
    let mut longest = 0;
    for start in positions(white, black, Wdl::Win, seed) {
        let played = play(&mut engine, &tables, &start, 60);
        let moves = played.moves_to_mate.unwrap_or_else(|| panic!("{name}: no mate in {}", played.transcript));
        // Every move was the tables' own, not the search's.
        assert_eq!(played.tablebase_moves, moves, "{name}: {}", played.transcript);
        total += moves;
        longest = longest.max(moves);
    }
    let average = f64::from(total) / POSITIONS_PER_ENDING as f64;
    eprintln!(
        "{name}: {POSITIONS_PER_ENDING}/{POSITIONS_PER_ENDING} mated, {average:.1} moves to mate on average, \
         {longest} at most"
    );
}

#[test]
fn kqk_is_mated_every_time() {
    converts("KQvK", &[Role::Queen], &[], 1);
}

#[test]
fn krk_is_mated_every_time() {
    converts("KRvK", &[Role::Rook], &[], 2);
}

#[test]
fn kbnk_is_mated_within_the_fifty_move_rule() {
    converts("KBNvK", &[Role::Bishop, Role::Knight], &[], 3);
}

#[test]
fn kqkr_is_won_every_time() {
    converts("KQvKR", &[Role::Queen], &[Role::Rook], 4);
}

#[test]
fn a_drawn_rook_ending_is_never_lost() {
    let tables = tables();
    let mut engine = engine_with_tables();
    let mut draws = 0;
    for start in positions(&[Role::Rook], &[Role::Rook], Wdl::Draw, 5) {
        let played = play(&mut engine, &tables, &start, 40);
        assert!(!played.engine_lost, "KRvKR lost: {}", played.transcript);
        draws += 1;
    }
    eprintln!("KRvKR: {draws}/{POSITIONS_PER_ENDING} drawn positions held");
}

#[test]
fn the_search_probes_the_tables_below_the_root() {
    // Five pieces: no table here, but Qxd5 leads to KQRvK, which the tables know.
    let mut engine = engine_with_tables();
    for line in ["new", "force", "post", "setboard 6k1/8/8/3r4/8/8/8/K2Q3R w - - 0 1", "sd 5", "go"] {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("move "));
    assert_eq!(lines.last().map(String::as_str), Some("move d1d5"), "{lines:?}");
    let last = lines.iter().rev().find_map(|l| common::thinking(l).map(|t| (t, l.clone()))).expect("thinking");
    let ((_, score, _), line) = last;
    assert!(score > 19_000, "a tablebase win: {line}");
    // ply score time nodes seldepth nps tbhits
    let tbhits: u64 = line.split_whitespace().nth(6).and_then(|t| t.parse().ok()).unwrap_or(0);
    assert!(tbhits > 0, "{line}");
}

#[test]
fn a_corrupt_table_is_told_and_the_engine_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(tables_folder()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
    }
    // Right size, garbage inside: only a probe finds out.
    let krk = dir.path().join("KRvK.rtbw");
    let size = std::fs::metadata(&krk).unwrap().len() as usize;
    let mut garbage = std::fs::read(&krk).unwrap()[..4].to_vec();
    garbage.extend((4..size).map(|i| (i * 7919 % 251) as u8));
    std::fs::write(&krk, garbage).unwrap();

    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("egtpath syzygy {}", dir.path().display()));
    for line in ["new", "force", "setboard k7/8/8/8/8/8/8/KR6 w - - 0 1", "sd 3", "go"] {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("move "));
    let told: Vec<&String> = lines.iter().filter(|l| l.starts_with("telluser Syzygy tablebases: ")).collect();
    assert_eq!(told.len(), 1, "{lines:?}");
    assert!(told[0].contains("KRvK"), "{told:?}");
    // The sound tables still play their endings.
    for line in ["new", "force", "post", "setboard k7/8/8/8/8/8/8/KQ6 w - - 0 1", "go"] {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("move "));
    let shown = lines.iter().find(|l| l.contains(" (tablebase ")).unwrap_or_else(|| panic!("{lines:?}"));
    // A line a client can read: depth 1, the tables' score, and the move first in the PV.
    let (depth, score, pv) = common::thinking(shown).unwrap();
    let played = lines.last().unwrap().strip_prefix("move ").unwrap();
    assert_eq!((depth, pv.split(' ').next()), (1, Some(played)), "{shown}");
    assert!(score > 10_000, "{shown}");
}

#[test]
fn bk_lists_every_move_with_the_tables_result() {
    let mut engine = engine_with_tables();
    for line in ["new", "force", "setboard 8/8/3k4/8/8/2r5/8/R3K3 w - - 0 1", "bk"] {
        engine.send(line);
    }
    let rows: Vec<String> = engine.sync(1).into_iter().filter(|l| !l.starts_with('#')).collect();
    let position: Chess =
        "8/8/3k4/8/8/2r5/8/R3K3 w - - 0 1".parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    // One row a legal move, each starting with a blank, then the empty line.
    assert_eq!(rows.len(), position.legal_moves().len() + 1, "{rows:?}");
    assert_eq!(rows.last().map(String::as_str), Some(""));
    assert!(
        rows[..rows.len() - 1].iter().all(|r| r.starts_with(' ') && (r.contains(" draw") || r.contains(" loss  DTZ ")))
    );
    // Drawing moves first; a rook move that hangs the rook loses.
    assert!(rows[0].contains(" draw"), "{rows:?}");
    assert!(rows.iter().any(|r| r.starts_with(" Ra3 ") && r.contains(" loss  DTZ ")), "{rows:?}");
}

#[test]
fn seventy_two_broken_tables_are_one_message_and_a_missing_folder_none() {
    let dir = tempfile::tempdir().unwrap();
    // Table names, sizes no table can have.
    let names: Vec<String> = (0..72).map(|n| format!("K{}vK{n:02}.rtbw", ["Q", "R", "B", "N"][n % 4])).collect();
    for name in &names {
        std::fs::write(dir.path().join(name), [0u8; 17]).unwrap();
    }
    let mut engine = Engine::start(None);
    engine.handshake();
    // Debian's xboard sends its default folder to every engine; none there is normal.
    engine.send("egtpath syzygy /no/such/folder/EGT/Syzygy");
    let said = engine.sync(1);
    assert!(!said.iter().any(|l| l.starts_with("telluser") || l.starts_with("tellusererror")), "{said:?}");

    engine.send(&format!("egtpath syzygy {}", dir.path().display()));
    let said = engine.sync(2);
    let told: Vec<&String> = said.iter().filter(|l| l.starts_with("tell")).collect();
    assert_eq!(told.len(), 1, "{said:?}");
    assert!(told[0].starts_with("telluser Syzygy tablebases: 72 tables could not be used: "), "{told:?}");
    let mut sorted = names.clone();
    sorted.sort();
    for first in &sorted[..3] {
        assert!(told[0].contains(first.trim_end_matches(".rtbw")), "{first} not named: {told:?}");
    }
    assert!(told[0].ends_with("and 69 more (all named in the log)"), "{told:?}");
    assert!(told[0].len() < 600, "{}", told[0]);
}
