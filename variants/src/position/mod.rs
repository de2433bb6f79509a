//! A position of a variant: the board, the hands, whose turn, castling and
//! en-passant rights, the clocks; playing and taking back moves in place.

mod attacks;
mod counting;
mod exchange;
mod fen;
mod legs;
mod movegen;
mod notation;
mod outcome;
mod zobrist;

pub use fen::{FenError, placement};
pub use outcome::{Outcome, Reason};

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::definition::rules::Counting;
use crate::definition::walks::step;
use crate::definition::{KindSet, MAX_KINDS, Variant};
use crate::moves::{Move, Special};
use crate::square::{Square, SquareSet, file_of, rank_of};
pub use counting::Count;

/// A piece code: kind + 1 in the low seven bits, colour in the high one, as
/// the plugin API's `BoardPiece`; 0 is an empty square.
#[inline]
#[must_use]
pub const fn piece_code(kind: usize, color: u8) -> u8 {
    (kind as u8 + 1) | (color << 7)
}

/// The kind of a non-empty piece code.
#[inline]
#[must_use]
pub const fn kind_of(code: u8) -> usize {
    (code & 0x7F) as usize - 1
}

/// The colour of a non-empty piece code: 0 for the first player.
#[inline]
#[must_use]
pub const fn color_of(code: u8) -> u8 {
    code >> 7
}

/// What [`Position::undo`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    moved: u8,
    captured: u8,
    castling: [[Option<Square>; 2]; 2],
    en_passant: Option<(Square, Square)>,
    halfmoves: u32,
    count: Count,
    hand_taken: Option<usize>,
    /// The hand (colour, kind) the captured piece went to.
    held: Option<(u8, usize)>,
    /// What the first leg of a move of legs took, and the hand it went to.
    killed: u8,
    killed_held: Option<(u8, usize)>,
    lion_shield: bool,
}

/// Whether the side to move is in check, once asked: the search asks of one
/// position several times. Atomic so that a position may be shared between
/// threads; each owns its own copy when it plays.
#[derive(Debug, Default)]
struct CheckMemo(AtomicU8);

const UNKNOWN: u8 = 0;
const NOT_IN_CHECK: u8 = 1;
const IN_CHECK: u8 = 2;

impl Clone for CheckMemo {
    fn clone(&self) -> CheckMemo {
        CheckMemo(AtomicU8::new(self.0.load(Ordering::Relaxed)))
    }
}

impl CheckMemo {
    #[inline]
    fn forget(&mut self) {
        *self.0.get_mut() = UNKNOWN;
    }
}

/// A position of a variant.
#[derive(Clone, Debug)]
pub struct Position {
    variant: Arc<Variant>,
    board: [u8; 256],
    by_color: [SquareSet; 2],
    /// Where each side's royal pieces stand.
    royals: [SquareSet; 2],
    counts: [[u8; MAX_KINDS]; 2],
    /// The kinds each side has on the board (those with a count), kept as
    /// pieces come and go so that each attack test need not scan the counts.
    present: [KindSet; 2],
    hands: [[u8; MAX_KINDS]; 2],
    turn: u8,
    /// The rook squares each side may castle with: [colour][king side, queen side].
    castling: [[Option<Square>; 2]; 2],
    /// The square passed by a double step, and the piece that passed it.
    en_passant: Option<(Square, Square)>,
    halfmoves: u32,
    fullmoves: u32,
    /// Makruk's count: its limit in plies (0: none running) and the plies counted.
    count: Count,
    /// The Zobrist key of the pieces alone; [`Position::hash`] adds the rest.
    piece_key: u64,
    check: CheckMemo,
    /// A lion has just been taken by another piece: none may be taken now.
    lion_shield: bool,
}

