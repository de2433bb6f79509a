//! `plugboard datagen`: training data for the NNUE evaluation from Plugboard's
//! own games. Each worker is a process of its own (the search keeps one hash
//! table per process) that plays games one after another and appends each
//! finished game's positions to `OUT/worker-K.bin`, in the 32-byte records of
//! `plugboard_eval_nnue::data`, and to `OUT/worker-K.bullet`, in the records
//! of bullet, the GPU trainer (`plugboard_eval_nnue::bullet`). With `--variant
//! xiangqi` it plays xiangqi and appends to `OUT/worker-K.xiangqi`, in the
//! 40-byte records of `plugboard_eval_nnue::xiangqi::data` (bullet has no
//! xiangqi board of its own). Killing it loses the games being played at
//! most; run the same command again and each worker goes on after the last
//! game its file holds.

mod game;
pub mod genfens;
pub mod merge;
mod selfplay;
mod xiangqi;

use std::{
    fs::{File, OpenOptions},
    io::{Read, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::Instant,
};

use plugboard_eval_nnue::{
    bullet::{BULLET_RECORD_SIZE, to_bullet},
    data::{Outcome, RECORD_SIZE, Record},
    xiangqi::data::{XIANGQI_RECORD_SIZE, XiangqiRecord},
};
use plugboard_plugin_api as api;

use crate::{
    book::Book,
    plugins::{EvalSource, PluginHost},
};

#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// The folder the workers' files go in (created if missing).
    #[arg(long, default_value = "target/nnue/data")]
    pub out: PathBuf,
    /// Games played at once, each by a process of its own with one search thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub workers: u32,
    /// Nodes searched for every move (a search plugin reads 0 as no limit,
    /// which would never end a move).
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    pub nodes: u64,
    /// Stop when the files hold this many positions together (default: never).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub positions: Option<u64>,
    /// Seeds the openings: with the game numbers in the records, it says how
    /// every game was played.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A Polyglot book the openings start from.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Book moves at most, chosen at random by weight.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=MAX_OPENING_PLIES))]
    pub book_plies: u32,
    /// Random moves after the book's.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=MAX_OPENING_PLIES))]
    pub random_plies: u32,
    /// Hash table of each worker, in MiB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MB))]
    pub hash: u32,
    /// Run as worker K of `--workers` (the parent starts them so).
    #[arg(long, hide = true)]
    pub worker: Option<u32>,
    /// Make part K of N (`K/N`, K from 0): N machines, each with its own part
    /// and the same other arguments, play disjoint games, each part the same
    /// on every run.
    #[arg(long, value_name = "K/N", default_value = "0/1", value_parser = parse_shard)]
    pub shard: Shard,
    /// The game played: chess (`normal`) or `xiangqi`.
    #[arg(long, value_enum, default_value = "normal")]
    pub variant: DataGame,
}

/// The game a data set is of, which fixes its records and its files.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataGame {
    #[value(name = "normal")]
    Chess,
    Xiangqi,
}

impl DataGame {
    /// The extension of its files of records.
    pub fn extension(self) -> &'static str {
        match self {
            DataGame::Chess => "bin",
            DataGame::Xiangqi => "xiangqi",
        }
    }

    pub fn record_size(self) -> usize {
        match self {
            DataGame::Chess => RECORD_SIZE,
            DataGame::Xiangqi => XIANGQI_RECORD_SIZE,
        }
    }

    /// The game number of a record of this kind; `None` for bytes that are no
    /// record of a position from a game.
    fn game_of(self, bytes: &[u8]) -> Option<u32> {
        match self {
            DataGame::Chess => {
                let record = Record::from_bytes(bytes.try_into().ok()?)?;
                is_from_a_game(&record).then_some(record.game)
            }
            DataGame::Xiangqi => {
                let record = XiangqiRecord::from_bytes(bytes.try_into().ok()?)?;
                record.has_both_generals().then_some(record.game)
            }
        }
    }
}

/// Part `index` of `count` of the games a seed numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// More parts than this is a typo: game numbers would run out within a few games.
const MAX_SHARDS: u32 = 1 << 16;

