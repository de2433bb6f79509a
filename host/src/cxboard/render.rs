//! How the core's notes, options and refusals read under cxboard: `info` lines,
//! scores, options in UCI form, and `Error (...)` lines.

use plugboard_plugin_api::{Bound, OptionKind, OptionSpec, Score, ScoreKind};

use super::reply::{Info, Reply, ScoreText};
use crate::{
    core::{Refusal, note::Thought},
    game::Game,
};

/// A search's line: `info depth … score … time … nodes … nps … pv …`.
pub fn info(thought: &Thought, game: &Game) -> Info {
    Info {
        depth: thought.depth,
        seldepth: thought.seldepth,
        score: score(thought.score),
        time_ms: thought.time_ms,
        nodes: thought.nodes,
        nps: thought.nodes.saturating_mul(1000) / thought.time_ms.max(1),
        tbhits: thought.tbhits,
        pv: thought.pv.iter().map(|&m| game.move_text(m)).collect(),
    }
}

pub fn score(score: Score) -> ScoreText {
    let lower = match score.bound {
        Bound::Exact => None,
        Bound::Lower => Some(true),
        Bound::Upper => Some(false),
    };
    ScoreText { mate: score.kind == ScoreKind::Mate, value: score.value, lower }
}

/// `name N type KIND default V …`: an option as UCI declares it. Spin and slider
/// are spins; a file or a folder is a string; the settings buttons are buttons.
pub fn option(spec: &OptionSpec, current: &str) -> String {
    let name = &spec.name;
    match spec.kind {
        OptionKind::Button | OptionKind::Save | OptionKind::Reset => format!("name {name} type button"),
        OptionKind::Check => {
            let on = if current == "1" { "true" } else { "false" };
            format!("name {name} type check default {on}")
        }
        OptionKind::Spin | OptionKind::Slider => {
            format!("name {name} type spin default {current} min {} max {}", spec.min, spec.max)
        }
        OptionKind::Combo => {
            let vars: Vec<String> = spec.choices.iter().map(|choice| format!(" var {choice}")).collect();
            format!("name {name} type combo default {current}{}", vars.concat())
        }
        OptionKind::String | OptionKind::File | OptionKind::Path => {
            format!("name {name} type string default {}", if current.is_empty() { EMPTY } else { current })
        }
    }
}

/// How UCI writes an empty string, as a default and as a value.
pub const EMPTY: &str = "<empty>";

/// `Error (...)` for the command `line`, which the core refused.
pub fn refusal(line: &str, refusal: Refusal) -> Reply {
    Reply::Error { kind: refusal_kind(refusal), line: line.trim().to_owned() }
}

/// What goes in the brackets of `Error (...)` for a refusal, under both UCI forms.
pub fn refusal_kind(refusal: Refusal) -> String {
    match refusal {
        Refusal::NotLegalNow(None) => "command not legal now".to_owned(),
        Refusal::NotLegalNow(Some(why)) => why,
        Refusal::BadParameter(why) => format!("bad value: {why}"),
        Refusal::UnknownOption => "unknown option".to_owned(),
        Refusal::UnsupportedVariant => "unsupported variant".to_owned(),
        Refusal::UnsupportedTables => "unsupported tablebase type".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_declared_in_uci_form() {
        assert_eq!(option(&OptionSpec::check("Use book", true), "0"), "name Use book type check default false");
        assert_eq!(
            option(&OptionSpec::spin("Move overhead", 50, 0, 5000), "70"),
            "name Move overhead type spin default 70 min 0 max 5000"
        );
        assert_eq!(
            option(&OptionSpec::combo("Evaluation", "pesto", &["pesto", "material"]), "material"),
            "name Evaluation type combo default material var pesto var material"
        );
        assert_eq!(option(&OptionSpec::file("Book file", ""), ""), "name Book file type string default <empty>");
        assert_eq!(option(&OptionSpec::button("Rescan plugins"), ""), "name Rescan plugins type button");
    }
}
