//! `plugboard datagen` as a user runs it: positions from self-play written as
//! records the trainer reads, labelled from White's side, and a second run that
//! goes on after the first instead of starting again.

use crate::common;

use std::process::Command;

use plugboard_eval_nnue::{
    data::{Outcome, RECORD_SIZE, Record},
    xiangqi::data::{XIANGQI_RECORD_SIZE, XiangqiRecord},
};

/// `plugboard datagen --out OUT ARGS...`, with a home of its own.
fn run_datagen(out: &std::path::Path, args: &[&str]) -> std::process::Output {
    run_datagen_with(&[], out, args)
}

/// `plugboard ENGINE_ARGS... datagen --out OUT ARGS...` (ENGINE_ARGS: `--eval NAME`, say).
fn run_datagen_with(engine_args: &[&str], out: &std::path::Path, args: &[&str]) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(common::binary())
        .env("HOME", home.path())
        .args(engine_args)
        .args(["--log-file", home.path().join("log").to_str().unwrap(), "datagen", "--out"])
        .arg(out)
        .args(args)
        .output()
        .expect("plugboard runs")
}

fn datagen(out: &std::path::Path, positions: u32) -> String {
    let positions = positions.to_string();
    let output = run_datagen(out, &["--positions", &positions, "--nodes", "400", "--random-plies", "4", "--seed", "5"]);
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{text}");
    text
}

fn records(path: &std::path::Path) -> Vec<Record> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.len() % RECORD_SIZE, 0, "whole records only");
    bytes
        .chunks_exact(RECORD_SIZE)
        .map(|chunk| Record::from_bytes(chunk.try_into().unwrap()).expect("a record"))
        .collect()
}

#[test]
fn self_play_positions_are_written_and_a_second_run_goes_on_after_the_first() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("worker-0.bin");
    let log = datagen(out.path(), 150);
    assert!(log.contains("positions, done"), "{log}");
    let first = records(&file);
    assert!(first.len() >= 150, "{}", first.len());
    for record in &first {
        let kings = record.pieces[7];
        assert_eq!((kings & record.pieces[0]).count_ones() + (kings & record.pieces[1]).count_ones(), 2);
        assert!(record.score.abs() < 20_000, "no mate scores as labels: {record:?}");
    }
    // A game's positions share its result; games are numbered for worker 0.
    for pair in first.windows(2) {
        if pair[0].game == pair[1].game {
            assert_eq!(pair[0].outcome, pair[1].outcome);
        }
        assert_eq!(pair[1].game % 64, 0);
    }
    // White ahead by the search's score more often wins than loses.
    let ahead: Vec<&Record> = first.iter().filter(|r| r.score > 300).collect();
    let won = ahead.iter().filter(|r| r.outcome == Outcome::WhiteWins).count();
    let lost = ahead.iter().filter(|r| r.outcome == Outcome::BlackWins).count();
    assert!(ahead.is_empty() || won >= lost, "{won} won, {lost} lost of {} positions", ahead.len());

    let log = datagen(out.path(), 300);
    assert!(log.contains(&format!("holds {} positions", first.len())), "{log}");
    let both = records(&file);
    assert_eq!(&both[..first.len()], &first[..], "the first run's positions stay");
    assert!(both.len() >= 300);
    let last_of_first = first.last().unwrap().game;
    assert!(both[first.len()..].iter().all(|r| r.game > last_of_first), "new games, not the first run's again");
}

/// Runs `plugboard datagen` with `args` and the output folder `out`, killing it
/// if it has not ended within `patience`: its exit status (`None` when killed)
/// and what it printed on both channels.
fn datagen_within(out: &std::path::Path, args: &[&str], patience: std::time::Duration) -> (Option<i32>, String) {
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(common::binary())
        .env("HOME", home.path())
        .args(["--log-file", home.path().join("log").to_str().unwrap(), "datagen", "--out"])
        .arg(out)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("plugboard runs");
    let deadline = std::time::Instant::now() + patience;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let output = child.wait_with_output().unwrap();
    (status, String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr))
}

