//! `plugboard book make`: a Polyglot book from PGN games, weighted as Polyglot's
//! own `make-book` weights them (book_make.c of PolyGlot 1.4; the defaults, max-ply
//! 1024 and min-game 3, are its own). Each move of each game (up to the ply limit)
//! counts for its position: one game, and two points for a win, one for a draw or
//! an unfinished game (Polyglot scores any result but `1-0` and `0-1` as a draw),
//! none for a loss, from the mover's side. When a move's count reaches 16384, every
//! count and score of its position is halved, rounding up, so the score always fits
//! in 16 bits: the stored weight is that score, unscaled, and learn is 0. Moves
//! played in fewer than `--min-games` games, or that never scored, are left out;
//! the rest are sorted by key, heaviest first, and equal weights by packed move
//! (Polyglot leaves their order to `qsort`). On the same games this writes the
//! entries PolyGlot 1.4.70b writes, less the header entries (key 0) it adds.
//!
//! Unlike Polyglot, which stops at the first illegal move of a file, a game is cut
//! there (its earlier moves count) and the rest of the file is read; games from a
//! set-up position or of another variant are skipped.
//!
//! The counts are one flat table keyed by (position key, packed move), as
//! Polyglot's; halving a position looks up the packed legal moves of the position
//! where Polyglot scans its table for the key, which comes to the same.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
    io::{self, IsTerminal, Read, Write},
    ops::ControlFlow,
    path::{Path, PathBuf},
    process::ExitCode,
    time::Instant,
};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Color, Position};

use super::polyglot::{self, Entry};

/// The command line of `plugboard book make`.
#[derive(clap::Args, Debug)]
pub struct MakeArgs {
    /// The games, in PGN.
    pub games: PathBuf,
    /// The book to write (Polyglot `.bin`).
    #[arg(short, long, value_name = "BOOK")]
    pub output: PathBuf,
    /// Count only the first N plies of each game.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    pub max_ply: usize,
    /// Keep only moves played in at least N games.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// Keep only White's moves.
    #[arg(long, conflicts_with = "only_black")]
    pub only_white: bool,
    /// Keep only Black's moves.
    #[arg(long)]
    pub only_black: bool,
}

/// Runs `plugboard book make`: the summary on stdout, a progress bar and errors on stderr.
pub fn run(args: &MakeArgs) -> ExitCode {
    let options = MakeOptions {
        max_ply: args.max_ply,
        min_games: args.min_games,
        only: match (args.only_white, args.only_black) {
            (true, _) => Some(Color::White),
            (_, true) => Some(Color::Black),
            _ => None,
        },
    };
    if let Err(why) = check_output(&args.games, &args.output) {
        eprintln!("plugboard book make: {why}");
        return ExitCode::FAILURE;
    }
    let started = Instant::now();
    let file = match std::fs::File::open(&args.games) {
        Ok(file) => file,
        Err(why) => {
            eprintln!("plugboard book make: cannot read {}: {why}", args.games.display());
            return ExitCode::FAILURE;
        }
    };
    let size = file.metadata().map_or(0, |m| m.len());
    let progress =
        if io::stderr().is_terminal() { indicatif::ProgressBar::new(size) } else { indicatif::ProgressBar::hidden() };
    progress.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let made = make(progress.wrap_read(io::BufReader::new(file)), &options);
    progress.finish_and_clear();
    let (entries, report) = match made {
        Ok(made) => made,
        Err(why) => {
            eprintln!("plugboard book make: cannot read {}: {why}", args.games.display());
            return ExitCode::FAILURE;
        }
    };
    if report.games_used == 0 {
        eprintln!("plugboard book make: no usable game in {}", args.games.display());
        return ExitCode::FAILURE;
    }
    if let Err(why) = write(&args.output, &entries) {
        eprintln!("plugboard book make: cannot write {}: {why}", args.output.display());
        return ExitCode::FAILURE;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} games read, {} used, {} skipped (set-up position or variant), {} cut at an illegal move; \
         {} positions counted ({} distinct position-move pairs); {} entries written to {} in {seconds:.2} s ({:.0} games/s)",
        report.games_read,
        report.games_used,
        report.games_skipped,
        report.games_cut,
        report.moves_counted,
        report.pairs,
        entries.len(),
        args.output.display(),
        report.games_read as f64 / seconds.max(1e-9),
    );
    ExitCode::SUCCESS
}

