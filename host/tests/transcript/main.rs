//! Transcript tests: a `Session` fed the GUI's lines directly, with deterministic
//! fake searches and a fake clock, and its replies compared line for line.
//!
//! One file a theme; every GUI→engine command of the protocol (CECP v2, and the
//! newer items of H.G. Muller's description) has a test here, and so has every
//! command of the cxboard document (`cxboard.rs`, `cxboard_play.rs`) and of UCI (`uci.rs`). `harness` drives the
//! session, `fakes` holds the searches, `steps` plays them and keeps the time.

mod fakes;
mod harness;
mod steps;

mod analysis;
mod book;
mod clock;
mod cxboard;
mod cxboard_play;
mod draw;
mod errors;
mod exclusions;
mod handshake;
mod highlight;
mod ics;
mod moves;
mod options;
mod pause;
mod ping;
mod pondering;
mod quit;
mod resources;
mod results;
mod setscore;
mod setup;
mod sides;
mod takeback;
mod thinking;
mod uci;
mod variants;
mod xiangqi;
