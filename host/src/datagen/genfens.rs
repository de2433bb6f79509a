//! `genfens`: the opening generator OpenBench's workers call for its data
//! generation workloads. A worker runs the engine as
//! `plugboard "genfens N seed S book <None|FILE> [EXTRA]" quit` and reads each
//! `info string genfens FEN` line it prints; several engines run at once, each
//! with a seed of its own. The openings are datagen's: a start (the standard
//! one, or a position of the EPD book drawn at random), random moves, and a
//! short search that keeps only a position neither side is far ahead in. The
//! same arguments give the same openings.

use std::{io::Write, path::Path, process::ExitCode};

use plugboard_eval_nnue::random::SplitMix64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, fen::Fen};

use super::game::{self, Setup};
use crate::plugins::PluginHost;

/// Random moves after the start, unless `EXTRA` says `plies K`.
const DEFAULT_RANDOM_PLIES: u32 = 8;
/// Nodes of the search that judges an opening balanced, unless `EXTRA` says `nodes K`.
const DEFAULT_NODES: u64 = 5000;
/// More openings than this from one engine is a typo, not a workload.
const MAX_OPENINGS: u64 = 1_000_000;
const MAX_RANDOM_PLIES: u32 = 40;
const MAX_NODES: u64 = 10_000_000;

/// What one `genfens` call asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub count: u64,
    pub seed: u64,
    /// An EPD file of start positions; `None`: the standard start.
    pub book: Option<String>,
    pub random_plies: u32,
    pub nodes: u64,
}

/// Where OpenBench's one-argument form (`"genfens N seed S book B"`) is on the
/// command line, if it is; the subcommand written out as words needs no help.
pub fn asked(args: &[String]) -> Option<usize> {
    args.iter().position(|arg| arg.starts_with("genfens "))
}

/// Reads `genfens N seed S book B [EXTRA]` (one argument or several words),
/// and the `quit` OpenBench sends after it.
pub fn parse(words: &[String]) -> Result<Request, String> {
    let words: Vec<&str> = words.iter().flat_map(|word| word.split_whitespace()).collect();
    let words = match words.split_last() {
        Some((&"quit", rest)) => rest,
        _ => &words[..],
    };
    let usage = "usage: genfens N seed S book <None|FILE.epd> [plies K] [nodes K]";
    let (count, seed, book, extra) = match words {
        ["genfens", count, "seed", seed, "book", book, extra @ ..] => (count, seed, book, extra),
        _ => return Err(format!("{usage}; got '{}'", words.join(" "))),
    };
    let count: u64 = count
        .parse()
        .ok()
        .filter(|&n| (1..=MAX_OPENINGS).contains(&n))
        .ok_or_else(|| format!("genfens: the number of openings must be 1 to {MAX_OPENINGS}, not {count}"))?;
    let seed: u64 = seed.parse().map_err(|_| format!("genfens: the seed must be a whole number, not {seed}"))?;
    let book = (!book.eq_ignore_ascii_case("none")).then(|| (*book).to_owned());
    let mut request = Request { count, seed, book, random_plies: DEFAULT_RANDOM_PLIES, nodes: DEFAULT_NODES };
    let mut extra = extra.iter();
    while let Some(&word) = extra.next() {
        let value = extra.next().ok_or_else(|| format!("genfens: {word} needs a value; {usage}"))?;
        match word {
            "plies" => {
                request.random_plies = value
                    .parse()
                    .ok()
                    .filter(|&plies| plies <= MAX_RANDOM_PLIES)
                    .ok_or_else(|| format!("genfens: plies must be 0 to {MAX_RANDOM_PLIES}, not {value}"))?;
            }
            "nodes" => {
                request.nodes = value
                    .parse()
                    .ok()
                    .filter(|&nodes| (1..=MAX_NODES).contains(&nodes))
                    .ok_or_else(|| format!("genfens: nodes must be 1 to {MAX_NODES}, not {value}"))?;
            }
            _ => return Err(format!("genfens: no setting named {word}; {usage}")),
        }
    }
    Ok(request)
}