/// Refuses, before anything is read or written, an output that is the games
/// themselves or a file that is not a Polyglot book: the book replaces it.
fn check_output(games: &Path, output: &Path) -> Result<(), String> {
    let existing = match std::fs::metadata(output) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot look at {}: {e}", output.display())),
    };
    if let Ok(input) = std::fs::metadata(games)
        && is_same_file(&input, &existing)
    {
        return Err(format!("{} is the games to read; the book must go to another file", output.display()));
    }
    if !existing.is_file() {
        return Err(format!("{} is not a regular file; the book must go to a file", output.display()));
    }
    if existing.len() > 0 && !looks_like_a_book(output) {
        return Err(format!(
            "{} exists and is not a Polyglot book; it was left as it is (remove it or choose another name)",
            output.display()
        ));
    }
    Ok(())
}

#[cfg(unix)]
fn is_same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn is_same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

/// Whole entries, sorted by key, with moves a Polyglot book can hold, as far
/// as the first entries show: text or other data seldom passes.
fn looks_like_a_book(path: &Path) -> bool {
    const LOOKED_AT: u64 = 4096;
    let Ok(meta) = std::fs::metadata(path) else { return false };
    if !meta.len().is_multiple_of(polyglot::ENTRY_SIZE as u64) {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else { return false };
    let mut bytes = Vec::new();
    if file.take(LOOKED_AT * polyglot::ENTRY_SIZE as u64).read_to_end(&mut bytes).is_err() {
        return false;
    }
    let entries: Vec<Entry> = bytes.as_chunks::<{ polyglot::ENTRY_SIZE }>().0.iter().map(Entry::from_bytes).collect();
    entries.is_sorted_by_key(|e| e.key) && entries.iter().all(|e| e.raw_move >> 12 <= 4)
}

/// Polyglot halves a position's statistics when a count reaches this.
const COUNT_MAX: u16 = 16_384;

#[derive(Debug, Clone, Copy)]
pub struct MakeOptions {
    /// Moves after this many plies of a game are not counted.
    pub max_ply: usize,
    /// A move must have been played in at least this many games.
    pub min_games: u32,
    /// Keep only the moves of this side.
    pub only: Option<Color>,
}

impl Default for MakeOptions {
    /// Polyglot's defaults.
    fn default() -> MakeOptions {
        MakeOptions { max_ply: 1024, min_games: 3, only: None }
    }
}

/// What reading the games found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    pub games_read: u64,
    /// Games with at least one move counted.
    pub games_used: u64,
    /// Games from a set-up position (a `FEN` or `SetUp` tag) or of another variant.
    pub games_skipped: u64,
    /// Games cut short at an illegal or unreadable move (the moves before it count).
    pub games_cut: u64,
    pub moves_counted: u64,
    /// Distinct (position, move) pairs among them.
    pub pairs: u64,
}

/// The statistics of one move from one position, in Polyglot's 16 bits each: the
/// count is halved before it reaches 16384, so the score (two per game at most)
/// never passes 32768.
#[derive(Debug, Default, Clone, Copy)]
struct Stat {
    games: u16,
    score: u16,
    white: bool,
}

/// Hashes a (Polyglot key, packed move) pair: the key is a Zobrist key, random in
/// every bit already, so mixing in the move is enough (Polyglot's own table indexes
/// by the key's low bits).
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(byte)).wrapping_mul(MIX);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    fn write_u16(&mut self, n: u16) {
        self.0 ^= u64::from(n).wrapping_mul(MIX);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Counts per (position key, packed move), one flat table as Polyglot keeps them.
#[derive(Default)]
struct Counts {
    moves: HashMap<(u64, u16), Stat, BuildHasherDefault<KeyHasher>>,
}

impl Counts {
    /// Counts one game for a move; true when its count has reached Polyglot's limit,
    /// and the position's statistics are to be halved with [`Counts::halve`].
    fn add(&mut self, key: u64, raw_move: u16, mover: Color, points: u16) -> bool {
        let stat = self.moves.entry((key, raw_move)).or_insert(Stat { white: mover.is_white(), ..Stat::default() });
        stat.games += 1;
        stat.score += points;
        stat.games >= COUNT_MAX
    }

    /// Halves, rounding up, the count and score of every move of a position: `moves`
    /// are all its legal moves, packed.
    fn halve(&mut self, key: u64, moves: impl IntoIterator<Item = u16>) {
        for raw_move in moves {
            if let Some(stat) = self.moves.get_mut(&(key, raw_move)) {
                stat.games = stat.games.div_ceil(2);
                stat.score = stat.score.div_ceil(2);
            }
        }
    }

    fn entries(&self, options: &MakeOptions) -> Vec<Entry> {
        let min_games = u16::try_from(options.min_games).unwrap_or(u16::MAX);
        let mut entries: Vec<Entry> = self
            .moves
            .iter()
            .filter(|(_, stat)| {
                // A count never reaches 16384, so a larger minimum keeps nothing, as in Polyglot.
                stat.games >= min_games && stat.score > 0 && options.only.is_none_or(|c| c.is_white() == stat.white)
            })
            .map(|(&(key, raw_move), stat)| Entry { key, raw_move, weight: stat.score, learn: 0 })
            .collect();
        entries
            .sort_unstable_by(|a, b| a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)).then(a.raw_move.cmp(&b.raw_move)));
        entries
    }
}

