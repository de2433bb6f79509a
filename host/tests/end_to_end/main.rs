//! The engine's end-to-end tests, one module a theme, in one test binary so that
//! the build links it once: each drives the built `plugboard` (and its plugins)
//! through the stdin/stdout a GUI uses, or the library's public API.

mod book;
mod book_maker;
mod chu;
mod cli;
mod common;
mod cpu_clock;
mod cxboard;
mod cxboard_fuzz;
mod datagen;
mod defined_variants;
mod elven;
mod endgames;
mod faults;
mod fuzz;
mod hardening;
mod ics;
mod lifecycle;
mod lion;
mod logging;
mod memory;
mod nnue;
mod plugin_releases;
mod protocol;
mod search_example;
mod shogi;
mod uci;
mod variants;
mod xiangqi;