/// Positions are equal when they are of the same variant and everything a
/// move depends on is the same: pieces, hands, turn, rights and counters.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.variant.name == other.variant.name
            && self.board == other.board
            && self.hands == other.hands
            && self.turn == other.turn
            && self.castling == other.castling
            && self.en_passant == other.en_passant
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
            && self.count == other.count
            && self.lion_shield == other.lion_shield
    }
}

impl Eq for Position {}

/// What [`Position::undo_null`] needs.
#[derive(Clone, Copy, Debug)]
pub struct NullUndo {
    en_passant: Option<(Square, Square)>,
    halfmoves: u32,
    count: Count,
    lion_shield: bool,
}

impl Position {
    /// An empty board of `variant`, the first player to move.
    #[must_use]
    pub fn empty(variant: Arc<Variant>) -> Position {
        Position {
            variant,
            board: [0; 256],
            by_color: [SquareSet::EMPTY; 2],
            royals: [SquareSet::EMPTY; 2],
            counts: [[0; MAX_KINDS]; 2],
            present: [0; 2],
            hands: [[0; MAX_KINDS]; 2],
            turn: 0,
            castling: [[None; 2]; 2],
            en_passant: None,
            halfmoves: 0,
            fullmoves: 1,
            count: Count::default(),
            piece_key: 0,
            check: CheckMemo::default(),
            lion_shield: false,
        }
    }

    /// The Zobrist key of the position: pieces, hands, side to move, castling
    /// rooks and en-passant square.
    #[must_use]
    pub fn hash(&self) -> u64 {
        let mut key = self.piece_key;
        if self.turn == 1 {
            key ^= zobrist::TURN;
        }
        for rook in self.castling.iter().flatten().flatten() {
            key ^= zobrist::castling(*rook);
        }
        if let Some((passed, _)) = self.en_passant {
            key ^= zobrist::en_passant(passed);
        }
        if self.lion_shield {
            key ^= zobrist::LION_SHIELD;
        }
        if self.variant.has_hands() {
            for color in 0..2u8 {
                for (kind, &count) in self.hands[usize::from(color)].iter().enumerate() {
                    if count > 0 {
                        key ^= zobrist::hand(piece_code(kind, color), count);
                    }
                }
            }
        }
        key
    }

    /// Passes the move to the other side (a search's null move).
    pub fn play_null(&mut self) -> NullUndo {
        let undo = NullUndo {
            en_passant: self.en_passant.take(),
            halfmoves: self.halfmoves,
            count: self.count,
            lion_shield: std::mem::take(&mut self.lion_shield),
        };
        self.halfmoves += 1;
        self.count.tick();
        self.turn ^= 1;
        self.check.forget();
        undo
    }

    /// Takes back [`Position::play_null`].
    pub fn undo_null(&mut self, undo: NullUndo) {
        self.turn ^= 1;
        self.check.forget();
        self.en_passant = undo.en_passant;
        self.halfmoves = undo.halfmoves;
        self.count = undo.count;
        self.lion_shield = undo.lion_shield;
    }

    /// Whether the pieces (and hands) stand as in `other`, whoever is to move.
    #[must_use]
    pub fn same_placement(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands
    }

    /// The variant's start position.
    ///
    /// # Errors
    /// When the variant's start FEN does not fit it (a catalog checks this once).
    pub fn start(variant: Arc<Variant>) -> Result<Position, FenError> {
        let fen = variant.start_fen.clone();
        Position::from_fen(variant, &fen)
    }

    #[must_use]
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The piece code on `square` (0: empty).
    #[inline]
    #[must_use]
    pub fn piece_at(&self, square: Square) -> u8 {
        self.board[usize::from(square)]
    }

    /// Every square's piece code.
    #[must_use]
    pub fn squares(&self) -> &[u8; 256] {
        &self.board
    }

    #[must_use]
    pub fn occupied_by(&self, color: u8) -> SquareSet {
        self.by_color[usize::from(color)]
    }

