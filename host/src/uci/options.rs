//! The options a UCI GUI sees: cxboard's (`Hash`, `Ponder` and the core's
//! registry, all in UCI form), and UCI's own standard ones for what CECP sets
//! with commands: `UCI_Variant` (`variant`), `UCI_Chess960` and `SyzygyPath`
//! (`egtpath syzygy`); and `UCI_AnalyseMode` and `UCI_ShowWDL`. Names are found whatever their case, as the
//! specification asks.

use plugboard_plugin_api::OptionSpec;

use crate::{
    core::{Core, options::validate},
    cxboard::{options as uci_form, render},
};

pub use crate::cxboard::options::Target as FormTarget;

pub const VARIANT: &str = "UCI_Variant";
pub const CHESS960: &str = "UCI_Chess960";
pub const SYZYGY_PATH: &str = "SyzygyPath";
pub const ANALYSE_MODE: &str = "UCI_AnalyseMode";
pub const SHOW_WDL: &str = "UCI_ShowWDL";

/// Chess under the name Fairy-Stockfish and the UCI GUIs give it; CECP's
/// `normal`. Every other variant keeps its CECP name, which is Fairy-Stockfish's
/// where it has one.
pub const CHESS: &str = "chess";

/// What a `setoption` name reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Variant,
    Chess960,
    SyzygyPath,
    AnalyseMode,
    ShowWdl,
    /// `Hash`, `Ponder` or an option of the core's registry.
    Form(FormTarget),
}

/// The settings UCI's own options hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciSettings {
    /// `UCI_Variant`, as the GUI names it.
    pub variant: String,
    pub chess960: bool,
    pub syzygy_path: String,
    pub pondering: bool,
    /// The GUI analyses: every `go` is searched, never answered by the book
    /// or the tablebases.
    pub analyse_mode: bool,
    /// `info` lines carry `wdl`.
    pub show_wdl: bool,
}

impl Default for UciSettings {
    fn default() -> UciSettings {
        UciSettings {
            variant: CHESS.to_owned(),
            chess960: false,
            syzygy_path: String::new(),
            pondering: false,
            analyse_mode: false,
            show_wdl: false,
        }
    }
}

impl UciSettings {
    /// The variant as the core names it.
    pub fn core_variant(&self) -> String {
        match self.variant.as_str() {
            CHESS | "normal" if self.chess960 => "fischerandom".to_owned(),
            CHESS => "normal".to_owned(),
            other => other.to_owned(),
        }
    }
}

/// The variants a GUI may choose: chess first, the rest as the core lists them.
/// Chess960 is chess with `UCI_Chess960`, and also `fischerandom`, as
/// Fairy-Stockfish lists it.
pub fn variant_names(core: &Core) -> Vec<String> {
    let mut names = vec![CHESS.to_owned()];
    names.extend(core.variants().into_iter().filter(|name| name != "normal"));
    names
}

fn variant_spec(core: &Core) -> OptionSpec {
    let names = variant_names(core);
    let choices: Vec<&str> = names.iter().map(String::as_str).collect();
    OptionSpec::combo(VARIANT, CHESS, &choices)
}

/// Every option as `option` declares it (the text after `option `), with its
/// current value as the default.
pub fn declarations(core: &Core, settings: &UciSettings) -> Vec<String> {
    let mut lines = vec![
        render::option(&variant_spec(core), &settings.variant),
        render::option(&OptionSpec::check(CHESS960, false), if settings.chess960 { "1" } else { "0" }),
        render::option(&OptionSpec::path(SYZYGY_PATH, ""), &settings.syzygy_path),
        render::option(&OptionSpec::check(ANALYSE_MODE, false), if settings.analyse_mode { "1" } else { "0" }),
        render::option(&OptionSpec::check(SHOW_WDL, false), if settings.show_wdl { "1" } else { "0" }),
    ];
    lines.extend(uci_form::declarations(core, settings.pondering));
    lines
}

/// The option `name` names, whatever its case.
pub fn find(core: &Core, name: &str) -> Option<Target> {
    if name.eq_ignore_ascii_case(VARIANT) {
        return Some(Target::Variant);
    }
    if name.eq_ignore_ascii_case(CHESS960) {
        return Some(Target::Chess960);
    }
    if name.eq_ignore_ascii_case(SYZYGY_PATH) {
        return Some(Target::SyzygyPath);
    }
    if name.eq_ignore_ascii_case(ANALYSE_MODE) {
        return Some(Target::AnalyseMode);
    }
    if name.eq_ignore_ascii_case(SHOW_WDL) {
        return Some(Target::ShowWdl);
    }
    uci_form::find(core, name).map(Target::Form)
}

/// The variant `setoption name UCI_Variant value X` chooses, as the GUI named
/// it, or why it is none of the listed ones.
pub fn variant_value(core: &Core, value: Option<&str>) -> Result<String, String> {
    validate(&variant_spec(core), value)
}

/// Whether `setoption name NAME value X` turns the check option `name` on.
pub fn check_value(name: &str, value: Option<&str>) -> Result<bool, String> {
    Ok(validate(&OptionSpec::check(name, false), value)? == "1")
}
