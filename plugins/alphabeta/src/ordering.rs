//! Move ordering: which moves the search tries first.
//!
//! Alpha-beta prunes most when the best move comes first, so moves are scored
//! (hash move, then captures that do not lose material by MVV-LVA, then killers
//! and the counter-move, then history, then captures that lose material) and
//! picked best-first lazily, since a cutoff often comes before the list is sorted.
//! Static exchange evaluation ([`see_ge`]) tells the winning captures from the
//! losing ones, here and in the search's pruning.

use cozy_chess::{
    BitBoard, Board, Color, Move, Piece, Rank, Square, get_bishop_moves, get_king_moves, get_knight_moves,
    get_pawn_attacks, get_rook_moves,
};

use crate::score::MAX_PLY;

const HASH_MOVE: i32 = 1 << 30;
/// Captures and queen promotions that do not lose material.
pub const GOOD_TACTICAL: i32 = 1 << 24;
const KILLER: [i32; 2] = [(1 << 23) + 2, (1 << 23) + 1];
const COUNTER_MOVE: i32 = 1 << 23;
/// Each history table stays in `-HISTORY_MAX..=HISTORY_MAX`; a quiet move's
/// score sums three of them, which stays below the killers.
pub const HISTORY_MAX: i32 = 16_384;
/// Captures that lose material come after every quiet move.
const BAD_TACTICAL: i32 = -3 * HISTORY_MAX - 1024;
const UNDERPROMOTION: i32 = BAD_TACTICAL - 1024;
/// Piece values for exchanges, pawn to king.
const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// Ordering value of a victim or a promotion piece.
const VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

#[derive(Clone, Copy, Debug)]
pub struct ScoredMove {
    pub mv: Move,
    pub score: i32,
}

/// Killer moves per ply, counter-moves and the history tables; all live for one search.
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    /// Indexed `[color][from][to]`.
    history: Vec<[[i32; 64]; 64]>,
    /// The quiet reply that last refuted a move, indexed `[color][from][to]` of
    /// that move (the colour of the side that played it).
    counters: Vec<[[Option<Move>; 64]; 64]>,
    /// How well a quiet move has done after a given move one or two plies
    /// earlier (continuation history): indexed `[earlier][mover][to]`, each by
    /// [`PieceTo`]. A move's worth depends on what the opponent just did, which
    /// the plain history, blind to it, averages away. Kept in 16 bits (the
    /// scores stay within `HISTORY_MAX`): 1.2 MiB a thread, which the host's
    /// memory budget counts.
    continuation: Vec<[[i16; 64]; 12]>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![[[0; 64]; 64]; 2],
            counters: vec![[[None; 64]; 64]; 2],
            continuation: vec![[[0; 64]; 12]; 12 * 64],
        }
    }
}

/// A move as continuation history knows it: which piece of which side went to
/// which square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo {
    piece: u8,
    to: u8,
}

impl PieceTo {
    /// `mv` as played on `board`, before it is played.
    #[inline]
    pub fn of(board: &Board, mv: Move) -> PieceTo {
        let piece = board.piece_on(mv.from).map_or(0, |piece| piece as u8);
        PieceTo { piece: board.side_to_move() as u8 * 6 + piece, to: mv.to as u8 }
    }

    fn index(self) -> usize {
        usize::from(self.piece) * 64 + usize::from(self.to)
    }
}

/// The moves a node's ordering takes from earlier cutoffs.
#[derive(Clone, Copy, Default)]
pub struct Refutations {
    pub killers: [Option<Move>; 2],
    pub counter: Option<Move>,
    /// The move that led to this node, which `counter` answers.
    pub previous: Option<Move>,
    /// The moves one and two plies before this node, for continuation history.
    pub earlier: [Option<PieceTo>; 2],
}

impl Refutations {
    pub fn contains(&self, mv: Move) -> bool {
        self.killers.contains(&Some(mv)) || self.counter == Some(mv)
    }
}

