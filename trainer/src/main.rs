//! `plugboard-trainer`: trains the NNUE evaluation's network on the CPU from the
//! positions `plugboard datagen` writes, and writes it as a `.nnue` file the
//! `nnue` plugin loads (`EvalFile`); with `--game xiangqi`, a xiangqi network
//! from `datagen --variant xiangqi`'s positions, for `xiangqi-nnue`.
//!
//! Deterministic for a seed and a data set, whatever the number of threads: a
//! batch is cut into a fixed number of parts whose gradients are summed in
//! order. After every epoch the network and a checkpoint are written; running
//! the same command again goes on from the checkpoint.

mod adam;
mod checkpoint;
mod data;
mod model;

use std::{path::PathBuf, process::ExitCode, sync::Arc, time::Instant};

use clap::Parser;
use plugboard_eval_nnue::{
    Game,
    data::Record,
    network::{BUCKETS, MAX_HIDDEN},
    random::{SplitMix64, mix},
    xiangqi::data::XiangqiRecord,
};

use crate::{
    adam::Adam,
    checkpoint::Checkpoint,
    data::TrainingPosition,
    model::{Model, Scratch, Target},
};

#[derive(Parser)]
#[command(
    name = "plugboard-trainer",
    version,
    about = "Trains Plugboard's NNUE network from `plugboard datagen` positions"
)]
struct Args {
    /// Files of positions, or folders whose `*.bin` files (`*.xiangqi` for
    /// xiangqi) are read.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The game: chess (`normal`), or `xiangqi` (then `--buckets 8`, the only
    /// xiangqi architecture).
    #[arg(long, default_value = "normal", value_parser = ["normal", "xiangqi"])]
    game: String,
    /// The network to write (after every epoch); its checkpoint goes beside it.
    #[arg(long, default_value = "target/nnue/trained.nnue")]
    out: PathBuf,
    /// Hidden units per perspective, a multiple of 16.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Output layers, chosen by the number of pieces on the board: 1, or 8 (the
    /// plugin's architecture 2).
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    #[arg(long, default_value_t = 20)]
    epochs: u32,
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// From this epoch on (counted from 0) the rate is a tenth; default: at
    /// three quarters of the epochs.
    #[arg(long)]
    drop_at: Option<u32>,
    /// The score's share of the target; the game's result has the rest.
    #[arg(long, default_value_t = 0.9)]
    lambda: f32,
    /// The centipawns that turn a score into an expected result, sigmoid(cp /
    /// k), for the labels and the network alike, so the network's scores keep
    /// the labels' scale. Default: the k that best predicts the training
    /// positions' results from their scores. Held-out losses compare only at
    /// one k.
    #[arg(long)]
    k: Option<f32>,
    /// The share of games held out to measure the loss on.
    #[arg(long, default_value_t = 0.02)]
    held_out: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Show each position, at random, as it is or mirrored from wing to wing,
    /// which doubles what a small data set teaches.
    #[arg(long)]
    mirror: bool,
    /// Start afresh even if a checkpoint of an earlier run is there.
    #[arg(long)]
    fresh: bool,
    /// Start from this network's weights instead of random ones (a network of
    /// the same game and shape, such as the embedded one), to go on teaching it
    /// with the positions of a later round. A run going on from its checkpoint
    /// needs it no more.
    #[arg(long, value_name = "FILE.nnue")]
    init: Option<PathBuf>,
}

/// A batch is cut into this many parts, whatever the number of threads.
const PARTS: usize = 8;

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("plugboard-trainer: {why}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    match args.game.as_str() {
        "xiangqi" => train::<XiangqiRecord>(args),
        _ => train::<Record>(args),
    }
}