fn parse_shard(text: &str) -> Result<Shard, String> {
    let usage = || format!("a part is K/N with 0 <= K < N <= {MAX_SHARDS}, not {text}");
    let (index, count) = text.split_once('/').ok_or_else(usage)?;
    let index: u32 = index.trim().parse().map_err(|_| usage())?;
    let count: u32 = count.trim().parse().map_err(|_| usage())?;
    if count == 0 || count > MAX_SHARDS || index >= count {
        return Err(usage());
    }
    Ok(Shard { index, count })
}

impl Shard {
    /// The first game number of `worker` in this part.
    fn first_game(self, worker: u32) -> u32 {
        self.index * GAME_STRIDE + worker
    }

    /// How far apart one worker's games are in this part.
    fn stride(self) -> u32 {
        self.count * GAME_STRIDE
    }

    /// Whether game number `game` is this part's.
    fn holds(self, game: u32) -> bool {
        (game / GAME_STRIDE) % self.count == self.index
    }
}

/// A search of more nodes takes minutes a move: no training run wants it, and
/// a typo of a few zeros should be refused rather than look like a hang.
const MAX_NODES: u64 = 1_000_000_000;
/// Each worker has a table of its own; more than this is a typo.
const MAX_HASH_MB: i64 = 65_536;
/// Book or random plies at most: both together leave half of the longest game
/// to be played, and learnt from.
const MAX_OPENING_PLIES: i64 = selfplay::MAX_PLIES as i64 / 4;
/// Games in a row that keep no position before a worker gives up: its
/// settings leave nothing to learn from, and it would run for ever.
const MAX_BARREN_GAMES: u32 = 1000;

/// Games are numbered `(n × parts + part) × GAME_STRIDE + worker`, so neither
/// workers nor parts (`--shard`) ever share a number, and a game's number and
/// the seed say how it was played.
const GAME_STRIDE: u32 = 64;

pub fn run(plugins: &PluginHost, args: &DatagenArgs) -> ExitCode {
    let result = match args.worker {
        Some(worker) => run_worker(plugins, args, worker),
        None if args.workers == 1 => run_worker(plugins, args, 0),
        None => check_before_starting(plugins, args).and_then(|()| run_workers(args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("datagen: {why}");
            ExitCode::FAILURE
        }
    }
}

/// What every worker would refuse, refused before any starts: the book, the
/// evaluation, and each worker's file.
fn check_before_starting(plugins: &PluginHost, args: &DatagenArgs) -> Result<(), String> {
    if let Some(path) = &args.book {
        Book::open(path)?;
    }
    match args.variant {
        DataGame::Chess => drop(chess_evaluation(plugins)?),
        DataGame::Xiangqi => drop(xiangqi_evaluation(plugins)?),
    }
    for worker in 0..args.workers {
        judge(&worker_file(args, worker), worker, args.shard, args.variant)?;
    }
    Ok(())
}

fn worker_file(args: &DatagenArgs, worker: u32) -> PathBuf {
    args.out.join(format!("worker-{worker}.{}", args.variant.extension()))
}

fn xiangqi_evaluation(plugins: &PluginHost) -> Result<(api::BoardEvaluatorSource, String), String> {
    let (eval, eval_plugin) = plugins.evaluator_for("xiangqi");
    match eval {
        EvalSource::Board(eval) => Ok((eval, eval_plugin.name().to_owned())),
        _ => Err(format!("{} scores no xiangqi", eval_plugin.name())),
    }
}

fn chess_evaluation(plugins: &PluginHost) -> Result<(api::EvaluatorSource, String), String> {
    let (eval, eval_plugin) = plugins.evaluator_for("normal");
    match eval {
        EvalSource::Chess(eval) => Ok((eval, eval_plugin.name().to_owned())),
        _ => Err(format!("{} scores no chess", eval_plugin.name())),
    }
}

/// Starts one process per worker, with the same arguments, and waits for them.
fn run_workers(args: &DatagenArgs) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let mut forwarded: Vec<String> = std::env::args().skip(1).collect();
    let mut children = Vec::new();
    for worker in 0..args.workers {
        forwarded.extend(["--worker".to_owned(), worker.to_string()]);
        let spawned = Command::new(&exe).args(&forwarded).spawn();
        forwarded.truncate(forwarded.len() - 2);
        match spawned {
            Ok(child) => children.push(child),
            Err(e) => {
                for mut started in children {
                    let _ = started.kill();
                    let _ = started.wait();
                }
                return Err(format!("cannot start worker {worker}: {e}"));
            }
        }
    }
    let mut failed = 0;
    for mut child in children {
        if !child.wait().is_ok_and(|status| status.success()) {
            failed += 1;
        }
    }
    if failed > 0 { Err(format!("{failed} worker(s) failed")) } else { Ok(()) }
}

