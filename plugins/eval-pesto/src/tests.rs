use plugboard_plugin_api::{EvalPlugin, Evaluate, PieceKind, Position};

use crate::{DEFAULT_TEMPO, Pesto, PestoEvaluator, Tapered, Weights, pesto, positional, positional_with};

/// A minimal FEN reader, enough for test positions (board and side to move).
fn position(fen: &str) -> Position {
    let mut fields = fen.split_whitespace();
    let board = fields.next().expect("board field");
    let mut position = Position {
        colors: [0; 2],
        pieces: [0; 6],
        castling_rooks: 0,
        side_to_move: if fields.next() == Some("b") { 1 } else { 0 },
        en_passant: Position::NO_SQUARE,
        halfmove_clock: 0,
        fullmove_number: 1,
        variant: plugboard_plugin_api::Variant::CHESS,
        remaining_checks: [0; 2],
        pockets: [[0; 5]; 2],
        promoted: 0,
        reserved: [0; 2],
    };
    for (row, rank_text) in board.split('/').enumerate() {
        let rank = 7 - row;
        let mut file = 0;
        for c in rank_text.chars() {
            if let Some(skip) = c.to_digit(10) {
                file += skip as usize;
                continue;
            }
            let kind = match c.to_ascii_lowercase() {
                'p' => PieceKind::Pawn,
                'n' => PieceKind::Knight,
                'b' => PieceKind::Bishop,
                'r' => PieceKind::Rook,
                'q' => PieceKind::Queen,
                'k' => PieceKind::King,
                _ => panic!("bad piece {c}"),
            };
            let bit = 1u64 << (rank * 8 + file);
            position.pieces[kind as usize] |= bit;
            position.colors[usize::from(c.is_ascii_lowercase())] |= bit;
            file += 1;
        }
    }
    position
}

/// Swaps colours and flips ranks: the same game seen from the other side.
fn mirror(p: &Position) -> Position {
    Position {
        colors: [p.colors[1].swap_bytes(), p.colors[0].swap_bytes()],
        pieces: p.pieces.map(u64::swap_bytes),
        castling_rooks: p.castling_rooks.swap_bytes(),
        side_to_move: p.side_to_move ^ 1,
        ..*p
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn start_position_is_worth_the_tempo() {
    let mut eval = PestoEvaluator::with_tempo(DEFAULT_TEMPO);
    assert_eq!(eval.evaluate(&position(START)), DEFAULT_TEMPO);
    let black_to_move = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(eval.evaluate(&black_to_move), DEFAULT_TEMPO);
}

#[test]
fn mirrored_positions_score_the_same() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 4",
        "8/2k5/3p4/p2P1p2/P2P1P2/8/3K4/8 b - - 0 1",
        "6k1/5ppp/8/8/8/8/q7/6KQ w - - 0 1",
    ];
    let mut eval = PestoEvaluator::with_tempo(7);
    for fen in fens {
        let p = position(fen);
        assert_eq!(eval.evaluate(&p), eval.evaluate(&mirror(&p)), "{fen}");
        assert_ne!(pesto(&p), 0, "{fen} should not be balanced by accident");
    }
}

#[test]
fn queen_up_is_clearly_better() {
    let mut eval = PestoEvaluator::with_tempo(0);
    let white_up = position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(eval.evaluate(&white_up) > 800, "{}", eval.evaluate(&white_up));
    let black_to_move = position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(eval.evaluate(&black_to_move) < -800);
}

