//! Chess variants defined as data, written once for Plugboard: the host's
//! legality, results, FEN and `perft`, and the bundled search's move
//! generation use the same code, so they agree by construction.
//!
//! This crate owns the reading of variant definitions in Fairy-Stockfish's
//! `variants.ini` format (its keys and their meanings; a key or rule it does
//! not play is refused with file, line and why), the pieces as Betza notation,
//! the built-in definitions of the variants of the CECP documents (embedded
//! text in the same format), and positions on boards up to 16 files × 16
//! ranks: moves, check, legality, castling, en passant, promotion, the end of a
//! game on the board, FEN and perft. It knows nothing of protocols, clocks or
//! searching.
//!
//! ```
//! use plugboard_variants::{Catalog, Position};
//!
//! let catalog = Catalog::builtin();
//! let capablanca = catalog.get("capablanca").unwrap().clone();
//! let mut position = Position::start(capablanca).unwrap();
//! assert_eq!(position.perft(2), 784);
//! ```

mod abi;
pub mod betza;
mod catalog;
pub mod definition;
mod moves;
mod position;
pub mod square;

pub use catalog::{BUILTIN, Catalog};
pub use definition::ini::DefinitionError;
pub use definition::rules::{Counting, Value};
pub use definition::{Kind, Variant};
pub use moves::{Move, MoveList, Special};
pub use position::{
    Count, FenError, NullUndo, Outcome, Position, Reason, Undo, color_of, kind_of, piece_code, placement,
};
