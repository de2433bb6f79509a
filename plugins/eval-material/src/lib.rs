//! A material-only evaluation: the model to copy when writing an evaluation plugin.
//!
//! Build it (`cargo build --release`), drop the resulting library into a plugin
//! folder, and "material" appears in the engine's Evaluation menu.

use std::sync::atomic::{AtomicI32, Ordering};

use plugboard_plugin_api::{EvalPlugin, Evaluate, OptionSpec, PieceKind, PluginInfo, Position};

/// Piece values in centipawns, indexed by `PieceKind`; the king counts nothing.
const VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// An option the user can change in the GUI; evaluators made later see the new value.
static BISHOP_PAIR: AtomicI32 = AtomicI32::new(30);

/// The plugin: describes itself and makes evaluators.
pub struct Material;

impl EvalPlugin for Material {
    type Evaluator = MaterialEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("material", env!("CARGO_PKG_VERSION"))
            .author("The Plugboard authors")
            .description("Counts material, nothing else")
            .option(OptionSpec::spin("Bishop pair bonus", 30, 0, 200))
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        match name {
            "Bishop pair bonus" => {
                let bonus = value.parse().map_err(|_| format!("not a number: {value}"))?;
                BISHOP_PAIR.store(bonus, Ordering::Relaxed);
                Ok(())
            }
            _ => Err(format!("no option named {name}")),
        }
    }

    fn new_evaluator() -> Result<MaterialEvaluator, String> {
        Ok(MaterialEvaluator { bishop_pair: BISHOP_PAIR.load(Ordering::Relaxed) })
    }
}

/// One evaluator per search thread; it may keep state, this one only caches an option.
pub struct MaterialEvaluator {
    bishop_pair: i32,
}

impl MaterialEvaluator {
    fn side(&self, position: &Position, color: u8) -> i32 {
        let material: i32 = PieceKind::ALL
            .iter()
            .map(|&kind| VALUES[kind as usize] * position.bitboard(kind, color).count_ones() as i32)
            .sum();
        let pair = position.bitboard(PieceKind::Bishop, color).count_ones() >= 2;
        material + if pair { self.bishop_pair } else { 0 }
    }
}

impl Evaluate for MaterialEvaluator {
    /// The score from the side to move's point of view.
    fn evaluate(&mut self, position: &Position) -> i32 {
        let us = position.side_to_move;
        self.side(position, us) - self.side(position, us ^ 1)
    }
}

plugboard_plugin_api::export_eval_plugin!(Material);
