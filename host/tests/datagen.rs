//! `plugboard datagen` as a user runs it: positions from self-play written as
//! records the trainer reads, labelled from White's side, and a second run that
//! goes on after the first instead of starting again.

mod common;

use std::process::Command;

use plugboard_eval_nnue::data::{Outcome, RECORD_SIZE, Record};

fn datagen(out: &std::path::Path, positions: u32) -> String {
    let home = tempfile::tempdir().unwrap();
    let output = Command::new(common::binary())
        .env("HOME", home.path())
        .args(["--log-file", home.path().join("log").to_str().unwrap(), "datagen", "--out"])
        .arg(out)
        .args(["--positions", &positions.to_string(), "--nodes", "400", "--random-plies", "4", "--seed", "5"])
        .output()
        .expect("plugboard runs");
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