    /// 0 when the first player (White) is to move.
    #[must_use]
    pub fn turn(&self) -> u8 {
        self.turn
    }

    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// How many pieces of `kind` `color` has on the board.
    #[must_use]
    pub fn count(&self, color: u8, kind: usize) -> u8 {
        self.counts[usize::from(color)][kind]
    }

    /// How many pieces of `kind` `color` holds in hand.
    #[must_use]
    pub fn in_hand(&self, color: u8, kind: usize) -> u8 {
        self.hands[usize::from(color)][kind]
    }

    /// The square passed by the last move's double step, if any.
    #[must_use]
    pub fn en_passant_square(&self) -> Option<Square> {
        self.en_passant.map(|(passed, _)| passed)
    }

    /// The rooks each side may still castle with.
    #[must_use]
    pub fn castling_rooks(&self, color: u8) -> [Option<Square>; 2] {
        self.castling[usize::from(color)]
    }

    /// Puts the piece `code` on the empty `square`, for a position built piece by piece.
    pub(crate) fn place(&mut self, square: Square, code: u8) {
        self.put(square, code);
    }

    /// The rest of a position built piece by piece: hands, side to move,
    /// castling rooks (each must be a castling piece of its side on its castling
    /// rank), en-passant square and counters.
    pub(crate) fn set_state(
        &mut self,
        hands: [[u8; MAX_KINDS]; 2],
        turn: u8,
        castling: [[Option<Square>; 2]; 2],
        en_passant: Option<Square>,
        halfmoves: u16,
        fullmoves: u32,
    ) -> Result<(), FenError> {
        self.hands = hands;
        self.turn = turn & 1;
        self.check.forget();
        self.halfmoves = u32::from(halfmoves);
        self.fullmoves = fullmoves.max(1);
        let mut field = String::new();
        for (color, rooks) in castling.iter().enumerate() {
            for rook in rooks.iter().flatten() {
                if usize::from(*rook) >= 256 || file_of(*rook) >= self.variant.files {
                    continue;
                }
                let letter = char::from(b'A' + file_of(*rook));
                field.push(if color == 0 { letter } else { letter.to_ascii_lowercase() });
            }
        }
        self.castling = [[None; 2]; 2];
        if !field.is_empty() {
            self.read_castling_field(&field)?;
        }
        if let Some(passed) = en_passant {
            let mut text = String::new();
            crate::square::write_square(&mut text, passed, self.variant.ranks);
            self.read_en_passant_field(&text)?;
        }
        Ok(())
    }

    fn put(&mut self, square: Square, code: u8) {
        debug_assert_eq!(self.board[usize::from(square)], 0);
        self.check.forget();
        self.board[usize::from(square)] = code;
        self.piece_key ^= zobrist::piece(code, square);
        self.by_color[usize::from(color_of(code))].insert(square);
        if self.variant.royal_kinds >> kind_of(code) & 1 != 0 {
            self.royals[usize::from(color_of(code))].insert(square);
        }
        self.counts[usize::from(color_of(code))][kind_of(code)] += 1;
        self.present[usize::from(color_of(code))] |= 1 << kind_of(code);
    }

    fn take(&mut self, square: Square) -> u8 {
        self.check.forget();
        let code = self.board[usize::from(square)];
        if code != 0 {
            self.board[usize::from(square)] = 0;
            self.piece_key ^= zobrist::piece(code, square);
            self.by_color[usize::from(color_of(code))].remove(square);
            self.royals[usize::from(color_of(code))].remove(square);
            let count = &mut self.counts[usize::from(color_of(code))][kind_of(code)];
            *count -= 1;
            if *count == 0 {
                self.present[usize::from(color_of(code))] &= !(1 << kind_of(code));
            }
        }
        code
    }

    /// The square `steps` of (df, dr) from `from`, on the board; the file wraps
    /// round when `wraps`.
    #[inline]
    #[must_use]
    pub fn offset(&self, from: Square, df: i8, dr: i8, wraps: bool) -> Option<Square> {
        step(from, df, dr, wraps, self.variant.files, self.variant.ranks)
    }

