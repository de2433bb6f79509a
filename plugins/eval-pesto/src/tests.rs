use plugboard_plugin_api::{EvalPlugin, Evaluate, PieceKind, Position};

use crate::{DEFAULT_TEMPO, Pesto, PestoEvaluator, pesto};

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