fn train<P: TrainingPosition>(args: &Args) -> Result<(), String> {
    if P::GAME == Game::Xiangqi && args.buckets != BUCKETS {
        return Err(format!("a xiangqi network has {BUCKETS} output layers: pass --buckets {BUCKETS}"));
    }
    if args.hidden == 0 || !args.hidden.is_multiple_of(16) || args.hidden > MAX_HIDDEN {
        return Err(format!("--hidden must be a multiple of 16 from 16 to {MAX_HIDDEN}, not {}", args.hidden));
    }
    if args.buckets != 1 && args.buckets != BUCKETS {
        return Err(format!("--buckets must be 1 or {BUCKETS}, not {}", args.buckets));
    }
    if let Some(k) = args.k.filter(|k| !(k.is_finite() && *k >= 1.0)) {
        return Err(format!("--k must be a number of centipawns from 1 up, not {k}"));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda must be from 0 to 1, not {}", args.lambda));
    }
    if args.batch == 0 {
        return Err("--batch must be at least 1".into());
    }
    let threads = args.threads.clamp(1, PARTS);
    let files = data::files(&args.data, P::EXTENSION)?;
    let positions = data::load::<P>(&files, args.held_out, args.seed)?;
    println!(
        "{} training positions, {} held out ({:.1} % of games), {} records skipped, from {} files",
        positions.training.len(),
        positions.held_out.len(),
        args.held_out * 100.0,
        positions.skipped,
        files.len()
    );
    if positions.training.is_empty() || positions.held_out.is_empty() {
        return Err("too few positions to train on and to hold out".into());
    }
    let fitted = model::fitted_k(&positions.training);
    let checkpoint_path = args.out.with_extension("ckpt");
    let resumed =
        if checkpoint_path.exists() && !args.fresh { Some(checkpoint::load(&checkpoint_path)?) } else { None };
    // A resumed run keeps the k it started with: the data may have grown since,
    // and a network half trained on one scale must not go on on another.
    let k = match (args.k, resumed.as_ref().and_then(|(_, started)| *started), fitted) {
        (Some(k), _, _) | (None, Some(Target { k, .. }), _) | (None, None, Some(k)) => k,
        (None, None, None) => return Err("no score under 3000 cp to fit --k to; pass --k".into()),
    };
    let fit = fitted.map_or("none".to_string(), |fit| format!("{fit}"));
    println!("k {k} (the one that best predicts these results from these scores: {fit})");
    let target = Target { lambda: args.lambda, k };
    let mut state = if let Some((state, started)) = resumed {
        let same_target = started.is_none_or(|recorded| recorded == target);
        if state.model.game != P::GAME
            || state.model.hidden != args.hidden
            || state.model.buckets != args.buckets
            || state.seed != args.seed
            || !same_target
        {
            let started = started.map_or(String::new(), |t| format!(", k {} and λ {}", t.k, t.lambda));
            return Err(format!(
                "{} is of a {} run with {} hidden units, {} output layers and seed {}{started}; pass --fresh to start over",
                checkpoint_path.display(),
                state.model.game.name(),
                state.model.hidden,
                state.model.buckets,
                state.seed
            ));
        }
        println!("going on from {} at epoch {}", checkpoint_path.display(), state.next_epoch + 1);
        state
    } else {
        let model = match &args.init {
            Some(path) => starting_network(path, P::GAME, args)?,
            None => Model::new(P::GAME, args.hidden, args.buckets, &mut SplitMix64(args.seed)),
        };
        let adam = Adam::new(model.params.len());
        Checkpoint { model, adam, next_epoch: 0, seed: args.seed }
    };
    if let Some(folder) = args.out.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    }
    let drop_at = args.drop_at.unwrap_or(args.epochs * 3 / 4);
    let mut gradients = vec![vec![0.0f32; state.model.params.len()]; PARTS];
    let mut total = vec![0.0f32; state.model.params.len()];
    while state.next_epoch < args.epochs {
        let epoch = state.next_epoch;
        let rate = if epoch >= drop_at { args.rate / 10.0 } else { args.rate };
        let started = Instant::now();
        let mut order: Vec<u32> = (0..positions.training.len() as u32).collect();
        SplitMix64(mix(args.seed ^ u64::from(epoch).wrapping_mul(0xA076_1D64_78BD_642F))).shuffle(&mut order);
        let mut loss_sum = 0.0f64;
        for batch in order.chunks(args.batch) {
            let salt = mix(args.seed ^ u64::from(epoch) << 32);
            let augmentation = Augmentation { mirror: args.mirror, salt };
            let losses =
                learn_batch(&state.model, &positions.training, batch, target, augmentation, threads, &mut gradients);
            loss_sum += losses;
            total.fill(0.0);
            for part in &gradients {
                for (t, g) in total.iter_mut().zip(part) {
                    *t += g;
                }
            }
            let scale = 1.0 / batch.len() as f32;
            total.iter_mut().for_each(|g| *g *= scale);
            state.adam.update(&mut state.model.params, &total, rate);
            state.model.clip();
        }
        let seconds = started.elapsed().as_secs_f64();
        let held_out = held_out_loss(&state.model, &positions.held_out, target, threads);
        state.next_epoch += 1;
        let network = state.model.quantise()?;
        std::fs::write(&args.out, network.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
        checkpoint::save(&checkpoint_path, &state, target)?;
        println!(
            "epoch {}/{}: training loss {:.6}, held-out loss {held_out:.6}, rate {rate:.2e}, {:.0} positions/s, {seconds:.1} s",
            epoch + 1,
            args.epochs,
            loss_sum / positions.training.len() as f64,
            positions.training.len() as f64 / seconds.max(1e-9)
        );
    }
    let network = Arc::new(state.model.quantise()?);
    let (difference, measured) = quantisation_error(&state.model, &network, &positions.held_out);
    println!(
        "wrote {} ({}); the integer network is {difference:.2} cp from the float one on average over {measured} held-out positions",
        args.out.display(),
        network.describe()
    );
    Ok(())
}

