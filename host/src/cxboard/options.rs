//! The options a cxboard GUI sees: the core's registry, declared in UCI form,
//! and two of the front end's own for what CECP sets with commands (`memory`,
//! `hard`/`easy`). Names are found whatever their case, as the document asks.

use plugboard_plugin_api::OptionSpec;

use super::render;
use crate::{
    core::{Core, options::validate},
    host_options,
};

/// The hash in MiB (CECP's `memory`, less the engine's own footprint).
pub const HASH: &str = "Hash";
/// Thinking on the opponent's time in play mode (CECP's `hard`/`easy`).
pub const PONDER: &str = "Ponder";
const DEFAULT_HASH_MB: i64 = 64;
const MAX_HASH_MB: i64 = 65_536;

/// What a `setoption` name reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Hash,
    Ponder,
    /// An option of the core's registry, under its own spelling.
    Core(String),
}

fn hash_spec() -> OptionSpec {
    OptionSpec::spin(HASH, DEFAULT_HASH_MB, 1, MAX_HASH_MB)
}

fn ponder_spec() -> OptionSpec {
    OptionSpec::check(PONDER, false)
}

/// Every option as `option` declares it (the text after `option `), with its
/// current value as the default: the front end's own first, then the core's.
pub fn declarations(core: &Core, pondering: bool) -> Vec<String> {
    let mut lines = vec![
        render::option(&hash_spec(), &core.hash_mb().to_string()),
        render::option(&ponder_spec(), if pondering { "1" } else { "0" }),
    ];
    // `Extended thinking` shapes CECP's thinking lines; these front ends write `info`.
    let entries = core.options();
    let shown = entries.iter().filter(|entry| entry.spec.name.as_str() != host_options::EXTENDED_THINKING);
    lines.extend(shown.map(|entry| render::option(&entry.spec, &entry.value)));
    lines
}

/// The option `name` names, whatever its case.
pub fn find(core: &Core, name: &str) -> Option<Target> {
    if name.eq_ignore_ascii_case(HASH) {
        return Some(Target::Hash);
    }
    if name.eq_ignore_ascii_case(PONDER) {
        return Some(Target::Ponder);
    }
    core.option_named(name).map(Target::Core)
}

/// The hash size a `setoption name Hash value X` asks for, or why it is none.
pub fn hash_value(value: Option<&str>) -> Result<u32, String> {
    let text = validate(&hash_spec(), value)?;
    text.parse().map_err(|_| format!("{HASH} must be a whole number"))
}

/// Whether `setoption name Ponder value X` turns pondering on, or why it is no value.
pub fn ponder_value(value: Option<&str>) -> Result<bool, String> {
    Ok(validate(&ponder_spec(), value)? == "1")
}