impl Heuristics {
    /// Records a quiet move that caused a beta cutoff, in reply to the moves
    /// before it (`refutations.previous` and `earlier`),
    /// and penalises the quiet moves tried before it, so the next sibling node
    /// tries the good one sooner.
    pub fn cutoff(
        &mut self,
        board: &Board,
        refutations: &Refutations,
        ply: usize,
        mv: Move,
        depth: i32,
        tried_quiets: &[Move],
    ) {
        let color = board.side_to_move();
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if let Some(previous) = refutations.previous {
            self.counters[!color as usize][previous.from as usize][previous.to as usize] = Some(mv);
        }
        let bonus = (16 * depth * depth + 32 * depth).min(1600);
        let table = &mut self.history[color as usize];
        update(&mut table[mv.from as usize][mv.to as usize], bonus);
        for quiet in tried_quiets.iter().filter(|&&quiet| quiet != mv) {
            update(&mut table[quiet.from as usize][quiet.to as usize], -bonus);
        }
        for earlier in refutations.earlier.into_iter().flatten() {
            let table = &mut self.continuation[earlier.index()];
            let PieceTo { piece, to } = PieceTo::of(board, mv);
            update_narrow(&mut table[usize::from(piece)][usize::from(to)], bonus);
            for &quiet in tried_quiets.iter().filter(|&&quiet| quiet != mv) {
                let PieceTo { piece, to } = PieceTo::of(board, quiet);
                update_narrow(&mut table[usize::from(piece)][usize::from(to)], -bonus);
            }
        }
    }

    /// The killers of `ply` and the counter-move to `previous`, played by the
    /// side not to move at `color`'s turn.
    pub fn refutations(
        &self,
        color: Color,
        ply: usize,
        previous: Option<Move>,
        earlier: [Option<PieceTo>; 2],
    ) -> Refutations {
        Refutations {
            killers: self.killers[ply],
            counter: previous.and_then(|mv| self.counters[!color as usize][mv.from as usize][mv.to as usize]),
            previous,
            earlier,
        }
    }

    /// How often the quiet move `mv` has refuted a position lately, by itself
    /// and after the moves that led here.
    pub fn history(&self, board: &Board, mv: Move, refutations: &Refutations) -> i32 {
        let plain = self.history[board.side_to_move() as usize][mv.from as usize][mv.to as usize];
        plain + self.continuation_score(PieceTo::of(board, mv), refutations)
    }

    fn continuation_score(&self, mover: PieceTo, refutations: &Refutations) -> i32 {
        refutations
            .earlier
            .into_iter()
            .flatten()
            .map(|earlier| {
                i32::from(self.continuation[earlier.index()][usize::from(mover.piece)][usize::from(mover.to)])
            })
            .sum()
    }
}

/// Gravity update: moves towards the bound without ever reaching it.
fn update(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// [`update`] for a 16-bit entry: the same value, since gravity keeps it within `HISTORY_MAX`.
fn update_narrow(entry: &mut i16, bonus: i32) {
    let mut wide = i32::from(*entry);
    update(&mut wide, bonus);
    *entry = wide as i16;
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
    refutations: Refutations,
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
            // Winning or even exchanges first; losing ones after every quiet move.
            let tactical = |mvv_lva: i32| {
                if see_ge(board, mv, 0) { GOOD_TACTICAL + mvv_lva } else { BAD_TACTICAL + mvv_lva }
            };
            let score = if Some(mv) == hash_move {
                HASH_MOVE
            } else if let Some(promotion) = mv.promotion {
                if promotion != Piece::Queen {
                    if tactical_only {
                        continue;
                    }
                    UNDERPROMOTION
                } else {
                    tactical(64 * (VALUE[Piece::Queen as usize] + victim.map_or(0, |v| VALUE[v as usize])))
                }
            } else if let Some(victim) = victim {
                // Most valuable victim first, then least valuable attacker.
                tactical(64 * VALUE[victim as usize] - piece_moves.piece as i32)
            } else if piece_moves.piece == Piece::Pawn && ep.has(mv.to) {
                tactical(64 * VALUE[Piece::Pawn as usize])
            } else if Some(mv) == refutations.killers[0] {
                KILLER[0]
            } else if Some(mv) == refutations.killers[1] {
                KILLER[1]
            } else if Some(mv) == refutations.counter {
                COUNTER_MOVE
            } else {
                let mover = PieceTo { piece: us as u8 * 6 + piece_moves.piece as u8, to: mv.to as u8 };
                history[mv.from as usize][mv.to as usize] + heuristics.continuation_score(mover, &refutations)
            };
            out.push(ScoredMove { mv, score });
        }
        false
    });
}

