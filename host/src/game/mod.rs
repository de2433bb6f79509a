//! The game: its rules, where it started, the moves since, and result claims.

mod chess;

use plugboard_plugin_api as api;
use shakmaty::CastlingMode;

pub use self::chess::{Game, GameEnd, square_name, to_plugin_move};

/// The start of a game of the variant CECP calls `name`, if the host knows its rules.
pub fn variant_start(name: &str) -> Option<Game> {
    Some(match name {
        "fischerandom" => Game::new(api::Variant::CHESS, CastlingMode::Chess960),
        // The board's rules are crazyhouse's; a bughouse partner's captures arrive with `holding`.
        "bughouse" => Game::new(api::Variant::CRAZYHOUSE, CastlingMode::Standard),
        _ => Game::new(api::Variant::from_cecp_name(name)?, CastlingMode::Standard),
    })
}

/// Whether `variant NAME` can set up a game of these rules.
pub fn knows_variant(name: &str) -> bool {
    variant_start(name).is_some()
}
