//! PeSTO: Ronald Friederich's (Rofchade) tapered piece-square evaluation, with
//! the terms piece-square tables cannot express (pawn structure, passed pawns,
//! mobility, rooks on open files, the bishop pair, king safety) on top.
//!
//! This crate owns the evaluation logic and the [`EvalPlugin`] description. The
//! loadable plugin is the sibling `export` crate; the host links this one
//! statically as its built-in evaluation.

mod tables;
mod terms;

use std::sync::atomic::{AtomicI32, Ordering};

use plugboard_plugin_api::{EvalPlugin, Evaluate, OptionSpec, PluginInfo, Position};

use tables::{EG, MG, PHASE_WEIGHT};
pub use terms::{TYPICAL_MOBILITY, Tapered, Weights};

/// The full game phase: every minor and major piece still on the board.
const MAX_PHASE: i32 = 24;

/// Default bonus for having the move, in centipawns.
pub const DEFAULT_TEMPO: i32 = 10;

/// Options are process-wide; evaluators made afterwards pick up the new value.
static TEMPO: AtomicI32 = AtomicI32::new(DEFAULT_TEMPO);

/// The plugin: describes itself and makes evaluators.
pub struct Pesto;

impl EvalPlugin for Pesto {
    type Evaluator = PestoEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("pesto", env!("CARGO_PKG_VERSION"))
            .author("The Plugboard authors")
            .description("PeSTO tapered piece-square tables with pawn structure, mobility and king safety")
            .option(OptionSpec::spin("Tempo", i64::from(DEFAULT_TEMPO), 0, 100))
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        match name {
            "Tempo" => {
                let tempo: i32 = value.trim().parse().map_err(|_| format!("not a number: {value}"))?;
                if !(0..=100).contains(&tempo) {
                    return Err(format!("Tempo must be within 0..=100, got {tempo}"));
                }
                TEMPO.store(tempo, Ordering::Relaxed);
                Ok(())
            }
            _ => Err(format!("no option named {name}")),
        }
    }

    fn new_evaluator() -> Result<PestoEvaluator, String> {
        Ok(PestoEvaluator::new())
    }
}

/// One evaluator per search thread; it only caches the tempo option.
#[derive(Clone, Debug)]
pub struct PestoEvaluator {
    tempo: i32,
}

impl PestoEvaluator {
    /// An evaluator using the current value of the "Tempo" option.
    pub fn new() -> PestoEvaluator {
        PestoEvaluator::with_tempo(TEMPO.load(Ordering::Relaxed))
    }

    /// An evaluator with an explicit tempo, independent of the global option.
    pub fn with_tempo(tempo: i32) -> PestoEvaluator {
        PestoEvaluator { tempo }
    }
}

impl Default for PestoEvaluator {
    fn default() -> PestoEvaluator {
        PestoEvaluator::new()
    }
}

impl Evaluate for PestoEvaluator {
    /// The score for the side to move, in centipawns.
    fn evaluate(&mut self, position: &Position) -> i32 {
        positional(position) + self.tempo
    }
}

/// The tapered PeSTO score from the side to move's point of view, without tempo:
/// the piece-square tables alone.
pub fn pesto(position: &Position) -> i32 {
    let (tables, phase) = tables(position);
    from_side_to_move(position, taper(tables, phase))
}

/// The whole evaluation from the side to move's point of view, without tempo:
/// the tables plus pawn structure, mobility and king safety.
pub fn positional(position: &Position) -> i32 {
    positional_with(position, &Weights::TUNED)
}

/// [`positional`] with other weights than the engine's, for tuning them.
pub fn positional_with(position: &Position, weights: &Weights) -> i32 {
    let (mut score, phase) = tables(position);
    let extra = terms::terms(position, weights);
    score.mg += extra.mg;
    score.eg += extra.eg;
    from_side_to_move(position, taper(score, phase))
}

/// The tables' middlegame and endgame sums, White minus Black, and the game phase.
fn tables(position: &Position) -> (Tapered, i32) {
    let mut score = Tapered::default();
    let mut phase = 0;
    for (kind, &pieces) in position.pieces.iter().enumerate() {
        for (color, sign) in [(0usize, 1), (1usize, -1)] {
            let mut bits = pieces & position.colors[color];
            phase += PHASE_WEIGHT[kind] * bits.count_ones() as i32;
            let (mg_table, eg_table) = (&MG[color][kind], &EG[color][kind]);
            while bits != 0 {
                let square = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                score.mg += sign * mg_table[square];
                score.eg += sign * eg_table[square];
            }
        }
    }
    (score, phase)
}

fn taper(score: Tapered, phase: i32) -> i32 {
    // Promotions can push the phase past 24; PeSTO then treats it as pure middlegame.
    let phase = phase.min(MAX_PHASE);
    (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

fn from_side_to_move(position: &Position, white: i32) -> i32 {
    if position.side_to_move == Position::WHITE { white } else { -white }
}

#[cfg(test)]
mod tests;