fn run_worker(plugins: &PluginHost, args: &DatagenArgs, worker: u32) -> Result<(), String> {
    if worker >= GAME_STRIDE || worker >= args.workers {
        return Err(format!("worker {worker} of {}", args.workers));
    }
    let book = match &args.book {
        Some(path) => Some(Book::open(path)?),
        None => None,
    };
    let variant = match args.variant {
        DataGame::Chess => "normal",
        DataGame::Xiangqi => "xiangqi",
    };
    let (search, search_plugin) = plugins.search_module(variant, 1);
    let search_name = search_plugin.name().to_owned();
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let path = worker_file(args, worker);
    let (mut file, held, last_game) = open_for_appending(&path, worker, args.shard, args.variant)?;
    let bullet_path = path.with_extension("bullet");
    let (player, eval_name, mut bullet) = match args.variant {
        DataGame::Chess => {
            let (eval, eval_name) = chess_evaluation(plugins)?;
            let setup = game::Setup {
                search,
                eval,
                book: book.as_ref(),
                starts: &[],
                book_plies: args.book_plies,
                random_plies: args.random_plies,
                nodes: args.nodes,
                hash_mb: args.hash,
                seed: args.seed,
            };
            (Player::Chess(setup), eval_name, Some(follow_in_bullet(&path, &bullet_path, held)?))
        }
        DataGame::Xiangqi => {
            let (eval, eval_name) = xiangqi_evaluation(plugins)?;
            let setup = xiangqi::Setup {
                search,
                eval,
                random_plies: args.random_plies,
                nodes: args.nodes,
                hash_mb: args.hash,
                seed: args.seed,
            };
            (Player::Xiangqi(setup), eval_name, None)
        }
    };
    let target = args.positions.map(|total| total.div_ceil(u64::from(args.workers)));
    println!(
        "worker {worker}: {} holds {held} positions; search {search_name}, evaluation {}, {} nodes a move, seed {}, part {}/{}",
        path.display(),
        eval_name,
        args.nodes,
        args.seed,
        args.shard.index,
        args.shard.count
    );
    let first_player = if args.variant == DataGame::Xiangqi { "Red" } else { "White" };
    let started = Instant::now();
    let (mut positions, mut games, mut plies, mut results) = (held, 0u64, 0usize, [0u64; 3]);
    let stride = args.shard.stride();
    let mut next = match last_game {
        None => args.shard.first_game(worker),
        Some(game) => game.checked_add(stride).ok_or("game numbers ran out")?,
    };
    let mut barren = 0;
    while target.is_none_or(|target| positions < target) {
        let played = player.play(next)?;
        barren = if played.positions == 0 { barren + 1 } else { 0 };
        if barren >= MAX_BARREN_GAMES {
            return Err(format!(
                "{MAX_BARREN_GAMES} games in a row kept no position: these openings leave nothing to learn from"
            ));
        }
        // The bullet file first: killed between the two, it is longer than the
        // records say, and the next run writes it again from them.
        if let Some(bullet) = bullet.as_mut() {
            bullet
                .write_all(&played.bullet)
                .and_then(|()| bullet.flush())
                .map_err(|e| format!("cannot write {}: {e}", bullet_path.display()))?;
        }
        file.write_all(&played.records)
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        positions += played.positions as u64;
        games += 1;
        plies += played.plies;
        results[played.outcome as usize] += 1;
        if games.is_multiple_of(20) {
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "worker {worker}: {positions} positions, {games} games this run (+{} ={} -{} for {first_player}, {:.0} plies a game), {:.0} positions/s",
                results[Outcome::WhiteWins as usize],
                results[Outcome::Draw as usize],
                results[Outcome::BlackWins as usize],
                plies as f64 / games as f64,
                (positions - held) as f64 / seconds.max(1e-9)
            );
        }
        next = next.checked_add(stride).ok_or("game numbers ran out")?;
    }
    println!("worker {worker}: {positions} positions, done");
    Ok(())
}