    /// The rank of `square` counted from `color`'s side.
    #[must_use]
    pub fn relative_rank(&self, square: Square, color: u8) -> u8 {
        if color == 0 { rank_of(square) } else { self.variant.ranks - 1 - rank_of(square) }
    }

    /// Plays `m`, which must be one of this position's pseudo-legal moves.
    pub fn play(&mut self, m: Move) -> Undo {
        if let Some(kind) = m.dropped() {
            return self.play_drop(kind, m.to);
        }
        let us = self.turn;
        let king_moves = self.castling[usize::from(us)] != [None; 2]
            && self.variant.castling_king_kinds[usize::from(us)] >> kind_of(self.piece_at(m.from)) & 1 != 0
            && self.castling_king(us) == Some(m.from);
        let moving = self.take(m.from);
        let mut undo = Undo {
            moved: moving,
            captured: 0,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmoves: self.halfmoves,
            count: self.count,
            hand_taken: None,
            held: None,
            killed: 0,
            killed_held: None,
            lion_shield: self.lion_shield,
        };
        self.en_passant = None;
        let kind = kind_of(moving);
        let mut irreversible = self.variant.n_move_rule_kinds[usize::from(us)] >> kind & 1 != 0;
        match m.special {
            Special::Castle { rook } => {
                let rook_code = self.take(rook);
                let rook_to = if file_of(rook) > file_of(m.from) { m.to - 1 } else { m.to + 1 };
                self.put(m.to, moving);
                self.put(rook_to, rook_code);
                self.castling[usize::from(us)] = [None; 2];
            }
            Special::EnPassant { victim } => {
                undo.captured = self.take(victim);
                self.put(m.to, moving);
                irreversible = true;
            }
            Special::None | Special::DoubleStep { .. } | Special::Drop { .. } | Special::Leg { .. } => {
                if let Special::Leg { via } = m.special {
                    undo.killed = self.take(via);
                    undo.killed_held = self.hand_over(us, undo.killed);
                    // xboard counts every move of two legs as a capture (a
                    // lion's pass too) for its 50-move rule and repetitions.
                    irreversible = true;
                }
                undo.captured = self.take(m.to);
                let placed = match m.promotion_kind() {
                    Some(promoted) => {
                        if self.variant.holdings_pool && self.hands[usize::from(us)][promoted] > 0 {
                            self.hands[usize::from(us)][promoted] -= 1;
                            undo.hand_taken = Some(promoted);
                        }
                        piece_code(promoted, us)
                    }
                    None => moving,
                };
                self.put(m.to, placed);
                if let Special::DoubleStep { passed } = m.special {
                    self.en_passant = Some((passed, m.to));
                }
                irreversible |= undo.captured != 0;
            }
        }
        if king_moves {
            self.castling[usize::from(us)] = [None; 2];
        } else {
            self.drop_castling_rook(m.from);
        }
        self.drop_castling_rook(m.to);
        if let Some(via) = m.via() {
            self.drop_castling_rook(via);
        }
        undo.held = self.hand_over(us, undo.captured);
        self.lion_shield = self.variant.lion_kinds != 0
            && m.from != m.to
            && undo.captured != 0
            && self.variant.lion_kinds >> kind_of(undo.captured) & 1 != 0
            && self.variant.lion_kinds >> kind & 1 == 0;
        self.halfmoves = if irreversible { 0 } else { self.halfmoves + 1 };
        let taken = [undo.captured, undo.killed].into_iter().find(|&code| code != 0);
        self.end_turn(us, taken.map(kind_of), m.promotion_kind().is_some());
        undo
    }