/// The model `--init` names, refused unless it is of the game and shape asked for.
fn starting_network(path: &std::path::Path, game: Game, args: &Args) -> Result<Model, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let network = plugboard_eval_nnue::Network::from_bytes_of(&bytes, game)
        .map_err(|why| format!("{} is not a {} network to start from: {why}", path.display(), game.name()))?;
    if network.hidden() != args.hidden || network.buckets() != args.buckets {
        return Err(format!(
            "{} has {} hidden units and {} output layers: pass --hidden {} --buckets {} to start from it",
            path.display(),
            network.hidden(),
            network.buckets(),
            network.hidden(),
            network.buckets()
        ));
    }
    let model = Model::from_network(&network).map_err(|why| format!("cannot start from {}: {why}", path.display()))?;
    println!("starting from {} ({})", path.display(), network.describe());
    Ok(model)
}

/// How positions are shown in one epoch: mirrored or not, by a hash of their
/// index salted by the epoch.
#[derive(Clone, Copy)]
struct Augmentation {
    mirror: bool,
    salt: u64,
}

/// One part of a batch, and where its gradient and loss go.
struct Part<'a> {
    gradient: &'a mut Vec<f32>,
    loss: &'a mut f64,
    positions: &'a [u32],
}

/// The gradient of each part of `batch` into `gradients`; the summed loss.
fn learn_batch<P: TrainingPosition>(
    model: &Model,
    records: &[P],
    batch: &[u32],
    target: Target,
    Augmentation { mirror, salt }: Augmentation,
    threads: usize,
    gradients: &mut [Vec<f32>],
) -> f64 {
    let part_len = batch.len().div_ceil(PARTS);
    let mut losses = [0.0f64; PARTS];
    let mut work: Vec<Vec<Part<'_>>> = (0..threads).map(|_| Vec::new()).collect();
    for (index, (gradient, loss)) in gradients.iter_mut().zip(losses.iter_mut()).enumerate() {
        let start = (index * part_len).min(batch.len());
        let end = ((index + 1) * part_len).min(batch.len());
        work[index % threads].push(Part { gradient, loss, positions: &batch[start..end] });
    }
    std::thread::scope(|scope| {
        for parts in work {
            scope.spawn(move || {
                let mut scratch = Scratch::new(model.hidden);
                for part in parts {
                    part.gradient.fill(0.0);
                    *part.loss = part
                        .positions
                        .iter()
                        .map(|&i| {
                            let mirrored = mirror && mix(u64::from(i) ^ salt) & 1 == 1;
                            let sample = records[i as usize].sample(mirrored);
                            f64::from(model.learn(&sample, target, &mut scratch, part.gradient))
                        })
                        .sum();
                }
            });
        }
    });
    losses.iter().sum()
}

fn held_out_loss<P: TrainingPosition>(model: &Model, records: &[P], target: Target, threads: usize) -> f64 {
    let part_len = records.len().div_ceil(threads);
    let sums: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(part_len.max(1))
            .map(|part| {
                scope.spawn(move || {
                    let mut scratch = Scratch::new(model.hidden);
                    part.iter()
                        .map(|record| f64::from(model.loss(&record.sample(false), target, &mut scratch)))
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).collect()
    });
    sums.iter().sum::<f64>() / records.len() as f64
}

/// The mean distance in centipawns between the float network and the integer
/// one the plugin runs, over the first held-out positions: rounding's cost.
fn quantisation_error<P: TrainingPosition>(
    model: &Model,
    network: &Arc<plugboard_eval_nnue::Network>,
    records: &[P],
) -> (f64, usize) {
    let mut scratch = Scratch::new(model.hidden);
    let measured = records.len().min(10_000);
    let total: f64 = records[..measured]
        .iter()
        .map(|record| {
            let float = model.centipawns(&record.sample(false), &mut scratch);
            let integer = record.integer_score(network);
            f64::from((float - integer as f32).abs())
        })
        .sum();
    (total / measured.max(1) as f64, measured)
}