/// The game being read: its result from White's side and whether it is usable.
struct Tags {
    white_result: i32,
    usable: bool,
}

struct Game {
    position: Chess,
    ply: usize,
    counted: bool,
    cut: bool,
    white_result: i32,
}

struct Collector<'a> {
    counts: &'a mut Counts,
    report: &'a mut Report,
    max_ply: usize,
}

impl Visitor for Collector<'_> {
    type Tags = Tags;
    type Movetext = Game;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Tags> {
        self.report.games_read += 1;
        ControlFlow::Continue(Tags { white_result: 0, usable: true })
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let value = value.decode_utf8_lossy();
        match name {
            b"Result" => {
                tags.white_result = match value.trim() {
                    "1-0" => 1,
                    "0-1" => -1,
                    _ => 0,
                }
            }
            // A book is keyed by positions reached from the standard start.
            b"FEN" => tags.usable = false,
            b"SetUp" if value.trim() == "1" => tags.usable = false,
            b"Variant" if !matches!(value.trim().to_ascii_lowercase().as_str(), "" | "standard" | "chess") => {
                tags.usable = false
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<(), Game> {
        if !tags.usable {
            self.report.games_skipped += 1;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(Game {
            position: Chess::default(),
            ply: 0,
            counted: false,
            cut: false,
            white_result: tags.white_result,
        })
    }

    fn san(&mut self, game: &mut Game, san_plus: SanPlus) -> ControlFlow<()> {
        if game.ply >= self.max_ply {
            // The rest of the game is skipped unread, as Polyglot reads past it unchecked.
            self.finish(game);
            return ControlFlow::Break(());
        }
        let Ok(m) = san_plus.san.to_move(&game.position) else {
            game.cut = true;
            self.finish(game);
            return ControlFlow::Break(());
        };
        let mover = game.position.turn();
        let result_for_mover = if mover == Color::White { game.white_result } else { -game.white_result };
        // Two points for a win, one for a draw or anything else, none for a loss.
        let points = (result_for_mover + 1) as u16;
        let key = polyglot::key(&game.position);
        if self.counts.add(key, polyglot::encode_move(&m), mover, points) {
            let legal = game.position.legal_moves();
            self.counts.halve(key, legal.iter().map(polyglot::encode_move));
        }
        self.report.moves_counted += 1;
        game.counted = true;
        game.position.play_unchecked(m);
        game.ply += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mut game: Game) {
        self.finish(&mut game);
    }
}

impl Collector<'_> {
    fn finish(&mut self, game: &mut Game) {
        if game.cut {
            self.report.games_cut += 1;
        }
        if game.counted {
            self.report.games_used += 1;
        }
        // end_game may follow a break: count once.
        game.cut = false;
        game.counted = false;
    }
}

/// Reads every game of `pgn` and returns the book's entries, sorted.
pub fn make(pgn: impl Read, options: &MakeOptions) -> io::Result<(Vec<Entry>, Report)> {
    let mut counts = Counts::default();
    let mut report = Report::default();
    let mut reader = Reader::new(pgn);
    let mut collector = Collector { counts: &mut counts, report: &mut report, max_ply: options.max_ply };
    reader.visit_all_games(&mut collector)?;
    report.pairs = counts.moves.len() as u64;
    Ok((counts.entries(options), report))
}

/// Writes `entries` to `path` whole or not at all: a temporary file beside it, then a rename.
pub fn write(path: &Path, entries: &[Entry]) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(entries.len() * polyglot::ENTRY_SIZE);
    for entry in entries {
        bytes.extend_from_slice(&entry.to_bytes());
    }
    let file_name = path.file_name().ok_or_else(|| io::Error::other("the output names no file"))?;
    let staging = path.with_file_name(format!(".{}.{}.partial", file_name.to_string_lossy(), std::process::id()));
    let written = std::fs::File::create(&staging).and_then(|mut file| {
        file.write_all(&bytes)?;
        file.sync_all()
    });
    written.and_then(|()| std::fs::rename(&staging, path)).inspect_err(|_| {
        let _ = std::fs::remove_file(&staging);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;
    use shakmaty::san::San;

    fn book_of(pgn: &str, options: MakeOptions) -> (Book, Report) {
        let (entries, report) = make(pgn.as_bytes(), &options).unwrap();
        let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        let book = if bytes.is_empty() { None } else { Some(Book::from_bytes(Path::new("made.bin"), &bytes).unwrap()) };
        (book.unwrap_or_else(|| panic!("an empty book: {report:?}")), report)
    }

    fn moves_of(book: &Book, moves: &[&str]) -> Vec<(String, u64)> {
        let mut position = Chess::default();
        for text in moves {
            let m = text.parse::<San>().unwrap().to_move(&position).unwrap();
            position.play_unchecked(m);
        }
        book.moves(&position).iter().map(|b| (San::from_move(&position, b.m).to_string(), b.weight)).collect()
    }

    const GAMES: &str = "\
[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 1/2-1/2\n\n\
[Result \"0-1\"]\n\n1. e4 e5 2. Bc4 0-1\n\n\
[Result \"1-0\"]\n\n1. d4 d5 1-0\n\n\
[Result \"*\"]\n\n1. d4 d5 *\n\n\
[Result \"0-1\"]\n\n1. d4 Nf6 0-1\n\n";

    #[test]
    fn weights_are_two_per_win_and_one_per_draw_for_the_mover() {
        let (book, report) = book_of(GAMES, MakeOptions { min_games: 1, ..MakeOptions::default() });
        assert_eq!(report.games_read, 6);
        assert_eq!(report.games_used, 6);
        // 1.e4: a win, a draw, a loss for White = 2 + 1 + 0; 1.d4: win, unfinished, loss = 2 + 1 + 0.
        // Equal weights keep the order of the packed moves.
        assert_eq!(moves_of(&book, &[]), [("d4".into(), 3), ("e4".into(), 3)]);
        // 1...e5 from Black's side: loss, draw, win.
        assert_eq!(moves_of(&book, &["e4"]), [("e5".into(), 3)]);
        assert_eq!(moves_of(&book, &["e4", "e5"]), [("Nf3".into(), 3)], "Bc4 lost its only game");
        assert_eq!(moves_of(&book, &["d4"]), [("Nf6".into(), 2), ("d5".into(), 1)]);
    }

    #[test]
    fn entries_are_exactly_polyglots() {
        // Keys from the Polyglot format's own examples: the start, and after 1.e4.
        const START: u64 = 0x463b_9618_1691_fc9c;
        const AFTER_E4: u64 = 0x823c_9b50_fd11_4196;
        // e2e4, d2d4, e7e5 packed as to | from << 6.
        let (e4, d4, e5) = (28 | 12 << 6, 27 | 11 << 6, 36 | 52 << 6);
        let pgn = "\
[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n\
[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2\n\n\
[Result \"0-1\"]\n\n1. e4 e5 0-1\n\n\
[Result \"1-0\"]\n\n1. d4 1-0\n\n";
        let entry = |key, raw_move, weight| Entry { key, raw_move, weight, learn: 0 };
        let (all, report) = make(pgn.as_bytes(), &MakeOptions { min_games: 1, ..MakeOptions::default() }).unwrap();
        // 1.e4 won twice, drew once, lost once: 2 + 2 + 1 + 0; 1...e5 from Black's side: 0 + 0 + 1 + 2.
        assert_eq!(all, [entry(START, e4, 5), entry(START, d4, 2), entry(AFTER_E4, e5, 3)]);
        assert_eq!((report.games_read, report.games_used, report.moves_counted, report.pairs), (5, 5, 9, 3));
        // Polyglot's default of three games drops 1.d4.
        let (common, _) = make(pgn.as_bytes(), &MakeOptions::default()).unwrap();
        assert_eq!(common, [entry(START, e4, 5), entry(AFTER_E4, e5, 3)]);
        let bytes: Vec<u8> = common.iter().flat_map(|e| e.to_bytes()).collect();
        assert_eq!(&bytes[..16], [0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0, 5, 0, 0, 0, 0]);
    }

    #[test]
    fn unreadable_moves_and_null_moves_cut_a_game() {
        let pgn = "\
[Result \"1-0\"]\n\n1. e4 xyz 2. Nf3 1-0\n\n\
[Result \"1-0\"]\n\n1. e4 -- 2. Nf3 1-0\n\n\
[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
        let (book, report) = book_of(pgn, MakeOptions { min_games: 1, ..MakeOptions::default() });
        assert_eq!((report.games_read, report.games_used, report.games_cut), (3, 3, 2));
        assert_eq!(report.moves_counted, 5);
        assert_eq!(moves_of(&book, &[]), [("e4".into(), 6)]);
        assert_eq!(moves_of(&book, &["e4", "e5"]), [("Nf3".into(), 2)]);
    }

    #[test]
    fn rare_moves_and_the_other_side_are_left_out_on_request() {
        let (book, _) = book_of(GAMES, MakeOptions { min_games: 3, ..MakeOptions::default() });
        assert_eq!(moves_of(&book, &[]), [("d4".into(), 3), ("e4".into(), 3)]);
        assert!(moves_of(&book, &["d4"]).is_empty());
        let (white, _) =
            book_of(GAMES, MakeOptions { min_games: 1, only: Some(Color::White), ..MakeOptions::default() });
        assert!(moves_of(&white, &["e4"]).is_empty());
        assert_eq!(moves_of(&white, &[]).len(), 2);
        let (black, _) =
            book_of(GAMES, MakeOptions { min_games: 1, only: Some(Color::Black), ..MakeOptions::default() });
        assert!(moves_of(&black, &[]).is_empty());
        assert_eq!(moves_of(&black, &["e4"]), [("e5".into(), 3)]);
    }

    #[test]
    fn the_ply_limit_stops_counting() {
        let (book, report) = book_of(GAMES, MakeOptions { min_games: 1, max_ply: 1, ..MakeOptions::default() });
        assert!(moves_of(&book, &["e4"]).is_empty());
        assert_eq!(report.moves_counted, 6);
    }

    #[test]
    fn set_up_games_are_skipped_and_illegal_moves_cut_a_game() {
        let pgn = "\
[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O 1-0\n\n\
[Result \"1-0\"]\n[Variant \"Atomic\"]\n\n1. e4 1-0\n\n\
[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n";
        let (book, report) = book_of(pgn, MakeOptions { min_games: 1, ..MakeOptions::default() });
        assert_eq!(report.games_read, 3);
        assert_eq!(report.games_skipped, 2);
        assert_eq!(report.games_cut, 1);
        assert_eq!(report.games_used, 1);
        assert_eq!(moves_of(&book, &[]), [("e4".into(), 2)]);
        // The moves before the illegal one count: 1...e5 lost its only game, so it has no weight.
        assert!(moves_of(&book, &["e4"]).is_empty());
    }

    #[test]
    fn counts_are_halved_before_they_overflow() {
        let mut counts = Counts::default();
        assert!(!counts.add(1, 3, Color::White, 1));
        for _ in 1..COUNT_MAX {
            assert!(!counts.add(1, 2, Color::White, 2));
        }
        assert!(counts.add(1, 2, Color::White, 2), "the 16384th game calls for halving");
        counts.halve(1, [2, 3, 4]);
        // Rounding up as Polyglot does: 16384 games and 32768 points become 8192 and
        // 16384; one game and one point stay one.
        let stat = |m| counts.moves.get(&(1, m)).map(|s| (s.games, s.score));
        assert_eq!((stat(2), stat(3), stat(4)), (Some((COUNT_MAX / 2, COUNT_MAX)), Some((1, 1)), None));
        counts.add(1, 2, Color::White, 0);
        let weights: Vec<(u16, u16)> = counts
            .entries(&MakeOptions { min_games: 1, ..MakeOptions::default() })
            .iter()
            .map(|e| (e.raw_move, e.weight))
            .collect();
        assert_eq!(weights, [(2, COUNT_MAX), (3, 1)]);
    }

    #[test]
    fn a_popular_move_halves_its_position() {
        let mut pgn = String::from("[Result \"1/2-1/2\"]\n\n1. d4 1/2-1/2\n\n");
        for _ in 0..COUNT_MAX {
            pgn += "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
        }
        let (book, report) = book_of(&pgn, MakeOptions { min_games: 1, ..MakeOptions::default() });
        assert_eq!(report.games_used, u64::from(COUNT_MAX) + 1);
        // 1.e4: 16384 wins, 32768 points, halved; 1.d4 halved with it, from one to one.
        assert_eq!(moves_of(&book, &[]), [("e4".into(), u64::from(COUNT_MAX)), ("d4".into(), 1)]);
        // 1...e5 reached 16384 games too, but never scored.
        assert!(moves_of(&book, &["e4"]).is_empty());
    }
}
