//! The variant search through the plugin's public API: it finds each variant's
//! own way to win, and keeps the rules every variant adds.

use std::sync::Mutex;

use plugboard_alphabeta::{Direct, search};
use plugboard_eval_pesto::PestoEvaluator;
use plugboard_plugin_api::{
    InfoKind, Move, NO_DEADLINE, Reporter, Score, ScoreKind, SearchControl, SearchOutcome, SearchRequest, Variant,
    abi_stable::std_types::RSlice,
};
use plugboard_shakmaty::{from_plugin_move, rules_of, to_plugin_move, to_plugin_position};
use shakmaty::{CastlingMode, Position, fen::Fen, uci::UciMove, variant::VariantPosition};

fn position(variant: Variant, fen: &str) -> VariantPosition {
    let fen: Fen = fen.parse().unwrap();
    VariantPosition::from_setup(rules_of(variant).unwrap(), fen.into_setup(), CastlingMode::Chess960).unwrap()
}

/// Searches `fen` to `depth` and returns the outcome, the last score, and the chosen move in UCI.
fn best(variant: Variant, fen: &str, depth: u32) -> (SearchOutcome, Option<Score>, String) {
    let root = position(variant, fen);
    let plain = to_plugin_position(&root, variant);
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let request = SearchRequest {
        game_start: plain,
        moves: RSlice::from_slice(&[]),
        root: plain,
        root_moves: RSlice::from_slice(&[]),
        depth,
        nodes: 0,
        threads: 1,
        hash_mb: 4,
        multipv: 1,
        clear_hash: true,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let last = Mutex::new(None);
    let callback = |info: &plugboard_plugin_api::SearchInfo<'_>| {
        if info.kind == InfoKind::Line {
            // Every move of every reported line must be legal where it is played.
            let mut walk = root.clone();
            for &m in info.pv.iter() {
                let m = from_plugin_move(&walk, m).expect("a reported line holds only legal moves");
                walk.play_unchecked(m);
            }
            *last.lock().unwrap() = Some(info.score);
        }
    };
    let outcome = search(&request, || Ok(Direct(PestoEvaluator::default())), Reporter::new(&callback)).unwrap();
    let chosen = outcome.best.into_option().expect("a move");
    let m = from_plugin_move(&root, chosen).expect("the best move is legal");
    (outcome, last.into_inner().unwrap(), UciMove::from_move(m, CastlingMode::Chess960).to_string())
}

fn is_mate_for_us(score: Option<Score>) -> bool {
    score.is_some_and(|s| s.kind == ScoreKind::Mate && s.value > 0)
}

#[test]
fn king_of_the_hill_walks_onto_the_hill() {
    let (_, score, m) = best(Variant::KING_OF_THE_HILL, "7k/8/8/8/8/2K5/8/8 w - - 0 1", 3);
    assert_eq!(m, "c3d4");
    assert!(is_mate_for_us(score), "{score:?}");
}

#[test]
fn three_check_gives_the_third_check() {
    // One check left to give: any check wins at once, however bad it looks (Qxf7+ drops the queen).
    let fen = "4k3/5p2/8/8/8/8/5Q2/4K3 w - - 1+3 0 1";
    let (_, score, m) = best(Variant::THREE_CHECK, fen, 2);
    let mut after = position(Variant::THREE_CHECK, fen);
    after.play_unchecked(UciMove::from_ascii(m.as_bytes()).unwrap().to_move(&after).unwrap());
    assert!(after.is_check(), "{m} gives no check");
    assert!(is_mate_for_us(score), "{m} {score:?}");
}

#[test]
fn racing_kings_runs_for_the_last_rank() {
    let (_, score, m) = best(Variant::RACING_KINGS, "8/6K1/8/8/8/8/8/k7 w - - 0 1", 3);
    assert!(m.starts_with("g7") && m.ends_with('8'), "{m}");
    assert!(is_mate_for_us(score), "{score:?}");
}

