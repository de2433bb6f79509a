//! `plugboard datagen`: training data for the NNUE evaluation from Plugboard's
//! own games. Each worker is a process of its own (the search keeps one hash
//! table per process) that plays games one after another and appends each
//! finished game's positions to `OUT/worker-K.bin`, in the 32-byte records of
//! `plugboard_eval_nnue::data`. Killing it loses the games being played at
//! most; run the same command again and each worker goes on after the last
//! game its file holds.

mod game;

use std::{
    fs::{File, OpenOptions},
    io::{Read, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::Instant,
};

use plugboard_eval_nnue::data::{Outcome, RECORD_SIZE, Record};

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
    /// Nodes searched for every move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Stop when the files hold this many positions together (default: never).
    #[arg(long)]
    pub positions: Option<u64>,
    /// Seeds the openings: with the game numbers in the records, it says how
    /// every game was played.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A Polyglot book the openings start from.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Book moves at most, chosen at random by weight.
    #[arg(long, default_value_t = 8)]
    pub book_plies: u32,
    /// Random moves after the book's.
    #[arg(long, default_value_t = 6)]
    pub random_plies: u32,
    /// Hash table of each worker, in MiB.
    #[arg(long, default_value_t = 8)]
    pub hash: u32,
    /// Run as worker K of `--workers` (the parent starts them so).
    #[arg(long, hide = true)]
    pub worker: Option<u32>,
}

/// Games are numbered `n × GAME_STRIDE + worker`, so workers never share a number.
const GAME_STRIDE: u32 = 64;

pub fn run(plugins: &PluginHost, args: &DatagenArgs) -> ExitCode {
    let result = match args.worker {
        Some(worker) => run_worker(plugins, args, worker),
        None if args.workers == 1 => run_worker(plugins, args, 0),
        None => run_workers(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("datagen: {why}");
            ExitCode::FAILURE
        }
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
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let path = args.out.join(format!("worker-{worker}.bin"));
    let (mut file, held, last_game) = open_for_appending(&path)?;
    if let Some(game) = last_game
        && game % GAME_STRIDE != worker
    {
        return Err(format!("{} holds games of worker {}, not of worker {worker}", path.display(), game % GAME_STRIDE));
    }
    let book = match &args.book {
        Some(path) => Some(Book::open(path)?),
        None => None,
    };
    let (search, search_plugin) = plugins.search_module("normal");
    let search_name = search_plugin.name().to_owned();
    let (eval, eval_plugin) = plugins.evaluator_for("normal");
    let EvalSource::Chess(eval) = eval else { return Err(format!("{} scores no chess", eval_plugin.name())) };
    let setup = game::Setup {
        search,
        eval,
        book: book.as_ref(),
        book_plies: args.book_plies,
        random_plies: args.random_plies,
        nodes: args.nodes,
        hash_mb: args.hash,
        seed: args.seed,
    };
    let target = args.positions.map(|total| total.div_ceil(u64::from(args.workers)));
    println!(
        "worker {worker}: {} holds {held} positions; search {search_name}, evaluation {}, {} nodes a move, seed {}",
        path.display(),
        eval_plugin.name(),
        args.nodes,
        args.seed
    );
    let started = Instant::now();
    let (mut positions, mut games, mut plies, mut results) = (held, 0u64, 0usize, [0u64; 3]);
    let mut next = match last_game {
        None => worker,
        Some(game) => game.checked_add(GAME_STRIDE).ok_or("game numbers ran out")?,
    };
    while target.is_none_or(|target| positions < target) {
        let played = game::play(&setup, next)?;
        let mut bytes = Vec::with_capacity(played.records.len() * RECORD_SIZE);
        for record in &played.records {
            bytes.extend_from_slice(&record.to_bytes().ok_or("a position no record can hold")?);
        }
        file.write_all(&bytes)
            .and_then(|()| file.flush())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        positions += played.records.len() as u64;
        games += 1;
        plies += played.plies;
        results[played.outcome as usize] += 1;
        if games.is_multiple_of(20) {
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "worker {worker}: {positions} positions, {games} games this run (+{} ={} -{} for White, {:.0} plies a game), {:.0} positions/s",
                results[Outcome::WhiteWins as usize],
                results[Outcome::Draw as usize],
                results[Outcome::BlackWins as usize],
                plies as f64 / games as f64,
                (positions - held) as f64 / seconds.max(1e-9)
            );
        }
        next = next.checked_add(GAME_STRIDE).ok_or("game numbers ran out")?;
    }
    println!("worker {worker}: {positions} positions, done");
    Ok(())
}

/// Opens a worker's file to append to, after cutting off a record a kill left
/// half written; returns it with how many positions it holds and the number of
/// the last game in it.
fn open_for_appending(path: &Path) -> Result<(File, u64, Option<u32>), String> {
    let failed = |e: std::io::Error| format!("cannot open {}: {e}", path.display());
    let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path).map_err(failed)?;
    let size = file.metadata().map_err(failed)?.len();
    let whole = size - size % RECORD_SIZE as u64;
    if whole != size {
        file.set_len(whole).map_err(failed)?;
    }
    let last_game = if whole == 0 {
        None
    } else {
        let mut last = [0u8; RECORD_SIZE];
        file.seek(SeekFrom::Start(whole - RECORD_SIZE as u64))
            .and_then(|_| file.read_exact(&mut last))
            .map_err(failed)?;
        let record =
            Record::from_bytes(&last).ok_or_else(|| format!("{} is not a file of positions", path.display()))?;
        Some(record.game)
    };
    file.seek(SeekFrom::End(0)).map_err(failed)?;
    Ok((file, whole / RECORD_SIZE as u64, last_game))
}
