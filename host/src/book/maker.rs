//! `plugboard book make`: a Polyglot book from PGN games, weighted as Polyglot's
//! own `make-book` weights them. Each move of each game (up to the ply limit)
//! counts for its position: one game, and two points for a win, one for a draw or
//! an unfinished game, none for a loss, from the mover's side. When a move's count
//! reaches 16384, every count and score of its position is halved, so the score
//! (the stored weight) always fits in 16 bits. Moves played in fewer than
//! `--min-games` games, or that never scored, are left out; the rest are sorted by
//! key, heaviest first.

use std::{
    collections::HashMap,
    io::{self, IsTerminal, Read},
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
         {} moves counted; {} entries written to {} in {seconds:.2} s ({:.0} games/s)",
        report.games_read,
        report.games_used,
        report.games_skipped,
        report.games_cut,
        report.moves_counted,
        entries.len(),
        args.output.display(),
        report.games_read as f64 / seconds.max(1e-9),
    );
    ExitCode::SUCCESS
}

/// Polyglot halves a position's statistics when a count reaches this.
const COUNT_MAX: u32 = 16_384;

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
}

#[derive(Debug, Default, Clone, Copy)]
struct Stat {
    games: u32,
    score: u32,
}

/// Counts per position key, then per packed move.
#[derive(Default)]
struct Counts {
    positions: HashMap<u64, Vec<(u16, Color, Stat)>>,
}

impl Counts {
    fn add(&mut self, key: u64, raw_move: u16, mover: Color, points: u32) {
        let moves = self.positions.entry(key).or_default();
        let index = match moves.iter().position(|(m, _, _)| *m == raw_move) {
            Some(index) => index,
            None => {
                moves.push((raw_move, mover, Stat::default()));
                moves.len() - 1
            }
        };
        let stat = &mut moves[index].2;
        stat.games += 1;
        stat.score += points;
        if stat.games >= COUNT_MAX {
            for (_, _, stat) in moves.iter_mut() {
                stat.games = stat.games.div_ceil(2);
                stat.score = stat.score.div_ceil(2);
            }
        }
    }

    fn entries(&self, options: &MakeOptions) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self
            .positions
            .iter()
            .flat_map(|(&key, moves)| {
                moves
                    .iter()
                    .filter(|(_, mover, stat)| {
                        stat.games >= options.min_games && stat.score > 0 && options.only.is_none_or(|c| c == *mover)
                    })
                    .map(move |&(raw_move, _, stat)| Entry {
                        key,
                        raw_move,
                        weight: stat.score.min(u32::from(u16::MAX)) as u16,
                        learn: 0,
                    })
            })
            .collect();
        entries.sort_by(|a, b| a.key.cmp(&b.key).then(b.weight.cmp(&a.weight)).then(a.raw_move.cmp(&b.raw_move)));
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
            return ControlFlow::Continue(());
        }
        let Ok(m) = san_plus.san.to_move(&game.position) else {
            game.cut = true;
            self.finish(game);
            return ControlFlow::Break(());
        };
        let mover = game.position.turn();
        let result_for_mover = if mover == Color::White { game.white_result } else { -game.white_result };
        self.counts.add(polyglot::key(&game.position), polyglot::encode_move(&m), mover, (result_for_mover + 1) as u32);
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
    Ok((counts.entries(options), report))
}

/// Writes `entries` to `path` whole or not at all: a temporary file beside it, then a rename.
pub fn write(path: &Path, entries: &[Entry]) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(entries.len() * polyglot::ENTRY_SIZE);
    for entry in entries {
        bytes.extend_from_slice(&entry.to_bytes());
    }
    let file_name = path.file_name().ok_or_else(|| io::Error::other("the output names no file"))?;
    let staging = path.with_file_name(format!(".{}.partial", file_name.to_string_lossy()));
    std::fs::write(&staging, bytes)?;
    std::fs::rename(&staging, path).inspect_err(|_| {
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

    fn moves_of(book: &Book, moves: &[&str]) -> Vec<(String, u32)> {
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
        for _ in 0..COUNT_MAX {
            counts.add(1, 2, Color::White, 2);
        }
        counts.add(1, 3, Color::White, 1);
        let entries = counts.entries(&MakeOptions::default());
        assert!(entries.iter().all(|e| e.weight <= 2 * COUNT_MAX as u16));
        assert_eq!(entries[0].weight, COUNT_MAX as u16);
    }
}