#[test]
fn crazyhouse_drops_mate() {
    // A queen in hand drops onto g7 beside the cornered king, guarded by the knight.
    let (_, score, m) = best(Variant::CRAZYHOUSE, "7k/8/4N3/8/8/8/8/K7[Q] w - - 0 1", 3);
    assert_eq!(m, "Q@g7");
    assert!(is_mate_for_us(score), "{score:?}");
}

#[test]
fn giveaway_must_capture_and_wants_to_lose_pieces() {
    // Offering the rook on c1 forces bxc1 (captures are compulsory), and White, left
    // with nothing, wins.
    let (outcome, score, m) = best(Variant::GIVEAWAY, "8/8/8/8/8/8/1p6/R7 w - - 0 1", 4);
    assert_eq!(m, "a1c1", "{outcome:?}");
    assert!(is_mate_for_us(score), "{score:?}");
}

#[test]
fn atomic_explodes_the_king() {
    // Nxf7 explodes the knight, the pawn and the king beside it.
    let (_, score, m) = best(Variant::ATOMIC, "4k3/5p2/8/6N1/8/8/8/4K3 w - - 0 1", 2);
    assert_eq!(m, "g5f7");
    assert!(is_mate_for_us(score), "{score:?}");
}

#[test]
fn horde_plays_without_a_white_king() {
    let start = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1";
    // `best` checks that the move and every reported line are legal.
    let (outcome, _, _) = best(Variant::HORDE, start, 3);
    assert!(outcome.ponder.is_some(), "a depth-3 search has a reply to ponder on");
    // At depth 1 the line is the root move alone: the reply comes from elsewhere.
    let (outcome, _, m) = best(Variant::HORDE, start, 1);
    let reply = outcome.ponder.into_option().expect("a depth-1 search has a reply to ponder on");
    let mut after = position(Variant::HORDE, start);
    after.play_unchecked(from_plugin_move(&after, outcome.best.into_option().unwrap()).unwrap());
    assert!(from_plugin_move(&after, reply).is_some(), "{m}: the reply to ponder on is illegal");
}

#[test]
fn the_search_lists_every_variant_it_plays() {
    let names = plugboard_alphabeta::supported_variants();
    for variant in Variant::ALL {
        assert!(names.split(',').any(|name| name == variant.cecp_name()), "{names}");
    }
    assert!(names.split(',').any(|name| name == "fischerandom"));
}

#[test]
fn drops_in_the_history_are_replayed() {
    // 1. e4 d5 2. exd5 Qxd5, then white drops the pawn it won: the search must see the
    // same root as the host through a history with a drop in it.
    let start = position(Variant::CRAZYHOUSE, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1");
    let mut walk = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    for text in ["e2e4", "d7d5", "e4d5", "d8d5", "P@e4"] {
        let m = UciMove::from_ascii(text.as_bytes()).unwrap().to_move(&walk).unwrap();
        moves.push(to_plugin_move(m));
        walk.play_unchecked(m);
    }
    assert_eq!(moves[4].dropped(), Some(plugboard_plugin_api::PieceKind::Pawn));
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let request = SearchRequest {
        game_start: to_plugin_position(&start, Variant::CRAZYHOUSE),
        moves: RSlice::from_slice(&moves),
        root: to_plugin_position(&walk, Variant::CRAZYHOUSE),
        root_moves: RSlice::from_slice(&[]),
        depth: 3,
        nodes: 0,
        threads: 1,
        hash_mb: 4,
        multipv: 1,
        clear_hash: true,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let callback = |_: &plugboard_plugin_api::SearchInfo<'_>| {};
    let outcome = search(&request, || Ok(Direct(PestoEvaluator::default())), Reporter::new(&callback)).unwrap();
    let best = outcome.best.into_option().unwrap();
    assert!(from_plugin_move(&walk, best).is_some(), "{best:?}");
}
