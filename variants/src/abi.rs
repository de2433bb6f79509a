//! Positions and moves as they cross the plugin boundary: a
//! [`BoardPosition`] of [`Variant::DEFINED`](plugboard_plugin_api::Variant::DEFINED)
//! whose piece codes are the definition's kinds (kind + 1, the colour in the top
//! bit), castling rooks and the en-passant square in its reserved word, and the
//! API's [`api::Move`] with the promotion's piece code. The host hands searches
//! these and the bundled search reads them back, so the conversion is written
//! here once.

use std::sync::Arc;

use plugboard_plugin_api::{self as api, BoardPiece, BoardPosition};

use crate::definition::{MAX_KINDS, Variant};
use crate::moves::{Move, MoveList};
use crate::position::{Count, FenError, Position, color_of, kind_of};

impl Position {
    /// The board position a search or an evaluation plugin is handed.
    #[must_use]
    pub fn to_board_position(&self) -> BoardPosition {
        let variant = self.variant();
        let mut board = BoardPosition::empty(api::Variant::DEFINED, variant.files, variant.ranks);
        for color in 0..2 {
            for square in self.occupied_by(color).iter() {
                board.put(square, Some(BoardPiece(self.piece_at(square))));
            }
            for kind in 0..variant.kinds.len().min(board.hands[0].len()) {
                board.hands[usize::from(color)][kind] = self.in_hand(color, kind);
            }
        }
        board.side_to_move = self.turn();
        board.halfmove_clock = u16::try_from(self.halfmoves()).unwrap_or(u16::MAX);
        board.fullmove_number = self.fullmoves();
        board.set_defined_rights([self.castling_rooks(0), self.castling_rooks(1)], self.en_passant_square());
        let count = self.count_state();
        board.set_defined_count(count.limit, count.plies);
        board.set_defined_lion_shield(self.lion_shield());
        board
    }

    /// The position of `variant` a board position holds.
    ///
    /// # Errors
    /// When it is not a board of this variant, or not a position of it.
    pub fn from_board_position(variant: Arc<Variant>, board: &BoardPosition) -> Result<Position, FenError> {
        if board.variant != api::Variant::DEFINED || board.files != variant.files || board.ranks != variant.ranks {
            return Err(FenError(format!(
                "not a board of {}: {} on {}×{}",
                variant.name,
                board.variant.cecp_name(),
                board.files,
                board.ranks
            )));
        }
        let mut position = Position::empty(variant.clone());
        for (square, &code) in board.squares.iter().enumerate() {
            if code == 0 {
                continue;
            }
            if code & 0x7F == 0 || kind_of(code) >= variant.kinds.len() || !board.is_on_board(square as u8) {
                return Err(FenError(format!("piece code {code} on square {square} is no piece of {}", variant.name)));
            }
            position.place(square as u8, code);
        }
        let mut hands = [[0u8; MAX_KINDS]; 2];
        let kinds = variant.kinds.len().min(board.hands[0].len());
        for (hand, given) in hands.iter_mut().zip(&board.hands) {
            hand[..kinds].copy_from_slice(&given[..kinds]);
        }
        let (castling, en_passant) = board.defined_rights();
        position.set_state(
            hands,
            board.side_to_move & 1,
            castling,
            en_passant,
            board.halfmove_clock,
            board.fullmove_number,
        )?;
        let (limit, plies) = board.defined_count();
        position.set_count(Count { limit, plies });
        position.set_lion_shield(board.defined_lion_shield() && variant.lion_kinds != 0);
        Ok(position)
    }
}

impl Move {
    /// The plugin API's encoding: the two squares, and the piece code (kind + 1)
    /// of the kind it promotes to; a drop as the API marks one.
    #[must_use]
    pub fn to_plugin(self) -> api::Move {
        if let Some(kind) = self.dropped() {
            return api::Move::board_drop(api::BoardKind(kind as u8 + 1), self.to);
        }
        let promotion = self.promotion_kind().map_or(api::Move::NO_PROMOTION, |kind| kind as u8 + 1);
        // A first leg is a single step (betza reads no other), well within reach.
        if let Some(leg) = self.via().and_then(|via| api::Move::board_leg(self.from, via, self.to, promotion)) {
            return leg;
        }
        api::Move { from: self.from, to: self.to, promotion, reserved: 0 }
    }
}

impl Position {
    /// The legal move the plugin API's `m` encodes, if there is one.
    pub fn legal_from_plugin(&mut self, m: api::Move) -> Option<Move> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.into_iter().find(|legal| legal.to_plugin() == m)
    }

    /// Whether the piece code `code` is the first player's.
    #[must_use]
    pub fn is_first_players(code: u8) -> bool {
        color_of(code) == 0
    }
}
