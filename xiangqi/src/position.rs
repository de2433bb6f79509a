//! A position: the board, whose turn it is, the counters and the hash, and
//! the moves and results that follow from them.

use crate::attacks::{After, attacks_general};
use crate::board::{Board, EMPTY};
use crate::zobrist::{BLACK_TO_MOVE, piece_key, turn_key};
use crate::{Color, Move, MoveList, Piece, Role, Square};

/// A legal xiangqi position: each side has its general, every piece stands
/// where its kind may stand, and the side not to move is not in check.
#[derive(Clone)]
pub struct Position {
    board: Board,
    turn: Color,
    /// Whether `turn`'s general is attacked, kept up to date by `play` since
    /// both legality and every search node ask it.
    checked: bool,
    halfmoves: u32,
    fullmoves: u32,
    hash: u64,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Position").field(&self.fen(crate::Lettering::Standard)).finish()
    }
}

/// Positions are equal when the same pieces stand on the same points, the
/// same side is to move and the counters agree.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.same_placement(other) && self.halfmoves == other.halfmoves && self.fullmoves == other.fullmoves
    }
}

impl Eq for Position {}

/// What `play` must hand back to `undo` to restore the position.
#[derive(Clone, Copy, Debug)]
#[must_use = "undo needs it"]
pub struct Undo {
    captured: u8,
    checked: bool,
    halfmoves: u32,
    hash: u64,
}

impl Undo {
    /// The piece the move took, if any.
    #[must_use]
    pub fn captured(self) -> Option<Piece> {
        Piece::from_code(self.captured)
    }
}

/// How a game ends on the board. A side with no legal move loses, whether its
/// general is attacked or not.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The side to move is in check and cannot escape.
    Checkmate { winner: Color },
    /// The side to move is not in check but has no legal move (a loss in xiangqi).
    Stalemate { winner: Color },
}

impl Outcome {
    /// The side that won.
    #[must_use]
    pub const fn winner(self) -> Color {
        match self {
            Outcome::Checkmate { winner } | Outcome::Stalemate { winner } => winner,
        }
    }
}

impl Position {
    /// The opening position, Red to move.
    #[must_use]
    pub fn start() -> Position {
        Position::from_fen(crate::fen::START).expect("the start position is legal")
    }

    /// A position from a board the caller has checked (see `validate.rs`).
    pub(crate) fn from_checked_board(board: Board, turn: Color, halfmoves: u32, fullmoves: u32) -> Position {
        let mut hash = turn_key(turn);
        for color in Color::ALL {
            for sq in board.points(color) {
                hash ^= piece_key(board.at(sq), sq);
            }
        }
        let checked = board.general_attacked(turn);
        Position { board, turn, checked, halfmoves, fullmoves, hash }
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    /// The piece on a point, if any.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the last capture or forward soldier move (see `play`).
    #[must_use]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number: 1 at the start, one more after each Black move.
    #[must_use]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist key of the pieces and the side to move (not the counters).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Where `color`'s general stands.
    #[must_use]
    pub fn general(&self, color: Color) -> Square {
        Square(self.board.general(color))
    }

    /// Whether the side to move is attacked, counting the other general on
    /// the same file with nothing between (the flying general) as an attack.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.checked
    }

    /// The points as the plugin ABI writes them: index = `Square`, value = the
    /// piece's byte (`Piece::code`), 0 for empty points and off the board.
    #[must_use]
    pub fn squares(&self) -> [u8; 256] {
        let mut squares = [EMPTY; 256];
        for color in Color::ALL {
            for sq in self.board.points(color) {
                squares[usize::from(sq)] = self.board.at(sq);
            }
        }
        squares
    }

    /// The points of `color`'s pieces as the ABI's bitset: bit `i` of the
    /// 256 (word `i / 64`) is `Square(i)`.
    #[must_use]
    pub fn occupied(&self, color: Color) -> [u64; 4] {
        self.board.occupied(color)
    }

