//! Tablebase probes lent by the host: the search asks them after captures and
//! pawn moves, scores their wins above any evaluation, and counts the hits.

use crate::common;

use common::{Setup, run};
use plugboard_plugin_api::{Position, ScoreKind, TablebaseProbe, TablebaseSource, Wdl};

/// A stand-in for real tables: with at most three pieces on the board, the side
/// with a queen wins; anything else is a draw.
struct QueenWins;

impl TablebaseSource for QueenWins {
    fn probe_wdl(&self, position: &Position) -> Option<Wdl> {
        let pieces = position.colors[0].count_ones() + position.colors[1].count_ones();
        if pieces > 3 {
            return None;
        }
        let queens = position.pieces[4];
        let us = position.colors[usize::from(position.side_to_move)];
        let them = position.colors[1 - usize::from(position.side_to_move)];
        Some(if queens & us != 0 {
            Wdl::WIN
        } else if queens & them != 0 {
            Wdl::LOSS
        } else {
            Wdl::DRAW
        })
    }
}

static QUEEN_WINS: QueenWins = QueenWins;

/// Searches `fen` to `depth`; the last line's score in centipawns and the tablebase hits.
fn search(fen: &str, depth: u32, tablebases: Option<TablebaseProbe>) -> (i32, u64) {
    search_threads(fen, depth, tablebases, 1)
}

fn search_threads(fen: &str, depth: u32, tablebases: Option<TablebaseProbe>, threads: u32) -> (i32, u64) {
    let result = run(Setup { fen, depth, tablebases, threads, ..Setup::default() });
    let last = result.lines.last().expect("a line");
    assert_eq!(last.score.kind, ScoreKind::Centipawns);
    (last.score.value, last.tbhits)
}

#[test]
fn a_capture_into_a_won_table_position_scores_as_a_tablebase_win() {
    // Qxd5 leaves king and queen against a lone king.
    let fen = "7k/8/8/3r4/8/8/8/K2Q4 w - - 0 1";
    let probe = TablebaseProbe::new(&QUEEN_WINS, 3);
    let (score, tbhits) = search(fen, 4, Some(probe));
    // Shown as the host shows a tablebase win: 20000 less the plies to it (one here).
    assert_eq!(score, 19_999);
    assert!(tbhits > 0);
    // Without tables: an ordinary evaluation, and no hits.
    let (score, tbhits) = search(fen, 4, None);
    assert!(score < 5_000, "score {score}");
    assert_eq!(tbhits, 0);
}

#[test]
fn a_capture_into_a_drawn_table_position_scores_as_a_draw() {
    // Rxd5 wins the queen; the stand-in calls the rook ending that follows a draw.
    let fen = "7k/8/8/3q4/8/8/8/K2R4 w - - 0 1";
    let (score, tbhits) = search(fen, 4, Some(TablebaseProbe::new(&QUEEN_WINS, 3)));
    assert!(tbhits > 0);
    assert_eq!(score, 0);
    // Without tables, the rook up is worth a lot.
    let (score, _) = search(fen, 4, None);
    assert!(score > 300, "score {score}");
}

#[test]
fn every_thread_counts_its_tablebase_hits() {
    let fen = "7k/8/8/3r4/8/8/8/K2Q4 w - - 0 1";
    let probe = TablebaseProbe::new(&QUEEN_WINS, 3);
    let (score, tbhits) = search_threads(fen, 6, Some(probe), 3);
    assert_eq!(score, 19_999);
    assert!(tbhits > 0);
}
