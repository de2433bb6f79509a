//! The trainer as a user runs it: positions in, a network out that the plugin
//! loads and that has learnt what the positions teach, the same network for the
//! same seed whatever the number of threads, and a stopped run that goes on.

use std::{
    path::{Path, PathBuf},
    process::Command,
    sync::Arc,
};

use plugboard_eval_nnue::{
    Game, Network, NnueEvaluator, XiangqiEvaluator,
    bullet::to_bullet,
    data::{Outcome, Record},
    xiangqi::{data::XiangqiRecord, features as xiangqi_features},
};
use plugboard_plugin_api::{BoardEvaluate, Evaluate};

/// Kings on their squares and a random handful of other pieces, scored by
/// material alone: a lesson a network can learn from a few thousand positions.
fn lesson(count: usize, seed: u64) -> Vec<Record> {
    let values = [100, 300, 300, 500, 900];
    let mut state = seed;
    let mut next = move |bound: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % bound
    };
    (0..count)
        .map(|index| {
            let mut pieces = [0u64; 8];
            pieces[0] |= 1 << 4;
            pieces[1] |= 1 << 60;
            pieces[7] |= (1 << 4) | (1 << 60);
            let mut score = 0i32;
            for _ in 0..next(12) {
                let square = 8 + next(48);
                if (pieces[0] | pieces[1]) & (1 << square) != 0 {
                    continue;
                }
                let (color, kind) = (next(2) as usize, next(5) as usize);
                pieces[color] |= 1 << square;
                pieces[2 + kind] |= 1 << square;
                score += if color == 0 { values[kind] } else { -values[kind] };
            }
            Record {
                pieces,
                score: score as i16,
                outcome: Outcome::Draw,
                side_to_move: (index % 2) as u8,
                game: index as u32,
            }
        })
        .collect()
}

fn write_records(path: &Path, records: &[Record]) {
    let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes().unwrap()).collect();
    std::fs::write(path, bytes).unwrap();
}

/// A folder for a test's files, holding `lesson(count, seed)` as a data file.
fn lesson_file(count: usize, seed: u64) -> (tempfile::TempDir, PathBuf) {
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("lesson.bin");
    write_records(&data, &lesson(count, seed));
    (folder, data)
}

