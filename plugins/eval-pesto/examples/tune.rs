//! Texel-style tuning of the evaluation's terms: moves each weight up or down
//! while that lowers the squared error between the game results of quiet
//! positions and the evaluation mapped to an expected score.
//!
//!     cargo run --release -p plugboard-eval-pesto --example tune -- POSITIONS \
//!         [--from hand|tuned] [--lambda L] [--out FILE]
//!
//! POSITIONS holds `FEN;result[;score]` lines (result 1, 0.5 or 0 for White;
//! score a stronger engine's centipawns for White), as `scripts/texel-positions.py`
//! writes them. The target of each position is `L * result + (1 - L) *
//! expected(score)` (L = 0.5 when scores are given, else 1): one game result
//! labels dozens of positions, most of which it says little about, and a deeper
//! judge's score steadies that. Every tenth block of a thousand positions
//! (roughly a tenth of the games) is held out to show whether the fit
//! generalises beyond the games it saw. After every pass the weights so far are
//! written to FILE (default `tuned-weights.txt`) in Rust syntax, ready to paste
//! into `Weights::TUNED`.

use std::{fs, process::ExitCode, thread};

use cozy_chess::{Board, Color, Piece};
use plugboard_eval_pesto::{DEFAULT_TEMPO, Weights, positional_with};
use plugboard_plugin_api::{Position, Variant};

struct Sample {
    position: Position,
    result: f64,
    /// The judge's centipawns for White, when the file has them.
    score: Option<f64>,
    /// What the evaluation should predict: set once K and lambda are known.
    target: f64,
}

fn to_position(board: &Board) -> Position {
    let pieces = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];
    Position {
        colors: [board.colors(Color::White).0, board.colors(Color::Black).0],
        pieces: pieces.map(|piece| board.pieces(piece).0),
        castling_rooks: 0,
        side_to_move: if board.side_to_move() == Color::White { Position::WHITE } else { Position::BLACK },
        en_passant: Position::NO_SQUARE,
        halfmove_clock: 0,
        fullmove_number: 1,
        variant: Variant::CHESS,
        remaining_checks: [0; 2],
        pockets: [[0; 5]; 2],
        promoted: 0,
        reserved: [0; 2],
    }
}

fn read_samples(path: &str) -> Result<Vec<Sample>, String> {
    let text = fs::read_to_string(path).map_err(|error| format!("{path}: {error}"))?;
    let mut samples = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut fields = line.split(';');
        let (Some(fen), Some(result)) = (fields.next(), fields.next()) else { continue };
        let bad = |what: &str| format!("line {}: bad {what}", number + 1);
        let board = Board::from_fen(fen.trim(), false).map_err(|_| bad("FEN"))?;
        let result: f64 = result.trim().parse().map_err(|_| bad("result"))?;
        let score = fields.next().map(|score| score.trim().parse::<f64>().map_err(|_| bad("score"))).transpose()?;
        samples.push(Sample { position: to_position(&board), result, score, target: result });
    }
    Ok(samples)
}

/// The evaluation for White, tempo included, as the search sees it.
fn white_score(position: &Position, weights: &Weights) -> f64 {
    let for_mover = positional_with(position, weights) + DEFAULT_TEMPO;
    f64::from(if position.side_to_move == Position::WHITE { for_mover } else { -for_mover })
}

fn expected(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

/// Mean squared error over the samples, on both cores.
fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let chunk = samples.len().div_ceil(2).max(1);
    let total: f64 = thread::scope(|scope| {
        let workers: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|sample| (sample.target - expected(white_score(&sample.position, weights), k)).powi(2))
                        .sum::<f64>()
                })
            })
            .collect();
        workers.into_iter().map(|worker| worker.join().expect("error worker")).sum()
    });
    total / samples.len() as f64
}

/// The scaling constant that fits the current weights to the game results best
/// (a coarse then fine scan), before any target blends in the judge's scores.
fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let mut best = (f64::MAX, 1.0);
    for step in [0.1, 0.01] {
        let centre = best.1;
        for i in -10..=10 {
            let k = centre + f64::from(i) * step;
            if k <= 0.0 {
                continue;
            }
            let e = error(samples, weights, k);
            if e < best.0 {
                best = (e, k);
            }
        }
    }
    best.1
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut path = None;
    let mut weights = Weights::TUNED;
    let mut out = "tuned-weights.txt".to_string();
    let mut lambda = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--from" => match iter.next().map(String::as_str) {
                Some("hand") => weights = Weights::HAND_SET,
                Some("tuned") => weights = Weights::TUNED,
                other => {
                    eprintln!("--from takes hand or tuned, not {other:?}");
                    return ExitCode::from(2);
                }
            },
            "--lambda" => match iter.next().and_then(|text| text.parse::<f64>().ok()) {
                Some(value) if (0.0..=1.0).contains(&value) => lambda = Some(value),
                _ => {
                    eprintln!("--lambda takes a number from 0 to 1");
                    return ExitCode::from(2);
                }
            },
            "--out" => match iter.next() {
                Some(file) => out = file.clone(),
                None => {
                    eprintln!("--out needs a file");
                    return ExitCode::from(2);
                }
            },
            file => path = Some(file.to_string()),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: tune POSITIONS [--from hand|tuned] [--lambda L] [--out FILE]");
        return ExitCode::from(2);
    };
    let mut samples = match read_samples(&path) {
        Ok(samples) => samples,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let k = fit_k(&samples, &weights);
    let scored = samples.iter().all(|sample| sample.score.is_some());
    let lambda = lambda.unwrap_or(if scored { 0.5 } else { 1.0 });
    if lambda < 1.0 && !scored {
        eprintln!("--lambda below 1 needs a score on every position");
        return ExitCode::from(2);
    }
    for sample in &mut samples {
        let judged = sample.score.map_or(sample.result, |score| expected(score, k));
        sample.target = lambda * sample.result + (1.0 - lambda) * judged;
    }
    let (training, held_out): (Vec<_>, Vec<_>) =
        samples.into_iter().enumerate().partition(|(index, _)| index / 1000 % 10 != 9);
    let training: Vec<Sample> = training.into_iter().map(|(_, sample)| sample).collect();
    let held_out: Vec<Sample> = held_out.into_iter().map(|(_, sample)| sample).collect();
    println!("{} training positions, {} held out", training.len(), held_out.len());
    let mut best = error(&training, &weights, k);
    println!("K = {k:.3}, lambda {lambda}; error {best:.6}, held out {:.6}", error(&held_out, &weights, k));

    for step in [8, 4, 2, 1] {
        for pass in 1.. {
            let mut improved = false;
            let count = weights.parameters_mut().len();
            for index in 0..count {
                for delta in [step, -step] {
                    let mut trial = weights.clone();
                    *trial.parameters_mut()[index].1 += delta;
                    let e = error(&training, &trial, k);
                    if e < best {
                        best = e;
                        weights = trial;
                        improved = true;
                        break;
                    }
                }
            }
            println!("step {step} pass {pass}: error {best:.6}, held out {:.6}", error(&held_out, &weights, k));
            if let Err(error) = fs::write(&out, format!("{weights:#?}\n")) {
                eprintln!("{out}: {error}");
            }
            if !improved || pass == 20 {
                break;
            }
        }
    }
    for (name, value) in weights.parameters_mut() {
        println!("{name} = {value}");
    }
    ExitCode::SUCCESS
}