    /// `color`'s pieces and their points, a0 first.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.board.points(color).filter_map(|sq| Some((Square(sq), self.board.piece_at(Square(sq))?)))
    }

    /// Whether two positions have the same pieces on the same points and the
    /// same side to move (what repeats in a repetition; counters aside).
    #[must_use]
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash && self.turn == other.turn && self.board.squares() == other.board.squares()
    }

    /// Replaces `list` with the side to move's pseudo-legal moves: what the
    /// pieces may do by their own rules, some of which may leave the general
    /// attacked (see `keeps_general_safe`).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.board.generate::<false>(self.turn, list);
    }

    /// Replaces `list` with the side to move's pseudo-legal captures.
    pub fn captures(&self, list: &mut MoveList) {
        list.clear();
        self.board.generate::<true>(self.turn, list);
    }

    /// Replaces `list` with the side to move's legal moves.
    pub fn legal_moves(&self, list: &mut MoveList) {
        self.pseudo_legal_moves(list);
        list.retain(|m| self.keeps_general_safe(m));
    }

    /// Whether `m` is one of the side to move's pseudo-legal moves: for moves
    /// that come from elsewhere (a hash table, a killer slot).
    #[must_use]
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        self.board.is_pseudo_legal(self.turn, m)
    }

    /// Whether `m`, a pseudo-legal move, leaves the mover's general safe:
    /// not attacked and not facing the other general on an open file.
    ///
    /// Out of check, a move can only expose the general along its rank or
    /// file (a chariot or general uncovered, a cannon's screen added or taken
    /// away) or by unblocking a horse's leg next to it diagonally; any other
    /// move is safe without looking further.
    #[inline]
    #[must_use]
    pub fn keeps_general_safe(&self, m: Move) -> bool {
        let (from, to) = (m.from.0, m.to.0);
        let general = self.board.general(self.turn);
        let them = !self.turn;
        let after = After { board: &self.board, from, to, moving: self.board.at(from) };
        if from == general {
            return !attacks_general(&after, to, them);
        }
        if !self.checked && !on_line(from, general) && !on_line(to, general) && !is_diagonal_neighbour(from, general) {
            return true;
        }
        !attacks_general(&after, general, them)
    }

    /// Whether `m` is legal here, whatever its origin.
    #[must_use]
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.keeps_general_safe(m)
    }

    /// Whether the side to move has any legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        list.iter().any(|&m| self.keeps_general_safe(m))
    }

    /// The result if the game is over on the board: the side to move has no
    /// legal move and loses. Repetitions are `repetition`'s to judge.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            None
        } else if self.checked {
            Some(Outcome::Checkmate { winner: !self.turn })
        } else {
            Some(Outcome::Stalemate { winner: !self.turn })
        }
    }

    /// Whether `m` (legal) takes a piece.
    #[must_use]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board.at(m.to.0) != EMPTY
    }

    /// Whether `m` (legal) attacks the other general, counting the flying
    /// general it may uncover.
    #[must_use]
    pub fn gives_check(&self, m: Move) -> bool {
        let (from, to) = (m.from.0, m.to.0);
        let after = After { board: &self.board, from, to, moving: self.board.at(from) };
        attacks_general(&after, self.board.general(!self.turn), self.turn)
    }

    /// Whether `m` (legal) can never be taken back: a capture or a forward
    /// soldier move. Positions before it can never occur again.
    #[must_use]
    pub fn is_irreversible(&self, m: Move) -> bool {
        self.is_capture(m) || (self.board.at(m.from.0) & 0x7f == Role::Soldier as u8 && m.from.rank() != m.to.rank())
    }

    /// Plays `m`, which must be legal (`is_legal`), and returns what `undo` needs.
    ///
    /// The halfmove clock restarts on a capture and on a soldier's forward
    /// step, not on its sideways one: xboard 4.9 counts so (`ApplyMove` marks
    /// only `fromY != toY` soldier moves irreversible, and `PositionToFEN`
    /// counts plies back to the last irreversible one).
    pub fn play(&mut self, m: Move) -> Undo {
        debug_assert!(self.is_pseudo_legal(m), "{m} is not a move in {self:?}");
        let (from, to) = (m.from.0, m.to.0);
        let moving = self.board.at(from);
        let undo = Undo { captured: EMPTY, checked: self.checked, halfmoves: self.halfmoves, hash: self.hash };
        let captured = self.board.shift(from, to);
        let mut hash = self.hash ^ piece_key(moving, from) ^ piece_key(moving, to) ^ BLACK_TO_MOVE;
        if captured != EMPTY {
            hash ^= piece_key(captured, to);
            self.halfmoves = 0;
        } else if moving & 0x7f == Role::Soldier as u8 && (from ^ to) & 0xf0 != 0 {
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash = hash;
        self.checked = self.board.general_attacked(self.turn);
        Undo { captured, ..undo }
    }

    /// Takes back `m`, played with `play` which returned `undo`.
    pub fn undo(&mut self, m: Move, undo: Undo) {
        self.turn = !self.turn;
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        self.board.unshift(m.from.0, m.to.0, undo.captured);
        self.checked = undo.checked;
        self.halfmoves = undo.halfmoves;
        self.hash = undo.hash;
    }

    /// Passes the turn, for a search's null-move pruning. Not while in check:
    /// the other side could then take the general.
    pub fn play_null(&mut self) -> Undo {
        debug_assert!(!self.checked, "a null move in check");
        let undo = Undo { captured: EMPTY, checked: self.checked, halfmoves: self.halfmoves, hash: self.hash };
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= BLACK_TO_MOVE;
        self.halfmoves = self.halfmoves.saturating_add(1);
        self.checked = self.board.general_attacked(self.turn);
        undo
    }

    /// Takes back `play_null`.
    pub fn undo_null(&mut self, undo: Undo) {
        self.turn = !self.turn;
        if self.turn == Color::Black {
            self.fullmoves -= 1;
        }
        self.checked = undo.checked;
        self.halfmoves = undo.halfmoves;
        self.hash = undo.hash;
    }

    /// The position after `m` (legal), leaving this one as it is.
    #[must_use]
    pub fn after(&self, m: Move) -> Position {
        let mut next = self.clone();
        let _ = next.play(m);
        next
    }
}

/// Whether two points share a rank or a file.
#[inline]
fn on_line(a: u8, b: u8) -> bool {
    let x = a ^ b;
    x & 0xf0 == 0 || x & 0x0f == 0
}

/// Whether `a` is one diagonal step from `b` (a horse's leg towards `b`).
#[inline]
fn is_diagonal_neighbour(a: u8, b: u8) -> bool {
    matches!(a.wrapping_sub(b), 15 | 17 | 0xef | 0xf1)
}