/// Whether the trainer succeeded, and all it printed.
fn run_trainer(data: &Path, out: &Path, extra: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_plugboard-trainer"))
        .arg(data)
        .args(["--out", out.to_str().unwrap(), "--hidden", "16", "--batch", "256", "--lambda", "1", "--seed", "7"])
        .args(extra)
        .output()
        .expect("the trainer runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> String {
    let (succeeded, text) = run_trainer(data, out, extra);
    assert!(succeeded, "{text}");
    text
}

/// The mean distance from the lesson's scores, and that of a guess of 0 everywhere.
fn material_error(network: &Path) -> (f64, f64) {
    let network =
        Network::from_bytes(&std::fs::read(network).unwrap()).expect("the plugin reads what the trainer writes");
    let mut evaluator = NnueEvaluator::new(Arc::new(network));
    let fresh = lesson(500, 99);
    let (mut error, mut spread) = (0f64, 0f64);
    for record in &fresh {
        let truth = if record.side_to_move == 0 { record.score } else { -record.score };
        error += f64::from((evaluator.evaluate(&record.position()) - i32::from(truth)).abs());
        spread += f64::from(truth.abs());
    }
    (error / 500.0, spread / 500.0)
}

#[test]
fn a_network_trained_on_material_scores_material() {
    let (folder, data) = lesson_file(20_000, 1);
    let out = folder.path().join("material.nnue");
    let log = train(&data, &out, &["--epochs", "12"]);
    assert!(log.contains("held-out loss"), "{log}");
    let (error, guess) = material_error(&out);
    assert!(error < guess / 3.0, "mean error {error} cp against {guess} cp for a guess of 0");
}

#[test]
fn bullet_s_records_teach_as_well_as_our_own() {
    // What `plugboard datagen` writes beside its own records, for bullet.
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("lesson.bullet");
    let bytes: Vec<u8> = lesson(20_000, 1).iter().flat_map(|r| to_bullet(r).unwrap()).collect();
    std::fs::write(&data, bytes).unwrap();
    let out = folder.path().join("material.nnue");
    let log = train(&data, &out, &["--epochs", "12"]);
    assert!(log.contains("held-out loss"), "{log}");
    // The network loads as `EvalFile` loads it, and has learnt the material.
    let (error, guess) = material_error(&out);
    assert!(error < guess / 3.0, "mean error {error} cp against {guess} cp for a guess of 0");
}

/// Without `--k`, the trainer takes the scale the data's own results show:
/// here games won with the chance sigmoid(score / 200).
#[test]
fn k_is_fitted_to_the_results_when_not_given() {
    let mut state = 3u64;
    let mut chance = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let records: Vec<Record> = lesson(40_000, 4)
        .into_iter()
        .map(|mut record| {
            let white_wins = chance() < 1.0 / (1.0 + (-f64::from(record.score) / 200.0).exp());
            record.outcome = if white_wins { Outcome::WhiteWins } else { Outcome::BlackWins };
            record
        })
        .collect();
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("games.bin");
    write_records(&data, &records);
    let log = train(&data, &folder.path().join("fitted.nnue"), &["--epochs", "1"]);
    let fitted: f32 = log
        .lines()
        .find_map(|line| line.strip_prefix("k ")?.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no k line in {log}"));
    assert!((180.0..=220.0).contains(&fitted), "fitted k {fitted}, made with 200: {log}");
}

/// `--k` reads the labels on another scale; the network's centipawns must
/// still be the labels' centipawns, or the search's margins would be off.
#[test]
fn the_scores_keep_the_labels_scale_whatever_k() {
    let (folder, data) = lesson_file(20_000, 1);
    let out = folder.path().join("steep.nnue");
    train(&data, &out, &["--epochs", "12", "--k", "170"]);
    let (error, guess) = material_error(&out);
    assert!(error < guess / 3.0, "mean error {error} cp against {guess} cp for a guess of 0");

    let (succeeded, text) = run_trainer(&data, &out, &["--k", "0"]);
    assert!(!succeeded && text.contains("--k must be"), "{text}");
}

#[test]
fn one_seed_gives_one_network_whatever_the_threads_and_a_stopped_run_goes_on() {
    let (folder, data) = lesson_file(3_000, 2);
    let one = folder.path().join("one.nnue");
    let two = folder.path().join("two.nnue");
    train(&data, &one, &["--epochs", "3", "--threads", "1"]);
    train(&data, &two, &["--epochs", "3", "--threads", "2"]);
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());

    // Two epochs, then the same command asked for three: the third is trained
    // from the checkpoint, and the network is the one of an unbroken run. With
    // output buckets, which the checkpoint must keep.
    let resumed = folder.path().join("resumed.nnue");
    train(&data, &resumed, &["--epochs", "2", "--drop-at", "2", "--buckets", "8"]);
    let log = train(&data, &resumed, &["--epochs", "3", "--drop-at", "2", "--buckets", "8"]);
    assert!(log.contains("going on from") && log.contains("epoch 3/3") && !log.contains("epoch 1/3"), "{log}");
    let unbroken = folder.path().join("unbroken.nnue");
    train(&data, &unbroken, &["--epochs", "3", "--drop-at", "2", "--buckets", "8"]);
    let bytes = std::fs::read(&resumed).unwrap();
    assert_eq!(bytes, std::fs::read(&unbroken).unwrap());
    assert_eq!(Network::from_bytes(&bytes).map(|n| n.buckets()), Ok(8));
}

/// `--init`: a later round's training starts from the network of the round
/// before (the embedded one), not from random weights.
#[test]
fn training_starts_from_the_network_init_names_and_refuses_one_of_another_shape() {
    let (folder, data) = lesson_file(20_000, 1);
    let first = folder.path().join("first.nnue");
    train(&data, &first, &["--epochs", "12", "--buckets", "8"]);
    let first_name = first.to_str().unwrap();

    // At rate 0 nothing is learnt, so what is written is the network started from.
    let unchanged = folder.path().join("unchanged.nnue");
    let log = train(&data, &unchanged, &["--epochs", "1", "--rate", "0", "--buckets", "8", "--init", first_name]);
    assert!(log.contains("starting from"), "{log}");
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(&unchanged).unwrap());

    // Going on from it keeps what it knew.
    let further = folder.path().join("further.nnue");
    train(&data, &further, &["--epochs", "1", "--rate", "0.0001", "--buckets", "8", "--init", first_name]);
    let (error, guess) = material_error(&further);
    assert!(error < guess / 3.0, "mean error {error} cp against {guess} cp for a guess of 0");

    let other = folder.path().join("other.nnue");
    let (succeeded, text) = run_trainer(&data, &other, &["--buckets", "1", "--init", first_name]);
    assert!(!succeeded && text.contains("pass --hidden 16 --buckets 8"), "{text}");
    let (succeeded, text) = run_trainer(&data, &other, &["--buckets", "8", "--init", data.to_str().unwrap()]);
    assert!(!succeeded && text.contains("lesson.bin is not a chess network"), "{text}");
}

