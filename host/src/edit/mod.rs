//! Protocol 1's `edit` mode: pieces placed one line at a time until `.`, on the
//! board of the game being played (chess pieces on 8×8, xiangqi's on 9×10).

mod chess;
mod defined;
mod xiangqi;

use self::{chess::ChessEdit, defined::DefinedEdit, xiangqi::XiangqiEdit};
use crate::game::{EditedPosition, Game};

/// A position being set up.
#[derive(Debug, Clone)]
pub enum Edit {
    Chess(ChessEdit),
    Xiangqi(XiangqiEdit),
    Defined(DefinedEdit),
}

/// What one line of edit mode did.
#[derive(Debug, PartialEq, Eq)]
pub enum EditStep<T = EditedPosition> {
    Continue,
    /// The line could not be understood; the edit goes on.
    Refused(&'static str),
    /// `.`: the position as set up, or why it is not a legal position.
    Done(Result<T, String>),
}

impl<T> EditStep<T> {
    fn map(self, f: impl FnOnce(T) -> EditedPosition) -> EditStep {
        match self {
            EditStep::Continue => EditStep::Continue,
            EditStep::Refused(why) => EditStep::Refused(why),
            EditStep::Done(result) => EditStep::Done(result.map(f)),
        }
    }
}

impl Edit {
    /// An edit of `game`'s board as it stands, the side to move kept; `None`
    /// for a board `edit` cannot set up.
    pub fn start(game: &Game) -> Option<Edit> {
        if let Some(board) = game.chess_board() {
            return Some(Edit::Chess(ChessEdit::start(board, game.turn())));
        }
        if let Some(position) = game.defined_position() {
            return Some(Edit::Defined(DefinedEdit::start(position)));
        }
        game.xiangqi_position().map(|position| Edit::Xiangqi(XiangqiEdit::start(position)))
    }

    pub fn line(&mut self, line: &str) -> EditStep {
        match self {
            Edit::Chess(edit) => edit.line(line).map(EditedPosition::Chess),
            Edit::Xiangqi(edit) => edit.line(line).map(EditedPosition::Xiangqi),
            Edit::Defined(edit) => edit.line(line).map(EditedPosition::Defined),
        }
    }
}