/// Plays the games of one kind.
enum Player<'a> {
    Chess(game::Setup<'a>),
    Xiangqi(xiangqi::Setup),
}

/// A game played, its positions as the bytes of the files.
struct Encoded {
    records: Vec<u8>,
    /// Chess only: the same positions in bullet's records.
    bullet: Vec<u8>,
    positions: usize,
    outcome: Outcome,
    plies: usize,
}

impl Player<'_> {
    fn play(&self, game: u32) -> Result<Encoded, String> {
        match self {
            Player::Chess(setup) => {
                let played = game::play(setup, game)?;
                let mut records = Vec::with_capacity(played.records.len() * RECORD_SIZE);
                let mut bullet = Vec::with_capacity(played.records.len() * BULLET_RECORD_SIZE);
                for record in &played.records {
                    records.extend_from_slice(&record.to_bytes().ok_or("a position no record can hold")?);
                    bullet.extend_from_slice(&to_bullet(record).ok_or("a position bullet cannot hold")?);
                }
                let (positions, outcome, plies) = (played.records.len(), played.outcome, played.plies);
                Ok(Encoded { records, bullet, positions, outcome, plies })
            }
            Player::Xiangqi(setup) => {
                let played = xiangqi::play(setup, game)?;
                let mut records = Vec::with_capacity(played.records.len() * XIANGQI_RECORD_SIZE);
                for record in &played.records {
                    records.extend_from_slice(&record.to_bytes().ok_or("a position no record can hold")?);
                }
                let (positions, outcome, plies) = (played.records.len(), played.outcome, played.plies);
                Ok(Encoded { records, bullet: Vec::new(), positions, outcome, plies })
            }
        }
    }
}

/// Opens the worker's bullet file (`worker-K.bullet`, the same positions in
/// bullet's records) to append to; if it does not hold exactly the `held`
/// positions of the records file, it is written again from them first.
fn follow_in_bullet(records_path: &Path, bullet_path: &Path, held: u64) -> Result<File, String> {
    let failed = |e: std::io::Error| format!("cannot write {}: {e}", bullet_path.display());
    let size = std::fs::metadata(bullet_path).map(|meta| meta.len()).ok();
    if size != Some(held * BULLET_RECORD_SIZE as u64) {
        let bytes = match std::fs::read(records_path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", records_path.display())),
        };
        let mut converted = Vec::with_capacity(bytes.len());
        for chunk in bytes.chunks_exact(RECORD_SIZE).take(held as usize) {
            let record = chunk.try_into().ok().and_then(Record::from_bytes);
            let bullet = record
                .as_ref()
                .and_then(to_bullet)
                .ok_or_else(|| format!("{} holds a position bullet cannot hold", records_path.display()))?;
            converted.extend_from_slice(&bullet);
        }
        std::fs::write(bullet_path, converted).map_err(failed)?;
    }
    OpenOptions::new().append(true).open(bullet_path).map_err(failed)
}

/// What a worker's file holds, judged without changing it.
struct Held {
    records: u64,
    last_game: Option<u32>,
    /// Bytes of a record a kill left half written.
    torn_tail: bool,
}