/// Whether `mv` wins at least `threshold` centipawns of material once every
/// capture on its target square that pays has been made, each side taking with
/// its least valuable piece first (pins are not seen). Castling and quiet moves
/// to a safe square win 0.
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    let us = board.side_to_move();
    // cozy-chess writes castling as the king taking its own rook.
    if board.colors(us).has(mv.to) {
        return threshold <= 0;
    }
    let Some(moving) = board.piece_on(mv.from) else { return threshold <= 0 };
    let en_passant = moving == Piece::Pawn && mv.from.file() != mv.to.file() && board.piece_on(mv.to).is_none();
    let mut gain = match board.piece_on(mv.to) {
        Some(victim) => SEE_VALUE[victim as usize],
        None if en_passant => SEE_VALUE[Piece::Pawn as usize],
        None => 0,
    };
    let mut on_square = moving;
    if let Some(promotion) = mv.promotion {
        gain += SEE_VALUE[promotion as usize] - SEE_VALUE[Piece::Pawn as usize];
        on_square = promotion;
    }
    // `balance` is what the side that moved last has won if the exchange stops here.
    let mut balance = gain - threshold;
    if balance < 0 {
        return false;
    }
    balance -= SEE_VALUE[on_square as usize];
    if balance >= 0 {
        return true;
    }
    let mut occupied = (board.occupied() ^ mv.from.bitboard()) | mv.to.bitboard();
    if en_passant {
        occupied ^= Square::new(mv.to.file(), mv.from.rank()).bitboard();
    }
    let diagonal = board.pieces(Piece::Bishop) | board.pieces(Piece::Queen);
    let straight = board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    let mut attackers = attackers_to(board, mv.to, occupied) & occupied;
    let mut side = !us;
    loop {
        let ours = attackers & board.colors(side);
        if ours.is_empty() {
            break;
        }
        let Some(piece) = Piece::ALL.into_iter().find(|&piece| !(ours & board.pieces(piece)).is_empty()) else {
            break;
        };
        side = !side;
        balance = -balance - 1 - SEE_VALUE[piece as usize];
        if balance >= 0 {
            // A king cannot take into a defended square.
            if piece == Piece::King && !(attackers & board.colors(side)).is_empty() {
                side = !side;
            }
            break;
        }
        if let Some(square) = (ours & board.pieces(piece)).next_square() {
            occupied ^= square.bitboard();
        }
        // Whatever stood behind the piece that took now sees the square.
        if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
            attackers |= get_bishop_moves(mv.to, occupied) & diagonal;
        }
        if matches!(piece, Piece::Rook | Piece::Queen) {
            attackers |= get_rook_moves(mv.to, occupied) & straight;
        }
        attackers &= occupied;
    }
    // The side to move at the end lost the exchange.
    side != us
}

/// Whether `mv` checks the opponent's king, found without playing it (which costs
/// more, and a move the search prunes is never played). Castling, promotions and
/// en passant, rare and intricate, are played to find out.
pub fn gives_check(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    let Some(piece) = board.piece_on(mv.from) else { return false };
    let special = board.colors(us).has(mv.to)
        || mv.promotion.is_some()
        || (piece == Piece::Pawn && mv.from.file() != mv.to.file() && board.piece_on(mv.to).is_none());
    if special {
        let mut child = board.clone();
        child.play_unchecked(mv);
        return !child.checkers().is_empty();
    }
    let king = board.king(!us);
    let occupied = (board.occupied() ^ mv.from.bitboard()) | mv.to.bitboard();
    let direct = match piece {
        Piece::Pawn => get_pawn_attacks(mv.to, us),
        Piece::Knight => get_knight_moves(mv.to),
        Piece::Bishop => get_bishop_moves(mv.to, occupied),
        Piece::Rook => get_rook_moves(mv.to, occupied),
        Piece::Queen => get_bishop_moves(mv.to, occupied) | get_rook_moves(mv.to, occupied),
        Piece::King => BitBoard::EMPTY,
    };
    if direct.has(king) {
        return true;
    }
    // A slider of ours behind the square the piece left.
    let ours = board.colors(us) & !mv.from.bitboard();
    let diagonal = (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)) & ours;
    let straight = (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & ours;
    !((get_bishop_moves(king, occupied) & diagonal) | (get_rook_moves(king, occupied) & straight)).is_empty()
}

