//! Plugboard: a CECP (xboard protocol) chess and xiangqi engine, which also
//! speaks cxboard to xiangqi GUIs, whose search and evaluation are plugins
//! loaded at run time.
//!
//! The process is one front end over the [`core::Core`], chosen by the first
//! line ([`protocol::Session`] for CECP, [`cxboard::Session`] for cxboard), fed
//! [`event::Event`]s from one inbox by
//! the stdin reader, the search workers, the clock watcher and the signal handler;
//! see `DESIGN.md` for the picture.

pub mod bench;
pub mod book;
pub mod clock;
pub mod core;
pub mod cxboard;
pub mod datagen;
pub mod edit;
pub mod engine;
pub mod event;
pub mod exit;
pub mod files;
pub mod game;
pub mod host_options;
pub mod ics;
pub mod known_moves;
pub mod logging;
pub mod perft;
pub mod plugins;
pub mod protocol;
pub mod quote;
pub mod scheduling;
pub mod search;
pub mod settings;
pub mod signals;
pub mod tablebases;
pub mod uci;
pub mod variant_files;
