//! Endgame tablebase probes the host lends to search plugins.
//!
//! The host reads the tables the user pointed it to (`egtpath`) and hands every
//! search plugin a [`TablebaseProbe`] before each search (see
//! [`crate::SearchPlugin::use_tablebases`] and
//! [`crate::SearchModuleRef::use_tablebases`]). A search asks it for the
//! win/draw/loss value of positions inside its tree; the host decides the root.
//!
//! # How a search uses it
//!
//! The answer assumes the position was just reached by a capture or a pawn move
//! (shakmaty-syzygy's `probe_wdl_after_zeroing`): the fifty-move count starts
//! there. So probe where the halfmove clock is 0, with at most
//! [`TablebaseProbe::max_pieces`] pieces and no castling rights, in orthodox chess
//! ([`crate::Variant::CHESS`], Chess960 included; other variants get no answer).
//! Not at the root: the host plays a root the tables cover by itself. A win or a
//! loss is a game result, worth more than any evaluation and less than a mate
//! found on the board; a cursed win or a blessed loss is a draw, perhaps by a hair.

use std::{
    ffi::c_void,
    panic::{AssertUnwindSafe, catch_unwind},
};

use abi_stable::{StableAbi, std_types::ROption};

use crate::Position;

/// A tablebase result for the side to move. A byte rather than a Rust enum, so a
/// value added later reads as unknown instead of undefined behaviour.
#[repr(transparent)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wdl(pub i8);

impl Wdl {
    pub const LOSS: Wdl = Wdl(-2);
    /// A loss the fifty-move rule turns into a draw.
    pub const BLESSED_LOSS: Wdl = Wdl(-1);
    pub const DRAW: Wdl = Wdl(0);
    /// A win the fifty-move rule turns into a draw.
    pub const CURSED_WIN: Wdl = Wdl(1);
    pub const WIN: Wdl = Wdl(2);
}

/// What the host puts behind a [`TablebaseProbe`].
pub trait TablebaseSource: Sync + 'static {
    /// See [`TablebaseProbe::probe_wdl`].
    fn probe_wdl(&self, position: &Position) -> Option<Wdl>;
}

/// The host's tablebases, as a search plugin sees them. Cheap to copy.
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct TablebaseProbe {
    context: *const c_void,
    probe_wdl_fn: unsafe extern "C" fn(context: *const c_void, position: &Position) -> ROption<Wdl>,
    /// Positions with more pieces (kings included) than this are never in the tables.
    pub max_pieces: u32,
}

// SAFETY: `context` is a `&'static T` with `T: Sync` (see TablebaseProbe::new).
unsafe impl Send for TablebaseProbe {}
unsafe impl Sync for TablebaseProbe {}

impl TablebaseProbe {
    /// For hosts: lends `source`, which lives as long as the process, so a search
    /// that outlives a change of tables never reads freed memory.
    pub fn new<T: TablebaseSource>(source: &'static T, max_pieces: u32) -> TablebaseProbe {
        unsafe extern "C" fn trampoline<T: TablebaseSource>(
            context: *const c_void,
            position: &Position,
        ) -> ROption<Wdl> {
            // SAFETY: context is the &'static T given to TablebaseProbe::new.
            let source = unsafe { &*context.cast::<T>() };
            catch_unwind(AssertUnwindSafe(|| source.probe_wdl(position))).ok().flatten().into()
        }
        TablebaseProbe { context: (source as *const T).cast(), probe_wdl_fn: trampoline::<T>, max_pieces }
    }

    /// The result for the side to move of `position`, taken as reached by a capture
    /// or a pawn move (so call it where the halfmove clock is 0): the fifty-move rule
    /// counts from here. `None` when the tables do not know the position: another
    /// variant, castling rights, more than [`Self::max_pieces`] pieces, or a table
    /// missing or unreadable.
    ///
    /// Ask only where it pays: after a capture or pawn move, with few pieces, never
    /// at the root (the host plays the root itself when the tables cover it).
    #[inline]
    pub fn probe_wdl(&self, position: &Position) -> Option<Wdl> {
        // SAFETY: context and probe_wdl_fn were paired in TablebaseProbe::new.
        unsafe { (self.probe_wdl_fn)(self.context, position) }.into_option()
    }
}

impl std::fmt::Debug for TablebaseProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TablebaseProbe").field("max_pieces", &self.max_pieces).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Everything;

    impl TablebaseSource for Everything {
        fn probe_wdl(&self, position: &Position) -> Option<Wdl> {
            match position.side_to_move {
                0 => Some(Wdl::WIN),
                1 => Some(Wdl::LOSS),
                _ => panic!("no such side"),
            }
        }
    }

    static EVERYTHING: Everything = Everything;

    #[test]
    fn probes_reach_the_source_and_a_panic_becomes_no_answer() {
        let probe = TablebaseProbe::new(&EVERYTHING, 3);
        let mut position = Position {
            colors: [0; 2],
            pieces: [0; 6],
            castling_rooks: 0,
            side_to_move: 0,
            en_passant: Position::NO_SQUARE,
            halfmove_clock: 0,
            fullmove_number: 1,
            variant: crate::Variant::CHESS,
            remaining_checks: [0; 2],
            pockets: [[0; 5]; 2],
            promoted: 0,
            reserved: [0; 2],
        };
        assert_eq!(probe.probe_wdl(&position), Some(Wdl::WIN));
        position.side_to_move = 1;
        assert_eq!(probe.probe_wdl(&position), Some(Wdl::LOSS));
        position.side_to_move = 7;
        assert_eq!(probe.probe_wdl(&position), None);
        assert_eq!(probe.max_pieces, 3);
    }
}
