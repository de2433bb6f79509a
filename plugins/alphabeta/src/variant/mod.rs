//! The search for the variants cozy-chess cannot play (atomic, suicide, giveaway,
//! king of the hill, three-check, crazyhouse, racing kings, horde).
//!
//! The rules come from shakmaty, through the same conversions the host uses, so
//! the plugin and the host agree on every legal move. The search is a plainer
//! alpha-beta than the orthodox one (no null move: zugzwang is everywhere in
//! antichess and drops make it meaningless in crazyhouse), with the variant's
//! goals scored by [`terms`] on top of the evaluation plugin.

mod search;
mod terms;

pub use search::run;
