//! `plugboard merge`: the parts `datagen --shard` made on many machines, joined
//! into one training set. Records are read from the inputs in the order of
//! their paths, a position met again (the same board and side to move) is kept
//! only the first time, and the rest are shuffled by `--seed`. Out go
//! `merged.bin` (our records), `merged.bullet` (bullet's) and `manifest.txt`,
//! which names every input with its size, record count and checksum. The same
//! inputs and seed give the same bytes.

use std::{
    collections::HashSet,
    fmt::Write as _,
    path::{Path, PathBuf},
    process::ExitCode,
};

use plugboard_eval_nnue::{
    bullet::to_bullet,
    data::{RECORD_SIZE, Record},
    network::fnv1a,
    random::SplitMix64,
};

#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// Files of records, or folders whose `*.bin` files are taken.
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

/// The input files, in the order of their paths.
fn input_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let entries = std::fs::read_dir(input).map_err(|e| format!("cannot list {}: {e}", input.display()))?;
            files.extend(
                entries
                    .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                    .filter(|path| path.extension().is_some_and(|ext| ext == "bin")),
            );
        } else {
            files.push(input.clone());
        }
    }
    files.sort();
    files.dedup();
    if files.is_empty() {
        return Err("no file of records among the inputs".into());
    }
    Ok(files)
}

fn merge(args: &MergeArgs) -> Result<String, String> {
    let files = input_files(&args.inputs)?;
    let out = &args.out;
    let mut manifest = String::from("# plugboard merge: the inputs, in the order read\n");
    let (mut records, mut seen, mut duplicates) = (Vec::new(), HashSet::new(), 0u64);
    for file in &files {
        if file.starts_with(out) {
            return Err(format!("{} is inside the output folder {}", file.display(), out.display()));
        }
        let bytes = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        if bytes.len() % RECORD_SIZE != 0 {
            return Err(format!("{} is not whole records ({} bytes)", file.display(), bytes.len()));
        }
        for chunk in bytes.chunks_exact(RECORD_SIZE) {
            let record = chunk
                .try_into()
                .ok()
                .and_then(Record::from_bytes)
                .ok_or_else(|| format!("{} holds bytes that are no record", file.display()))?;
            if seen.insert((record.pieces, record.side_to_move)) {
                records.push(record);
            } else {
                duplicates += 1;
            }
        }
        let _ = writeln!(
            manifest,
            "input {} bytes {} records {} fnv1a64 {:016x}",
            file.display(),
            bytes.len(),
            bytes.len() / RECORD_SIZE,
            fnv1a(&bytes)
        );
    }
    let mut random = SplitMix64::for_item(args.seed, 0);
    for index in (1..records.len()).rev() {
        records.swap(index, random.below(index + 1));
    }
    let mut ours = Vec::with_capacity(records.len() * RECORD_SIZE);
    let mut bullet = Vec::with_capacity(records.len() * RECORD_SIZE);
    for record in &records {
        ours.extend_from_slice(&record.to_bytes().ok_or("a record that cannot be written again")?);
        bullet.extend_from_slice(&to_bullet(record).ok_or("a position bullet cannot hold")?);
    }
    let summary = format!(
        "merged {} positions from {} files ({duplicates} repeated positions dropped), shuffled with seed {}",
        records.len(),
        files.len(),
        args.seed
    );
    let _ = writeln!(manifest, "{summary}\noutput merged.bin fnv1a64 {:016x}", fnv1a(&ours));
    let _ = writeln!(manifest, "output merged.bullet fnv1a64 {:016x}", fnv1a(&bullet));
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        let path: PathBuf = Path::new(out).join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    write("merged.bin", &ours)?;
    write("merged.bullet", &bullet)?;
    write("manifest.txt", manifest.as_bytes())?;
    Ok(summary)
}
