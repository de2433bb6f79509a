//! The rules engine against reference counts, games and definition files, one
//! module a theme, in one test binary so that the build links it once.

mod chu;
mod counting;
mod definitions;
mod elven;
mod legality;
mod lion;
mod perft;
mod resize;
mod rules;

use plugboard_variants::{Catalog, MoveList, Position};

/// The built-in `variant` set up from `fen`.
fn position_in(variant: &str, fen: &str) -> Position {
    let catalog = Catalog::builtin();
    let rules = catalog.get(variant).unwrap_or_else(|| panic!("no variant {variant}")).clone();
    Position::from_fen(rules, fen).unwrap_or_else(|e| panic!("{variant}: {fen}: {e}"))
}

/// The legal moves of `position`, written as xboard reads them.
fn legal_texts(position: &mut Position) -> Vec<String> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().map(|&m| position.move_text(m)).collect()
}

/// That each of `present` is a legal move of `position` and none of `absent` is.
fn assert_moves(position: &mut Position, present: &[&str], absent: &[&str]) {
    let moves = legal_texts(position);
    for wanted in present {
        assert!(moves.contains(&(*wanted).to_string()), "{wanted} missing from {moves:?} in {}", position.fen());
    }
    for unwanted in absent {
        assert!(
            !moves.contains(&(*unwanted).to_string()),
            "{unwanted} should not be in {moves:?} in {}",
            position.fen()
        );
    }
}