/// Reads enough of a worker's file (none, for a file not there yet) to say it
/// holds this worker's records, or why it is not to be touched.
fn judge(path: &Path, worker: u32, shard: Shard, kind: DataGame) -> Result<Held, String> {
    let record_size = kind.record_size();
    let failed = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
    let not_ours = || format!("{} is not a file of positions; it was left as it is", path.display());
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Held { records: 0, last_game: None, torn_tail: false });
        }
        Err(e) => return Err(failed(e)),
    };
    if !meta.file_type().is_file() {
        return Err(format!("{} is not a regular file; datagen writes only files of its own", path.display()));
    }
    let mut file = File::open(path).map_err(failed)?;
    let size = file.metadata().map_err(failed)?.len();
    let records = size / record_size as u64;
    let torn_tail = !size.is_multiple_of(record_size as u64);
    if torn_tail && records == 0 {
        // Too short to hold one record: nothing says it is ours.
        return Err(not_ours());
    }
    let mut last_game = None;
    for index in sample_indices(records) {
        let mut bytes = vec![0u8; record_size];
        file.seek(SeekFrom::Start(index * record_size as u64))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(failed)?;
        let game = kind.game_of(&bytes).ok_or_else(not_ours)?;
        if game % GAME_STRIDE != worker {
            return Err(format!(
                "{} holds games of worker {}, not of worker {worker}; it was left as it is",
                path.display(),
                game % GAME_STRIDE
            ));
        }
        if !shard.holds(game) {
            return Err(format!(
                "{} holds games of another part than {}/{}; it was left as it is",
                path.display(),
                shard.index,
                shard.count
            ));
        }
        last_game = Some(game);
    }
    Ok(Held { records, last_game, torn_tail })
}

/// Opens a worker's file to append to, after cutting off a record a kill left
/// half written; returns it with how many positions it holds and the number of
/// the last game in it. A file that is not this worker's records is refused
/// before a byte of it changes.
fn open_for_appending(
    path: &Path,
    worker: u32,
    shard: Shard,
    kind: DataGame,
) -> Result<(File, u64, Option<u32>), String> {
    let held = judge(path, worker, shard, kind)?;
    let failed = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(false);
    // Judged as a regular file a moment ago: a link put in its place since is not followed.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    let mut file = options.open(path).map_err(failed)?;
    if held.torn_tail {
        file.set_len(held.records * kind.record_size() as u64).map_err(failed)?;
    }
    file.seek(SeekFrom::End(0)).map_err(failed)?;
    Ok((file, held.records, held.last_game))
}

/// Which of `count` records are read to judge a file: the first, the last
/// (which also gives the game to go on after) and some between, so that a
/// file of gigabytes is judged in a few reads.
fn sample_indices(count: u64) -> Vec<u64> {
    const SAMPLES: u64 = 16;
    let mut indices: Vec<u64> = (0..SAMPLES.min(count)).map(|n| n * count / SAMPLES.min(count)).collect();
    if count > 0 {
        indices.push(count - 1);
    }
    indices.dedup();
    indices
}

/// Every position of a game of chess has one king of each colour; bytes of
/// another file, zeros included, seldom read so.
fn is_from_a_game(record: &Record) -> bool {
    let position = record.position();
    let king = |color| position.bitboard(api::PieceKind::King, color).count_ones() == 1;
    king(0) && king(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_is_read_as_k_of_n_and_nonsense_is_refused() {
        assert_eq!(parse_shard("3/8"), Ok(Shard { index: 3, count: 8 }));
        assert_eq!(parse_shard("0/1"), Ok(Shard { index: 0, count: 1 }));
        for bad in ["8/8", "1/0", "-1/4", "a/4", "4", "1/70000", ""] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn parts_and_workers_never_share_a_game_number() {
        let count = 3;
        let mut seen = std::collections::HashSet::new();
        for index in 0..count {
            let shard = Shard { index, count };
            for worker in 0..4 {
                let games: Vec<u32> = (0..20).map(|n| shard.first_game(worker) + n * shard.stride()).collect();
                for game in games {
                    assert!(shard.holds(game) && game % GAME_STRIDE == worker, "{game}");
                    assert!((0..count).filter(|&other| Shard { index: other, count }.holds(game)).count() == 1);
                    assert!(seen.insert(game), "game {game} twice");
                }
            }
        }
        // One part of one is the numbering of before parts existed.
        let whole = Shard { index: 0, count: 1 };
        assert_eq!((whole.first_game(5), whole.stride()), (5, GAME_STRIDE));
    }
}