#[test]
fn arguments_that_would_never_end_are_refused_before_any_work() {
    for args in [
        &["--nodes", "0", "--positions", "10"][..],
        &["--random-plies", "4294967295", "--positions", "10"],
        &["--book-plies", "4294967295", "--positions", "10"],
        &["--positions", "0"],
        &["--hash", "0", "--positions", "10"],
        &["--nodes", "18446744073709551615", "--positions", "10"],
    ] {
        let out = tempfile::tempdir().unwrap();
        let (status, text) = datagen_within(out.path(), args, std::time::Duration::from_secs(20));
        assert!(status.is_some_and(|code| code != 0), "{args:?} was not refused (status {status:?}):\n{text}");
        assert!(text.contains("invalid value"), "{args:?}: {text}");
        assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0, "{args:?} wrote something");
    }
}

#[test]
fn random_openings_end_when_the_game_does() {
    // As many random plies as may be asked: the games that end among them are
    // played no further, and the run ends with its positions.
    let out = tempfile::tempdir().unwrap();
    let (status, text) = datagen_within(
        out.path(),
        &["--positions", "40", "--nodes", "200", "--random-plies", "100", "--seed", "3"],
        std::time::Duration::from_secs(120),
    );
    assert_eq!(status, Some(0), "{text}");
    assert!(records(&out.path().join("worker-0.bin")).len() >= 40, "{text}");
}

#[test]
fn a_file_that_is_not_the_workers_own_is_left_untouched() {
    let other_data: Vec<u8> = (0..1000u32).map(|n| (n.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    for (name, bytes) in [("random", other_data.clone()), ("zeros", vec![0u8; 1000]), ("short", vec![7u8; 20])] {
        let out = tempfile::tempdir().unwrap();
        let foreign = out.path().join("worker-0.bin");
        std::fs::write(&foreign, &bytes).unwrap();
        let (status, text) =
            datagen_within(out.path(), &["--positions", "10", "--nodes", "200"], std::time::Duration::from_secs(60));
        assert_eq!(status, Some(1), "{name}: {text}");
        assert!(text.contains("is not a file of positions; it was left as it is"), "{name}: {text}");
        assert_eq!(std::fs::read(&foreign).unwrap(), bytes, "{name}: the file was changed");
    }
    // With several workers, one file not its own stops them all before any starts.
    let out = tempfile::tempdir().unwrap();
    std::fs::write(out.path().join("worker-1.bin"), &other_data).unwrap();
    let (status, text) = datagen_within(
        out.path(),
        &["--workers", "2", "--positions", "10", "--nodes", "200"],
        std::time::Duration::from_secs(60),
    );
    assert_eq!(status, Some(1), "{text}");
    assert!(!out.path().join("worker-0.bin").exists(), "worker 0 started: {text}");
    assert_eq!(std::fs::read(out.path().join("worker-1.bin")).unwrap(), other_data);
}

fn datagen_part(out: &std::path::Path, part: &str) -> std::process::Output {
    datagen_part_of(out, part, "60")
}

fn datagen_part_of(out: &std::path::Path, part: &str, positions: &str) -> std::process::Output {
    run_datagen(
        out,
        &["--positions", positions, "--nodes", "300", "--random-plies", "4", "--seed", "9", "--shard", part],
    )
}

#[test]
fn parts_made_on_different_machines_are_disjoint_and_each_the_same_every_time() {
    let (first, second, again) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (out, part) in [(&first, "0/2"), (&second, "1/2"), (&again, "0/2")] {
        let output = datagen_part(out.path(), part);
        assert!(output.status.success(), "{output:?}");
    }
    let file = |dir: &tempfile::TempDir| dir.path().join("worker-0.bin");
    let games = |dir: &tempfile::TempDir| -> std::collections::BTreeSet<u32> {
        records(&file(dir)).iter().map(|record| record.game).collect()
    };
    let (part_0, part_1) = (games(&first), games(&second));
    assert!(!part_0.is_empty() && !part_1.is_empty());
    assert!(part_0.is_disjoint(&part_1), "{part_0:?} {part_1:?}");
    assert!(part_0.iter().all(|game| (game / 64) % 2 == 0) && part_1.iter().all(|game| (game / 64) % 2 == 1));
    // The same part, made again elsewhere: the same bytes.
    assert_eq!(std::fs::read(file(&first)).unwrap(), std::fs::read(file(&again)).unwrap());
    // Beside the records, the same positions in bullet's records, in order.
    let bullet_of = |dir: &tempfile::TempDir| std::fs::read(dir.path().join("worker-0.bullet")).unwrap();
    let expected: Vec<u8> = records(&file(&first))
        .iter()
        .flat_map(|record| plugboard_eval_nnue::bullet::to_bullet(record).unwrap())
        .collect();
    assert_eq!(bullet_of(&first), expected);
    // A bullet file that lost its end (a kill, a copy cut short) is written again on the next run.
    std::fs::write(first.path().join("worker-0.bullet"), &expected[..64]).unwrap();
    let held = records(&file(&first)).len();
    let output = datagen_part_of(first.path(), "0/2", &(held + 1).to_string());
    assert!(output.status.success(), "{output:?}");
    let longer: Vec<u8> = records(&file(&first))
        .iter()
        .flat_map(|record| plugboard_eval_nnue::bullet::to_bullet(record).unwrap())
        .collect();
    assert!(longer.len() > expected.len());
    assert_eq!(bullet_of(&first), longer);
    // A part's file is not another part's to go on with.
    let refused = datagen_part(first.path(), "1/2");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("holds games of another part than 1/2"), "{refused:?}");
}

/// `plugboard merge --seed SEED --out OUT INPUTS...`, with a home of its own.
fn run_merge(out: &std::path::Path, inputs: &[&std::path::Path], seed: &str) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(common::binary())
        .env("HOME", home.path())
        .args(["--log-file", home.path().join("log").to_str().unwrap(), "merge", "--seed", seed, "--out"])
        .arg(out)
        .args(inputs)
        .output()
        .expect("plugboard runs")
}