/// The start positions of an EPD file: each line's board, side, castling and
/// en passant fields; its operations (`hmvc`, `fmvn`, `bm`, …) are left aside.
pub fn read_epd(path: &Path) -> Result<Vec<Chess>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("genfens: cannot read {}: {e}", path.display()))?;
    let mut starts = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.is_empty() {
            continue;
        }
        let fen = format!("{} 0 1", fields.join(" "));
        let setup: Fen = fen.parse().map_err(|e| format!("genfens: {} line {}: {e}", path.display(), number + 1))?;
        // A Chess960 book's castling rights name the rooks' files.
        let refused =
            |e: shakmaty::PositionError<Chess>| format!("genfens: {} line {}: {e}", path.display(), number + 1);
        let position = match setup.clone().into_position(CastlingMode::Standard) {
            Ok(position) => position,
            Err(_) => setup.into_position(CastlingMode::Chess960).map_err(refused)?,
        };
        starts.push(position);
    }
    if starts.is_empty() {
        return Err(format!("genfens: {} holds no position", path.display()));
    }
    Ok(starts)
}

/// Prints `request.count` openings as OpenBench reads them.
pub fn run(plugins: &PluginHost, request: &Request) -> ExitCode {
    match generate(plugins, request, &mut std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            // OpenBench reads only stdout's `genfens` lines; a person reads this.
            println!("info string {why}");
            eprintln!("{why}");
            ExitCode::FAILURE
        }
    }
}

fn generate(plugins: &PluginHost, request: &Request, out: &mut impl Write) -> Result<(), String> {
    let starts = match &request.book {
        Some(path) => read_epd(Path::new(path))?,
        None => Vec::new(),
    };
    let (search, _) = plugins.search_module("normal", 1);
    let (eval, _) = super::chess_evaluation(plugins)?;
    let setup = Setup {
        search,
        eval,
        book: None,
        starts: &starts,
        book_plies: 0,
        random_plies: request.random_plies,
        nodes: request.nodes,
        hash_mb: 8,
        seed: request.seed,
    };
    for index in 0..request.count {
        let item = u32::try_from(index).map_err(|_| "genfens: too many openings")?;
        let mut random = SplitMix64::for_item(request.seed, item);
        let line = game::opening(&setup, &mut random)?;
        let fen = Fen::from_position(&line.position, EnPassantMode::Legal);
        writeln!(out, "info string genfens {fen}").and_then(|()| out.flush()).map_err(|e| format!("genfens: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        vec![line.to_owned(), "quit".to_owned()]
    }

    #[test]
    fn openbench_s_command_is_read_as_its_worker_sends_it() {
        let request = parse(&words("genfens 16 seed 912 book None")).unwrap();
        assert_eq!(
            request,
            Request { count: 16, seed: 912, book: None, random_plies: DEFAULT_RANDOM_PLIES, nodes: DEFAULT_NODES }
        );
        let request = parse(&words("genfens 4 seed 7 book Books/UHO.epd plies 6 nodes 2000")).unwrap();
        assert_eq!(request.book.as_deref(), Some("Books/UHO.epd"));
        assert_eq!((request.random_plies, request.nodes), (6, 2000));
        assert_eq!(asked(&["--eval".into(), "nnue".into(), "genfens 1 seed 1 book None".into()]), Some(2));
        // A value that happens to be the word is left to clap.
        assert_eq!(asked(&["--search".into(), "genfens".into(), "bench".into()]), None);
    }

    #[test]
    fn a_malformed_command_says_how_it_is_written() {
        for bad in [
            "genfens",
            "genfens 0 seed 1 book None",
            "genfens ten seed 1 book None",
            "genfens 1 seed -3 book None",
            "genfens 1 book None seed 1",
            "genfens 1 seed 1 book None plies",
            "genfens 1 seed 1 book None plies 99",
            "genfens 1 seed 1 book None depth 3",
        ] {
            let why = parse(&words(bad)).unwrap_err();
            assert!(why.starts_with("usage: genfens") || why.starts_with("genfens: "), "{bad}: {why}");
        }
    }

    #[test]
    fn epd_lines_give_their_positions_and_a_file_of_none_is_refused() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("book.epd");
        std::fs::write(
            &path,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n\n\
             bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - c0 \"960\";\n",
        )
        .unwrap();
        let starts = read_epd(&path).unwrap();
        assert_eq!(starts.len(), 2);
        assert_eq!(
            Fen::from_position(&starts[0], EnPassantMode::Legal).to_string(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        std::fs::write(&path, "\n").unwrap();
        assert!(read_epd(&path).unwrap_err().contains("holds no position"));
        std::fs::write(&path, "not a position\n").unwrap();
        assert!(read_epd(&path).unwrap_err().contains("line 1"));
    }
}