/// A stopped run goes on with the k and λ it started with, and refuses others:
/// the data may have grown meanwhile and fit another k.
#[test]
fn a_stopped_run_keeps_its_k() {
    let (folder, data) = lesson_file(3_000, 5);
    let out = folder.path().join("kept.nnue");
    train(&data, &out, &["--epochs", "1", "--k", "170"]);
    let (succeeded, text) = run_trainer(&data, &out, &["--epochs", "2", "--k", "300"]);
    assert!(!succeeded && text.contains("k 170") && text.contains("--fresh"), "{text}");
    let log = train(&data, &out, &["--epochs", "2"]);
    assert!(log.contains("k 170 ") && log.contains("going on from") && log.contains("epoch 2/2"), "{log}");
}

/// Xiangqi's lesson: generals in their palaces and a random handful of other
/// pieces, scored by material alone.
fn xiangqi_lesson(count: usize, seed: u64) -> Vec<XiangqiRecord> {
    let values = [100, 200, 200, 400, 450, 900];
    let mut state = seed;
    let mut next = move |bound: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % bound
    };
    (0..count)
        .map(|index| {
            let mut points = [0u8; 90];
            points[4] = xiangqi_features::encode(0, 6);
            points[85] = xiangqi_features::encode(1, 6);
            let mut score = 0i32;
            for _ in 0..next(12) {
                let point = 9 + next(72) as usize;
                if points[point] != 0 {
                    continue;
                }
                let (color, kind) = (next(2) as usize, next(6) as usize);
                points[point] = xiangqi_features::encode(color, kind);
                score += if color == 0 { values[kind] } else { -values[kind] };
            }
            let side_to_move = (index % 2) as u8;
            XiangqiRecord { points, score: score as i16, outcome: Outcome::Draw, side_to_move, game: index as u32 }
        })
        .collect()
}

#[test]
fn a_xiangqi_network_trained_from_datagen_s_files_loads_through_eval_file_and_scores_material() {
    let folder = tempfile::tempdir().unwrap();
    let data = folder.path().join("lesson.xiangqi");
    let bytes: Vec<u8> = xiangqi_lesson(20_000, 3).iter().flat_map(|r| r.to_bytes().unwrap()).collect();
    std::fs::write(&data, bytes).unwrap();
    let out = folder.path().join("xiangqi.nnue");
    // Without --buckets 8 there is no xiangqi architecture to write.
    let (succeeded, text) = run_trainer(&data, &out, &["--game", "xiangqi", "--epochs", "1"]);
    assert!(!succeeded && text.contains("--buckets 8"), "{text}");
    let log = train(&data, &out, &["--game", "xiangqi", "--buckets", "8", "--epochs", "12"]);
    assert!(log.contains("xiangqi (1260 → 16) × 2 → 1 of 8"), "{log}");
    let network = plugboard_eval_nnue::load_file_of(&out, Game::Xiangqi).expect("EvalFile takes it");
    assert!(plugboard_eval_nnue::load_file(&out).is_err(), "the chess plugin refuses a xiangqi network");
    let mut evaluator = XiangqiEvaluator::new(Arc::new(network));
    let (mut error, mut spread) = (0f64, 0f64);
    for record in xiangqi_lesson(500, 99) {
        let board = xiangqi_features::position_of(&record.points, record.side_to_move);
        let truth = if record.side_to_move == 0 { record.score } else { -record.score };
        error += f64::from((evaluator.evaluate(&board) - i32::from(truth)).abs());
        spread += f64::from(truth.abs());
    }
    assert!(error < spread / 3.0, "mean error {} cp against {} cp for a guess of 0", error / 500.0, spread / 500.0);
}
