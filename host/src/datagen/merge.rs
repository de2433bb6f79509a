//! `plugboard merge`: the parts `datagen --shard` made on many machines, joined
//! into one training set. Records are read from the inputs in the order of
//! their paths, a position met again (the same board and side to move) is kept
//! only the first time, and the rest are shuffled by `--seed`. Out go
//! `merged.bin` (our records), `merged.bullet` (bullet's) and `manifest.txt`,
//! which names every input with its size, record count and checksum. The same
//! inputs and seed give the same bytes. Xiangqi's parts (`*.xiangqi`) merge
//! the same way into `merged.xiangqi`, without a bullet file.

use std::{
    collections::HashSet,
    fmt::Write as _,
    path::{Path, PathBuf},
    process::ExitCode,
};

use plugboard_eval_nnue::{bullet::to_bullet, data::Record, network::fnv1a, random::SplitMix64};

use super::DataGame;

#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// Files of records, or folders whose `*.bin` (chess) or `*.xiangqi` files
    /// are taken; all of one game.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The folder `merged.bin`, `merged.bullet` and `manifest.txt` go in (created if missing).
    #[arg(long, default_value = "target/nnue/merged")]
    pub out: PathBuf,
    /// Seeds the shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: &MergeArgs) -> ExitCode {
    match merge(args) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("merge: {why}");
            ExitCode::FAILURE
        }
    }
}

/// The game a file's records are of, by its extension.
fn game_of(path: &Path) -> Option<DataGame> {
    [DataGame::Chess, DataGame::Xiangqi]
        .into_iter()
        .find(|game| path.extension().is_some_and(|e| e == game.extension()))
}

/// The input files, in the order of their paths, and the game they are of.
fn input_files(inputs: &[PathBuf]) -> Result<(Vec<PathBuf>, DataGame), String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let entries = std::fs::read_dir(input).map_err(|e| format!("cannot list {}: {e}", input.display()))?;
            files.extend(
                entries.filter_map(|entry| entry.ok().map(|entry| entry.path())).filter(|path| game_of(path).is_some()),
            );
        } else {
            files.push(input.clone());
        }
    }
    files.sort();
    files.dedup();
    let Some(first) = files.first() else { return Err("no file of records among the inputs".into()) };
    let game = game_of(first).unwrap_or(DataGame::Chess);
    if let Some(other) = files.iter().find(|file| game_of(file).unwrap_or(DataGame::Chess) != game) {
        return Err(format!(
            "{} and {} hold positions of different games; merge each game's parts on their own",
            first.display(),
            other.display()
        ));
    }
    Ok((files, game))
}

/// The bytes of a record that say its position: the board and the side to move.
fn position_key(game: DataGame, record: &[u8]) -> Vec<u8> {
    match game {
        DataGame::Chess => [&record[..24], &record[27..28]].concat(),
        DataGame::Xiangqi => [&record[..32], &record[35..36]].concat(),
    }
}

fn merge(args: &MergeArgs) -> Result<String, String> {
    let (files, game) = input_files(&args.inputs)?;
    let record_size = game.record_size();
    let out = &args.out;
    let mut manifest = String::from("# plugboard merge: the inputs, in the order read\n");
    let (mut records, mut seen, mut duplicates) = (Vec::new(), HashSet::new(), 0u64);
    for file in &files {
        if file.starts_with(out) {
            return Err(format!("{} is inside the output folder {}", file.display(), out.display()));
        }
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        if bytes.len() % record_size != 0 {
            return Err(format!("{} is not whole records ({} bytes)", file.display(), bytes.len()));
        }
        for record in bytes.chunks_exact(record_size) {
            if game.game_of(record).is_none() {
                return Err(format!("{} holds bytes that are no record", file.display()));
            }
            if seen.insert(position_key(game, record)) {
                records.push(record.to_vec());
            } else {
                duplicates += 1;
            }
        }
        let _ = writeln!(
            manifest,
            "input {} bytes {} records {} fnv1a64 {:016x}",
            file.display(),
            bytes.len(),
            bytes.len() / record_size,
            fnv1a(&bytes)
        );
    }
    let mut random = SplitMix64::for_item(args.seed, 0);
    for index in (1..records.len()).rev() {
        records.swap(index, random.below(index + 1));
    }
    let ours = records.concat();
    let mut bullet = Vec::new();
    if game == DataGame::Chess {
        bullet.reserve(ours.len());
        for bytes in &records {
            let record = bytes.as_slice().try_into().ok().and_then(Record::from_bytes);
            bullet.extend_from_slice(&record.as_ref().and_then(to_bullet).ok_or("a position bullet cannot hold")?);
        }
    }
    let summary = format!(
        "merged {} positions from {} files ({duplicates} repeated positions dropped), shuffled with seed {}",
        records.len(),
        files.len(),
        args.seed
    );
    let merged = format!("merged.{}", game.extension());
    let _ = writeln!(manifest, "{summary}\noutput {merged} fnv1a64 {:016x}", fnv1a(&ours));
    if game == DataGame::Chess {
        let _ = writeln!(manifest, "output merged.bullet fnv1a64 {:016x}", fnv1a(&bullet));
    }
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        let path: PathBuf = Path::new(out).join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write(&merged, &ours)?;
    if game == DataGame::Chess {
        write("merged.bullet", &bullet)?;
    }
    write("manifest.txt", manifest.as_bytes())?;
    Ok(summary)
}