#[test]
fn a_merge_of_parts_is_deduplicated_shuffled_and_the_same_for_the_same_inputs() {
    let (first, second) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (out, part) in [(&first, "0/2"), (&second, "1/2")] {
        assert!(datagen_part(out.path(), part).status.success());
    }
    let merge = |out: &std::path::Path, inputs: &[&std::path::Path], seed: &str| {
        let output = run_merge(out, inputs, seed);
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let merged = tempfile::tempdir().unwrap();
    // The first part given twice, under another name: each position is kept once.
    let copies = tempfile::tempdir().unwrap();
    let part_file = copies.path().join("copy.bin");
    std::fs::copy(first.path().join("worker-0.bin"), &part_file).unwrap();
    let said = merge(merged.path(), &[first.path(), second.path(), &part_file], "3");
    let inputs: Vec<Record> =
        [first.path(), second.path()].iter().flat_map(|dir| records(&dir.join("worker-0.bin"))).collect();
    let distinct: std::collections::HashSet<_> = inputs.iter().map(|r| (r.pieces, r.side_to_move)).collect();
    let out = records(&merged.path().join("merged.bin"));
    assert_eq!(out.len(), distinct.len(), "{said}");
    let kept: std::collections::HashSet<_> = out.iter().map(|r| (r.pieces, r.side_to_move)).collect();
    assert_eq!(kept, distinct);
    assert!(said.contains(&format!("merged {} positions from 3 files", out.len())), "{said}");
    assert!(inputs.len() + records(&part_file).len() > out.len());
    // Shuffled: not the inputs' order.
    assert_ne!(
        out.iter().map(|r| r.game).collect::<Vec<_>>(),
        inputs.iter().take(out.len()).map(|r| r.game).collect::<Vec<_>>()
    );
    let manifest = std::fs::read_to_string(merged.path().join("manifest.txt")).unwrap();
    assert!(manifest.contains(&format!("input {} bytes", part_file.display())), "{manifest}");
    let bullet: Vec<u8> = out.iter().flat_map(|r| plugboard_eval_nnue::bullet::to_bullet(r).unwrap()).collect();
    assert!(std::fs::read(merged.path().join("merged.bullet")).unwrap() == bullet, "bullet's records differ");
    // The same inputs (named in any order) and seed, the same bytes; another seed, another order.
    let again = tempfile::tempdir().unwrap();
    merge(again.path(), &[&part_file, second.path(), first.path()], "3");
    let read = |dir: &tempfile::TempDir, name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert!(read(&again, "merged.bin") == read(&merged, "merged.bin"), "not the same bytes");
    assert!(read(&again, "manifest.txt") == read(&merged, "manifest.txt"), "not the same manifest");
    let reshuffled = tempfile::tempdir().unwrap();
    merge(reshuffled.path(), &[first.path(), second.path(), &part_file], "4");
    assert!(read(&reshuffled, "merged.bin") != read(&merged, "merged.bin"), "the seed changed nothing");
}

fn xiangqi_records(path: &std::path::Path) -> Vec<XiangqiRecord> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.len() % XIANGQI_RECORD_SIZE, 0, "whole records only");
    bytes
        .chunks_exact(XIANGQI_RECORD_SIZE)
        .map(|chunk| XiangqiRecord::from_bytes(chunk.try_into().unwrap()).expect("a record"))
        .collect()
}