#[test]
fn tables_are_oriented_from_white_at_the_bottom() {
    // PeSTO rewards a knight on f3 over one on its starting square g1.
    let g1 = position("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    let f3 = position("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1");
    assert!(pesto(&f3) > pesto(&g1));
    // A pawn on the seventh rank is worth far more in the endgame than on the second.
    let advanced = position("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let home = position("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    assert!(pesto(&advanced) > pesto(&home) + 50);
}

#[test]
fn tempo_option_is_validated() {
    assert!(Pesto::set_option("Tempo", "abc").is_err());
    assert!(Pesto::set_option("Tempo", "101").is_err());
    assert!(Pesto::set_option("Nope", "1").is_err());
    assert_eq!(Pesto::info().options.len(), 1);
}

/// The full evaluation minus the tables: what the positional terms add, for White.
fn terms_for_white(fen: &str) -> i32 {
    let p = position(fen);
    let sign = if p.side_to_move == 0 { 1 } else { -1 };
    sign * (positional(&p) - pesto(&p))
}

#[test]
fn a_passed_pawn_counts_and_counts_more_with_the_defending_king_away() {
    // The same material: Black's e-pawn guards d6, or Black has a g-pawn instead.
    let stopped = terms_for_white("7k/4p2p/8/3P4/8/8/7P/4K3 w - - 0 1");
    let passed = terms_for_white("7k/6pp/8/3P4/8/8/7P/4K3 w - - 0 1");
    assert!(passed > stopped + 15, "passed {passed}, stopped {stopped}");
    let king_near = terms_for_white("8/3k2pp/8/3P4/8/8/7P/4K3 w - - 0 1");
    let king_far = terms_for_white("7k/6pp/8/3P4/8/8/7P/4K3 w - - 0 1");
    assert!(king_far > king_near + 15, "far {king_far}, near {king_near}");
}

#[test]
fn broken_pawns_cost_and_the_bishop_pair_earns() {
    let healthy = terms_for_white("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
    let doubled_isolated = terms_for_white("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1");
    assert!(healthy > doubled_isolated + 20, "healthy {healthy}, broken {doubled_isolated}");
    let pair = terms_for_white("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
    let one = terms_for_white("4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1");
    assert!(pair > one + 20, "pair {pair}, one {one}");
}

#[test]
fn open_lines_and_an_attacked_king_are_seen() {
    // A rook on the open e-file against one behind its own pawn, queens on.
    let behind_pawn = terms_for_white("1q2k3/p4ppp/8/8/8/8/P4PPP/R4QK1 w - - 0 1");
    let open_file = terms_for_white("1q2k3/p4ppp/8/8/8/8/P4PPP/4RQK1 w - - 0 1");
    assert!(open_file > behind_pawn + 10, "open file {open_file}, behind its pawn {behind_pawn}");
    // Queen and knight bearing on f7 and h7 against the same pieces far from the king.
    let attack = terms_for_white("r4rk1/1b3ppp/8/6NQ/8/8/5PPP/R4RK1 w - - 0 1");
    let quiet = terms_for_white("r4rk1/1b3ppp/8/8/Q7/8/5PPP/RN3RK1 w - - 0 1");
    assert!(attack > quiet + 20, "attack {attack}, quiet {quiet}");
}

/// How many times a term counts for White minus for Black: the evaluation with
/// that term's weight at one in both phases and every other weight at zero.
fn count_for_white(fen: &str, set: impl FnOnce(&mut Weights)) -> i32 {
    let mut weights = Weights::HAND_SET;
    for (_, weight) in weights.parameters_mut() {
        *weight = 0;
    }
    set(&mut weights);
    let p = position(fen);
    let sign = if p.side_to_move == 0 { 1 } else { -1 };
    sign * (positional_with(&p, &weights) - pesto(&p))
}

const ONE: Tapered = Tapered::new(1, 1);

#[test]
fn guarded_and_side_by_side_pawns_are_counted() {
    // c3 guards d4, d4 and e4 stand side by side; Black's a7 stands alone.
    let fen = "4k3/p7/8/8/3PP3/2P5/8/4K3 w - - 0 1";
    assert_eq!(count_for_white(fen, |w| w.supported_pawn = ONE), 1);
    assert_eq!(count_for_white(fen, |w| w.phalanx_pawn = ONE), 2);
}

#[test]
fn a_pawn_left_behind_under_an_enemy_pawn_is_backward() {
    // d3 has no pawn beside or behind it to guard d4, which Black's e5 holds
    // (and e5 is not backward itself: f6 can guard it).
    let backward = "4k3/8/5p2/4p3/2P5/3P4/8/4K3 w - - 0 1";
    assert_eq!(count_for_white(backward, |w| w.backward_pawn = ONE), 1);
    // With c2 behind it, d3 can still be guarded.
    let guarded = "4k3/8/5p2/4p3/8/3P4/2P5/4K3 w - - 0 1";
    assert_eq!(count_for_white(guarded, |w| w.backward_pawn = ONE), 0);
}

#[test]
fn a_guarded_knight_no_pawn_can_chase_is_an_outpost() {
    let outpost = "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(count_for_white(outpost, |w| w.knight_outpost = ONE), 1);
    // Black's c7 pawn can drive it away.
    let chased = "4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(count_for_white(chased, |w| w.knight_outpost = ONE), 0);
    // Black's outpost on d4, seen from Black's side.
    let black = "4k3/8/8/4p3/3n4/8/8/4K3 w - - 0 1";
    assert_eq!(count_for_white(black, |w| w.knight_outpost = ONE), -1);
}

#[test]
fn a_rook_on_the_seventh_is_counted() {
    let fen = "4k3/R7/8/8/8/8/8/4K2r w - - 0 1";
    assert_eq!(count_for_white(fen, |w| w.rook_on_seventh = ONE), 1);
}

#[test]
fn threats_by_lesser_pieces_and_loose_pieces_are_counted() {
    // e4 attacks the knight on d5 and the bishop on f5, the bishop on a6 the rook on b7.
    let fen = "3qk3/1r6/B7/3n1b2/4P3/8/8/3RK3 w - - 0 1";
    assert_eq!(count_for_white(fen, |w| w.pawn_threat = ONE), 2);
    assert_eq!(count_for_white(fen, |w| w.minor_threat_on_major = ONE), 1);
    // The rook on d1 sees the knight on d5 first, not the queen behind it.
    assert_eq!(count_for_white(fen, |w| w.rook_threat_on_queen = ONE), 0);
    let open = "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1";
    assert_eq!(count_for_white(open, |w| w.rook_threat_on_queen = ONE), 1);
    // The queen's attack on d1 meets a guarded rook; the knight on h5 hangs.
    let loose = "3qk3/8/8/7n/8/8/8/3RK2R w - - 0 1";
    assert_eq!(count_for_white(loose, |w| w.hanging = ONE), 1);
}

#[test]
fn pawns_on_their_last_rank_are_evaluated_without_a_stop_square() {
    // No orthodox position has them, but a plugin must not trust that.
    let p = position("P3k3/8/8/8/8/8/8/p3K3 w - - 0 1");
    assert_eq!(positional(&p), positional(&mirror(&p)));
}