/// Every piece of either colour that attacks `square` through `occupied`.
fn attackers_to(board: &Board, square: Square, occupied: BitBoard) -> BitBoard {
    let pawns = board.pieces(Piece::Pawn);
    (get_pawn_attacks(square, Color::White) & pawns & board.colors(Color::Black))
        | (get_pawn_attacks(square, Color::Black) & pawns & board.colors(Color::White))
        | (get_knight_moves(square) & board.pieces(Piece::Knight))
        | (get_king_moves(square) & board.pieces(Piece::King))
        | (get_bishop_moves(square, occupied) & (board.pieces(Piece::Bishop) | board.pieces(Piece::Queen)))
        | (get_rook_moves(square, occupied) & (board.pieces(Piece::Rook) | board.pieces(Piece::Queen)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let board: Board = fen.parse().unwrap();
        let mv = uci.parse().unwrap();
        see_ge(&board, mv, threshold)
    }

    fn score_of(board: &Board, heuristics: &Heuristics, refutations: Refutations, uci: &str) -> i32 {
        let mut scored = Vec::new();
        generate(board, false, None, refutations, heuristics, &mut scored);
        let mv: Move = uci.parse().unwrap();
        scored.iter().find(|s| s.mv == mv).expect("a legal move").score
    }

    #[test]
    fn a_quiet_move_that_refuted_a_reply_is_tried_sooner_after_that_reply_only() {
        // After 1. e4 e5 2. Nf3, Black's Nc6 refuted it where a6 and h6 were tried first.
        let board: Board = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2".parse().unwrap();
        let before: Board = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".parse().unwrap();
        let knight_out = PieceTo::of(&before, "g1f3".parse().unwrap());
        let bishop_out = PieceTo::of(&before, "f1c4".parse().unwrap());
        let mut heuristics = Heuristics::default();
        let after_knight = heuristics.refutations(Color::Black, 3, None, [Some(knight_out), None]);
        let tried: Vec<Move> = ["a7a6", "h7h6", "b8c6"].map(|m| m.parse().unwrap()).to_vec();
        heuristics.cutoff(&board, &after_knight, 3, tried[2], 6, &tried);

        // At another ply (no killer there), after the same Nf3: Nc6 first, the failed moves last.
        let after_knight = heuristics.refutations(Color::Black, 5, None, [Some(knight_out), None]);
        let nc6 = score_of(&board, &heuristics, after_knight, "b8c6");
        let a6 = score_of(&board, &heuristics, after_knight, "a7a6");
        let d6 = score_of(&board, &heuristics, after_knight, "d7d6");
        assert!(nc6 > d6 && d6 > a6, "Nc6 {nc6}, d6 (untried) {d6}, a6 {a6}");
        // After another move, only the plain history speaks: it counts less.
        let after_bishop = heuristics.refutations(Color::Black, 5, None, [Some(bishop_out), None]);
        let nc6_elsewhere = score_of(&board, &heuristics, after_bishop, "b8c6");
        assert!(nc6_elsewhere > d6 && nc6_elsewhere < nc6, "Nc6 after Bc4 {nc6_elsewhere}, after Nf3 {nc6}");
    }

    #[test]
    fn exchanges_count_what_each_side_can_take_back() {
        // A defended pawn taken by a rook loses the rook for a pawn.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        let defended = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(defended, "d3e5", 0), "knight takes a pawn guarded by knight and bishop");
        assert!(see(defended, "d3e5", -220));
        assert!(!see(defended, "d3e5", -219));
    }

    #[test]
    fn x_rays_and_promotions_are_counted() {
        // Rooks doubled on the file: the second one backs up the first.
        let doubled = "3r3k/3r4/8/3p4/8/8/3R4/3R3K w - - 0 1";
        // Rxd5 Rxd5 Rxd5 Rxd5: white stops after the first recapture at -400.
        assert!(see(doubled, "d2d5", -400));
        assert!(!see(doubled, "d2d5", -399));
        assert!(see("7k/P7/8/8/8/8/8/K7 w - - 0 1", "a7a8q", 800));
        let guarded = "1r5k/P7/8/8/8/8/8/K7 w - - 0 1";
        assert!(see(guarded, "a7a8q", -100), "the queen is lost, the pawn too");
        assert!(!see(guarded, "a7a8q", -99));
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        // Every move two plies deep from positions rich in discovered checks,
        // castling into check, promotions and en passant.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "3k4/8/8/2KPp2r/8/8/8/8 w - e6 0 1",
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "1k6/3P4/8/8/8/8/8/4K3 w - - 0 1",
        ];
        let mut checks = 0;
        for fen in fens {
            let board: Board = fen.parse().unwrap();
            let mut replies = Vec::new();
            board.generate_moves(|moves| {
                replies.extend(moves);
                false
            });
            for mv in replies {
                let mut child = board.clone();
                child.play_unchecked(mv);
                for position in [&board, &child] {
                    position.generate_moves(|moves| {
                        for reply in moves {
                            let mut after = position.clone();
                            after.play_unchecked(reply);
                            let expected = !after.checkers().is_empty();
                            checks += usize::from(expected);
                            assert_eq!(gives_check(position, reply), expected, "{reply} in {position}");
                        }
                        false
                    });
                }
            }
        }
        assert!(checks > 100, "the positions give {checks} checks");
    }

    #[test]
    fn quiet_moves_to_attacked_squares_lose_the_piece() {
        let board = "4k3/8/8/3p4/8/8/8/4KQ2 w - - 0 1";
        assert!(!see(board, "f1e2", 1));
        assert!(see(board, "f1e2", 0));
        assert!(!see(board, "f1c4", -800), "the pawn takes the queen");
        assert!(see("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1h1", 0), "castling");
    }
}