    /// Puts the piece `captured` (0: none) by `us` into the hand it goes to,
    /// if the variant has one for it, and says which.
    fn hand_over(&mut self, us: u8, captured: u8) -> Option<(u8, usize)> {
        if captured == 0 || self.variant.kinds[kind_of(captured)].royal {
            return None;
        }
        let kind = kind_of(captured);
        let held = if self.variant.captures_to_hand {
            Some((us, self.variant.unpromoted(kind)))
        } else if self.variant.holdings_pool {
            Some((color_of(captured), kind))
        } else {
            None
        };
        if let Some((color, kind)) = held {
            self.hands[usize::from(color)][kind] += 1;
        }
        held
    }

    /// Plays the drop of a piece of `kind` from the hand of the side to move onto `to`.
    fn play_drop(&mut self, kind: usize, to: Square) -> Undo {
        let us = self.turn;
        let code = piece_code(kind, us);
        let undo = Undo {
            moved: code,
            captured: 0,
            castling: self.castling,
            en_passant: self.en_passant.take(),
            halfmoves: self.halfmoves,
            count: self.count,
            hand_taken: Some(kind),
            held: None,
            killed: 0,
            killed_held: None,
            lion_shield: std::mem::take(&mut self.lion_shield),
        };
        self.hands[usize::from(us)][kind] -= 1;
        self.put(to, code);
        let irreversible = self.variant.n_move_rule_kinds[usize::from(us)] >> kind & 1 != 0;
        self.halfmoves = if irreversible { 0 } else { self.halfmoves + 1 };
        self.end_turn(us, None, false);
        undo
    }

    /// Passes the turn after `us` has moved, taking a piece of `captured` or promoting.
    fn end_turn(&mut self, us: u8, captured: Option<usize>, promoted: bool) {
        if us == 1 {
            self.fullmoves += 1;
        }
        self.turn ^= 1;
        self.check.forget();
        if self.variant.counting != Counting::None {
            self.update_count(captured, promoted);
        }
    }

    fn drop_castling_rook(&mut self, square: Square) {
        for side in &mut self.castling {
            for rook in side.iter_mut() {
                if *rook == Some(square) {
                    *rook = None;
                }
            }
        }
    }

    /// Takes back `m`, played with [`Position::play`], which returned `undo`.
    pub fn undo(&mut self, m: Move, undo: Undo) {
        self.turn ^= 1;
        self.check.forget();
        let us = self.turn;
        if us == 1 {
            self.fullmoves -= 1;
        }
        self.take(m.to);
        if m.dropped().is_some() {
            if let Some(kind) = undo.hand_taken {
                self.hands[usize::from(us)][kind] += 1;
            }
            self.en_passant = undo.en_passant;
            self.halfmoves = undo.halfmoves;
            self.count = undo.count;
            self.lion_shield = undo.lion_shield;
            return;
        }
        match m.special {
            Special::Castle { rook } => {
                let rook_to = if file_of(rook) > file_of(m.from) { m.to - 1 } else { m.to + 1 };
                let rook_code = self.take(rook_to);
                self.put(rook, rook_code);
            }
            Special::EnPassant { victim } => self.put(victim, undo.captured),
            Special::None | Special::DoubleStep { .. } | Special::Drop { .. } | Special::Leg { .. } => {
                if undo.captured != 0 {
                    self.put(m.to, undo.captured);
                }
                if let Special::Leg { via } = m.special
                    && undo.killed != 0
                {
                    self.put(via, undo.killed);
                }
            }
        }
        if let Some(kind) = undo.hand_taken {
            self.hands[usize::from(us)][kind] += 1;
        }
        for (color, kind) in [undo.held, undo.killed_held].into_iter().flatten() {
            self.hands[usize::from(color)][kind] -= 1;
        }
        self.put(m.from, undo.moved);
        self.lion_shield = undo.lion_shield;
        self.castling = undo.castling;
        self.en_passant = undo.en_passant;
        self.halfmoves = undo.halfmoves;
        self.count = undo.count;
    }
}