/// A part made with xiangqi-pst, whose scores at a few hundred nodes already
/// foretell results, so that the labels' side can be checked on a few games.
fn xiangqi_part(out: &std::path::Path, part: &str) -> std::process::Output {
    run_datagen_with(
        &["--eval", "xiangqi-pst"],
        out,
        &["--variant", "xiangqi", "--positions", "60", "--nodes", "300", "--random-plies", "6", "--seed", "4"]
            .into_iter()
            .chain(["--shard", part])
            .collect::<Vec<_>>(),
    )
}

#[test]
fn xiangqi_positions_are_made_in_disjoint_reproducible_parts_and_merged_like_chess() {
    let (first, second, again) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (out, part) in [(&first, "0/2"), (&second, "1/2"), (&again, "0/2")] {
        let output = xiangqi_part(out.path(), part);
        assert!(output.status.success(), "{output:?}");
        assert!(String::from_utf8_lossy(&output.stdout).contains("evaluation xiangqi-pst"), "{output:?}");
    }
    let file = |dir: &tempfile::TempDir| dir.path().join("worker-0.xiangqi");
    assert!(!first.path().join("worker-0.bin").exists() && !first.path().join("worker-0.bullet").exists());
    let (part_0, part_1) = (xiangqi_records(&file(&first)), xiangqi_records(&file(&second)));
    assert!(part_0.len() >= 60 && part_1.len() >= 60);
    for record in part_0.iter().chain(&part_1) {
        assert!(record.has_both_generals(), "{record:?}");
        assert!(record.score.abs() < 20_000, "no mate scores as labels: {record:?}");
    }
    let games = |records: &[XiangqiRecord]| records.iter().map(|r| r.game).collect::<std::collections::BTreeSet<_>>();
    assert!(games(&part_0).is_disjoint(&games(&part_1)));
    assert!(games(&part_0).iter().all(|game| (game / 64) % 2 == 0));
    assert_eq!(std::fs::read(file(&first)).unwrap(), std::fs::read(file(&again)).unwrap());
    // Red ahead by the search's score wins more often than it loses.
    let (mut agree, mut disagree) = (0, 0);
    for record in part_0.iter().chain(&part_1).filter(|r| r.score.abs() >= 200 && r.outcome != Outcome::Draw) {
        if (record.score > 0) == (record.outcome == Outcome::WhiteWins) { agree += 1 } else { disagree += 1 }
    }
    assert!(agree > disagree, "{agree} {disagree}");

    // Merged: each position once, in merged.xiangqi, the same bytes for the same inputs.
    let (merged, remerged) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (out, inputs) in [(&merged, [first.path(), second.path()]), (&remerged, [second.path(), first.path()])] {
        let output = run_merge(out.path(), &inputs, "6");
        assert!(output.status.success(), "{output:?}");
    }
    let out = xiangqi_records(&merged.path().join("merged.xiangqi"));
    let distinct: std::collections::HashSet<_> =
        part_0.iter().chain(&part_1).map(|r| (r.points, r.side_to_move)).collect();
    assert_eq!(out.len(), distinct.len());
    assert!(!merged.path().join("merged.bullet").exists(), "bullet has no xiangqi records");
    let read = |dir: &tempfile::TempDir, name: &str| std::fs::read(dir.path().join(name)).unwrap();
    assert!(read(&merged, "merged.xiangqi") == read(&remerged, "merged.xiangqi"));
    assert!(String::from_utf8_lossy(&read(&merged, "manifest.txt")).contains("output merged.xiangqi fnv1a64 "));

    // Without --eval, the xiangqi evaluation of a fresh start plays: the network.
    let fresh = tempfile::tempdir().unwrap();
    let output = run_datagen(fresh.path(), &["--variant", "xiangqi", "--positions", "1", "--nodes", "300"]);
    assert!(String::from_utf8_lossy(&output.stdout).contains("evaluation xiangqi-nnue"), "{output:?}");

    // One game's parts only: chess and xiangqi together are refused.
    let chess = tempfile::tempdir().unwrap();
    assert!(datagen_part(chess.path(), "0/1").status.success());
    let mixed = tempfile::tempdir().unwrap();
    let output = run_merge(mixed.path(), &[&chess.path().join("worker-0.bin"), &file(&first)], "6");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("different games"), "{output:?}");
}
