//! Tablebase probes lent by the host: the search asks them after captures and
//! pawn moves, scores their wins above any evaluation, and counts the hits.

mod common;

use std::sync::Mutex;

use common::pesto;
use plugboard_alphabeta::{AlphaBeta, SearchOptions, board_from_fen, board_to_position, search_with};
use plugboard_plugin_api::{
    InfoKind, NO_DEADLINE, Position, Reporter, ScoreKind, SearchControl, SearchRequest, TablebaseProbe,
    TablebaseSource, Wdl, abi_stable::std_types::RSlice,
};

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
    let root = board_to_position(&board_from_fen(fen).unwrap());
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let request = SearchRequest {
        game_start: root,
        moves: RSlice::from_slice(&[]),
        root,
        root_moves: RSlice::from_slice(&[]),
        depth,
        nodes: 0,
        threads: 1,
        hash_mb: 8,
        multipv: 1,
        clear_hash: true,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let last = Mutex::new((0, 0));
    let callback = |info: &plugboard_plugin_api::SearchInfo<'_>| {
        if info.kind == InfoKind::Line {
            assert_eq!(info.score.kind, ScoreKind::Centipawns);
            *last.lock().unwrap() = (info.score.value, info.tbhits);
        }
    };
    let options = SearchOptions { tablebases, ..AlphaBeta::options() };
    search_with(&request, pesto, Reporter::new(&callback), options).unwrap();
    last.into_inner().unwrap()
}

#[test]
fn a_capture_into_a_won_table_position_scores_as_a_tablebase_win() {
    // Qxd5 leaves king and queen against a lone king.
    let fen = "7k/8/8/3r4/8/8/8/K2Q4 w - - 0 1";
    let probe = TablebaseProbe::new(&QUEEN_WINS, 3);
    let (score, tbhits) = search(fen, 4, Some(probe));
    assert!(score > 19_000, "score {score}");
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
