//! The rules of xiangqi (Chinese chess), written once for Plugboard: the
//! host's legality, results, FEN and `perft`, and the bundled search's move
//! generation use the same code, so they agree by construction.
//!
//! This crate owns the board (9 files a–i × 10 ranks 0–9, Red at rank 0, as
//! CECP writes coordinates: `h2e2`), the pieces and their moves, check
//! including the flying general, legality, the end of a game on the board
//! (a side with no legal move loses, checkmated or stalemated), FEN in the
//! letterings in use, Zobrist keys, perft, and the judgement of repeated
//! positions (perpetual check, perpetual chase, draw) as xboard 4.9 makes it,
//! and the conversions to and from the plugin API's board positions and moves.
//! It knows nothing of protocols, clocks or searching.
//!
//! Generating moves allocates nothing: a `MoveList` is a fixed array, and
//! `play`/`undo` change the position in place.
//!
//! ```
//! use plugboard_xiangqi::{Lettering, MoveList, Position};
//!
//! let mut position = Position::start();
//! let mut moves = MoveList::new();
//! position.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 44);
//!
//! let m = "h2e2".parse().unwrap();
//! assert!(position.is_legal(m));
//! let undo = position.play(m);
//! assert_eq!(
//!     position.fen(Lettering::Xboard),
//!     "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b 1 1"
//! );
//! position.undo(m, undo);
//! assert_eq!(position.perft(2), 1920);
//! ```

mod abi;
mod attacks;
mod board;
pub mod chase;
mod fen;
mod movegen;
mod moves;
mod perft;
mod piece;
mod position;
pub mod repetition;
mod square;
mod tables;
mod validate;
mod zobrist;

pub use fen::{FenError, START};
pub use moves::{MAX_MOVES, Move, MoveList, ParseMoveError};
pub use piece::{Color, Lettering, Piece, Role};
pub use position::{Outcome, Position, Undo};
pub use repetition::{Rule, Verdict};
pub use square::{ParseSquareError, Square};
