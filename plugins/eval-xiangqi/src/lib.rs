//! The bundled xiangqi evaluation (`xiangqi-pst`): material, piece-square
//! tables, the mobility of chariots and horses, and a palace short of defenders
//! against the pieces that can attack it.
//!
//! This crate owns the evaluation and its [`EvalPlugin`] description; the host
//! links it statically as its built-in xiangqi evaluation, and the sibling
//! `export` crate makes it a loadable plugin. It scores [`BoardPosition`]s of
//! [`Variant::XIANGQI`] only: it has no chess evaluator ([`NoEvaluator`]).

mod tables;

use plugboard_plugin_api::{
    BoardEvaluate, BoardEvaluator, BoardKind, BoardPosition, EvalPlugin, NoEvaluator, PluginInfo, Variant,
};

/// The bonus for having the move, in centipawns.
const TEMPO: i32 = 10;
/// Per square a chariot reaches beyond the usual few.
const CHARIOT_MOBILITY: i32 = 4;
const CHARIOT_USUAL_REACH: i32 = 6;
/// Per point a horse may step to beyond the usual few (its leg free, the point not its side's).
const HORSE_MOBILITY: i32 = 8;
const HORSE_USUAL_REACH: i32 = 3;
/// Per missing advisor or elephant, per unit of the enemy's attacking force.
const MISSING_DEFENDER: i32 = 6;

/// The plugin: describes itself and makes evaluators.
pub struct XiangqiPst;

impl EvalPlugin for XiangqiPst {
    type Evaluator = NoEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("xiangqi-pst", env!("CARGO_PKG_VERSION"))
            .author("The Plugboard authors")
            .description("xiangqi: material, piece-square tables, chariot and horse mobility, palace defenders")
            .variants("xiangqi")
    }

    fn new_evaluator() -> Result<NoEvaluator, String> {
        Err("xiangqi-pst scores xiangqi only".into())
    }

    fn new_board_evaluator(variant: Variant) -> Result<BoardEvaluator, String> {
        match variant {
            Variant::XIANGQI => Ok(BoardEvaluator::from_rust(XiangqiEvaluator)),
            _ => Err(format!("xiangqi-pst scores xiangqi only, not {}", variant.cecp_name())),
        }
    }
}

/// One evaluator per search thread; it keeps no state.
pub struct XiangqiEvaluator;

impl BoardEvaluate for XiangqiEvaluator {
    fn evaluate(&mut self, position: &BoardPosition) -> i32 {
        let us = position.side_to_move & 1;
        let (ours, theirs) = (side(position, us), side(position, us ^ 1));
        // A palace short of advisors and elephants costs more, the more the enemy can attack it with.
        let exposure = |defended: &Side, attacker: &Side| MISSING_DEFENDER * (4 - defended.defenders) * attacker.attack;
        ours.score - theirs.score + exposure(&theirs, &ours) - exposure(&ours, &theirs) + TEMPO
    }
}

/// What one side has.
struct Side {
    /// Material, places and mobility.
    score: i32,
    /// Advisors and elephants.
    defenders: i32,
    /// Chariots count two, horses and cannons one.
    attack: i32,
}

fn side(position: &BoardPosition, color: u8) -> Side {
    let (mut score, mut defenders, mut attack) = (0, 0, 0);
    for square in position.squares_of(color) {
        let Some(piece) = position.piece_at(square) else { continue };
        let kind = piece.kind();
        let (file, rank) = (BoardPosition::file_of(square), BoardPosition::rank_of(square));
        score += tables::value(kind, color, file, rank);
        match kind {
            BoardKind::ADVISOR | BoardKind::ELEPHANT => defenders += 1,
            BoardKind::CHARIOT => {
                attack += 2;
                score += CHARIOT_MOBILITY * (chariot_reach(position, square) - CHARIOT_USUAL_REACH);
            }
            BoardKind::HORSE => {
                attack += 1;
                score += HORSE_MOBILITY * (horse_reach(position, square, color) - HORSE_USUAL_REACH);
            }
            BoardKind::CANNON => attack += 1,
            _ => {}
        }
    }
    Side { score, defenders: defenders.min(4), attack }
}

const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn step(position: &BoardPosition, square: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let file = BoardPosition::file_of(square) as i8 + df;
    let rank = BoardPosition::rank_of(square) as i8 + dr;
    let on_board = (0..position.files as i8).contains(&file) && (0..position.ranks as i8).contains(&rank);
    on_board.then(|| BoardPosition::square(file as u8, rank as u8))
}

/// Empty squares along the chariot's lines, and the first piece on each.
fn chariot_reach(position: &BoardPosition, from: u8) -> i32 {
    let mut reach = 0;
    for direction in ORTHOGONAL {
        let mut at = from;
        while let Some(next) = step(position, at, direction) {
            reach += 1;
            if position.piece_at(next).is_some() {
                break;
            }
            at = next;
        }
    }
    reach
}

/// Points the horse may step to: leg free, and not its own side's piece.
fn horse_reach(position: &BoardPosition, from: u8, color: u8) -> i32 {
    let mut reach = 0;
    for (df, dr) in ORTHOGONAL {
        let Some(leg) = step(position, from, (df, dr)) else { continue };
        if position.piece_at(leg).is_some() {
            continue;
        }
        // Two targets past each leg: straight on, then one step to either side.
        let sides = if df == 0 { [(1, 2 * dr), (-1, 2 * dr)] } else { [(2 * df, 1), (2 * df, -1)] };
        for side in sides {
            if let Some(to) = step(position, from, side)
                && position.piece_at(to).is_none_or(|piece| piece.color() != color)
            {
                reach += 1;
            }
        }
    }
    reach
}

#[cfg(test)]
mod tests;
