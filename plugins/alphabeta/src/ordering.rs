//! Move ordering: which moves the search tries first.
//!
//! Alpha-beta prunes most when the best move comes first, so moves are scored
//! (hash move, then captures by MVV-LVA, then killers, then history) and picked
//! best-first lazily, since a cutoff often comes before the list is sorted.

use cozy_chess::{Board, Color, Move, Piece, Rank, Square};

use crate::search::MAX_PLY;

const HASH_MOVE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 24;
const KILLER: [i32; 2] = [(1 << 23) + 1, 1 << 23];
/// History scores stay below the killers.
const HISTORY_MAX: i32 = 1 << 20;
const UNDERPROMOTION: i32 = -HISTORY_MAX - 1;

/// Ordering value of a victim or a promotion piece.
const VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    pub mv: Move,
    pub score: i32,
}

/// Killer moves per ply and the history table; both live for one search.
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    /// Indexed `[color][from][to]`.
    history: Vec<[[i32; 64]; 64]>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics { killers: vec![[None; 2]; MAX_PLY + 1], history: vec![[[0; 64]; 64]; 2] }
    }
}

impl Heuristics {
    /// Records a quiet move that caused a beta cutoff, and penalises the quiet
    /// moves tried before it, so the next sibling node tries the good one sooner.
    pub fn cutoff(&mut self, color: Color, ply: usize, mv: Move, depth: i32, tried_quiets: &[Move]) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let table = &mut self.history[color as usize];
        update(&mut table[mv.from as usize][mv.to as usize], bonus);
        for quiet in tried_quiets.iter().filter(|&&quiet| quiet != mv) {
            update(&mut table[quiet.from as usize][quiet.to as usize], -bonus);
        }
    }

    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }
}

/// Gravity update: moves towards the bound without ever reaching it.
fn update(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// Whether a move captures (en passant included) or promotes.
#[inline]
pub fn is_tactical(board: &Board, mv: Move) -> bool {
    mv.promotion.is_some() || board.colors(!board.side_to_move()).has(mv.to) || is_en_passant(board, mv)
}

#[inline]
fn is_en_passant(board: &Board, mv: Move) -> bool {
    board.en_passant().is_some_and(|file| {
        mv.to == Square::new(file, Rank::Sixth.relative_to(board.side_to_move()))
            && board.piece_on(mv.from) == Some(Piece::Pawn)
    })
}

/// Fills `out` with every legal move, or with captures and queen promotions
/// only when `tactical_only` (quiescence search), each with its ordering score.
pub fn generate(
    board: &Board,
    tactical_only: bool,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
    heuristics: &Heuristics,
    out: &mut Vec<ScoredMove>,
) {
    out.clear();
    let us = board.side_to_move();
    let theirs = board.colors(!us);
    let promotion_rank = Rank::Eighth.relative_to(us).bitboard();
    let ep = board
        .en_passant()
        .map_or(cozy_chess::BitBoard::EMPTY, |file| Square::new(file, Rank::Sixth.relative_to(us)).bitboard());
    let history = &heuristics.history[us as usize];
    board.generate_moves(|mut piece_moves| {
        if tactical_only {
            let mut targets = theirs;
            if piece_moves.piece == Piece::Pawn {
                targets |= ep | promotion_rank;
            }
            piece_moves.to &= targets;
        }
        for mv in piece_moves {
            let victim = board.piece_on(mv.to).filter(|_| theirs.has(mv.to));
            let score = if Some(mv) == hash_move {
                HASH_MOVE
            } else if let Some(promotion) = mv.promotion {
                if promotion != Piece::Queen {
                    if tactical_only {
                        continue;
                    }
                    UNDERPROMOTION
                } else {
                    GOOD_TACTICAL + 64 * (VALUE[Piece::Queen as usize] + victim.map_or(0, |v| VALUE[v as usize]))
                }
            } else if let Some(victim) = victim {
                // Most valuable victim first, then least valuable attacker.
                GOOD_TACTICAL + 64 * VALUE[victim as usize] - piece_moves.piece as i32
            } else if piece_moves.piece == Piece::Pawn && ep.has(mv.to) {
                GOOD_TACTICAL + 64 * VALUE[Piece::Pawn as usize]
            } else if Some(mv) == killers[0] {
                KILLER[0]
            } else if Some(mv) == killers[1] {
                KILLER[1]
            } else {
                history[mv.from as usize][mv.to as usize]
            };
            out.push(ScoredMove { mv, score });
        }
        false
    });
}

/// Swaps the best-scoring move from `index` onwards into `index` and returns it.
#[inline]
pub fn pick(moves: &mut [ScoredMove], index: usize) -> Move {
    let mut best = index;
    for i in index + 1..moves.len() {
        if moves[i].score > moves[best].score {
            best = i;
        }
    }
    moves.swap(index, best);
    moves[index].mv
}
