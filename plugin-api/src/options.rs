//! How a plugin describes itself and its options, in the ten CECP option kinds.

use abi_stable::{
    StableAbi,
    std_types::{RString, RVec},
};

/// The option kinds of CECP's `feature option="NAME -KIND ..."`.
#[repr(u8)]
#[derive(StableAbi, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A push button; `set_option` gets an empty value when pressed.
    Button = 0,
    /// A button that asks the GUI to send the current values of all options.
    Save = 1,
    /// A button that asks the plugin to restore its defaults.
    Reset = 2,
    /// On/off; values are `0` and `1`.
    Check = 3,
    /// Free text.
    String = 4,
    /// An integer in `min..=max` shown as a number field.
    Spin = 5,
    /// An integer in `min..=max` shown as a slider.
    Slider = 6,
    /// One of `choices`.
    Combo = 7,
    /// A file name.
    File = 8,
    /// A folder name.
    Path = 9,
}

impl OptionKind {
    /// The word CECP uses for this kind, without its leading dash.
    pub fn cecp_name(self) -> &'static str {
        match self {
            OptionKind::Button => "button",
            OptionKind::Save => "save",
            OptionKind::Reset => "reset",
            OptionKind::Check => "check",
            OptionKind::String => "string",
            OptionKind::Spin => "spin",
            OptionKind::Slider => "slider",
            OptionKind::Combo => "combo",
            OptionKind::File => "file",
            OptionKind::Path => "path",
        }
    }
}

/// One option a plugin offers in the GUI's engine settings.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: RString,
    pub kind: OptionKind,
    /// The default value as text (`"1"`, `"64"`, a combo choice, a path).
    pub default: RString,
    /// Range of spin and slider options; ignored for the other kinds.
    pub min: i64,
    pub max: i64,
    /// Choices of a combo option; ignored for the other kinds.
    pub choices: RVec<RString>,
}

impl OptionSpec {
    fn plain(name: &str, kind: OptionKind, default: &str) -> OptionSpec {
        OptionSpec { name: name.into(), kind, default: default.into(), min: 0, max: 0, choices: RVec::new() }
    }

    pub fn button(name: &str) -> OptionSpec {
        OptionSpec::plain(name, OptionKind::Button, "")
    }

    pub fn save(name: &str) -> OptionSpec {
        OptionSpec::plain(name, OptionKind::Save, "")
    }

    pub fn reset(name: &str) -> OptionSpec {
        OptionSpec::plain(name, OptionKind::Reset, "")
    }

    pub fn check(name: &str, default: bool) -> OptionSpec {
        OptionSpec::plain(name, OptionKind::Check, if default { "1" } else { "0" })
    }

    pub fn spin(name: &str, default: i64, min: i64, max: i64) -> OptionSpec {
        OptionSpec { min, max, ..OptionSpec::plain(name, OptionKind::Spin, &default.to_string()) }
    }

    pub fn slider(name: &str, default: i64, min: i64, max: i64) -> OptionSpec {
        OptionSpec { kind: OptionKind::Slider, ..OptionSpec::spin(name, default, min, max) }
    }

    pub fn string(name: &str, default: &str) -> OptionSpec {
        OptionSpec::plain(name, OptionKind::String, default)
    }

    pub fn combo(name: &str, default: &str, choices: &[&str]) -> OptionSpec {
        OptionSpec {
            choices: choices.iter().map(|&c| RString::from(c)).collect(),
            ..OptionSpec::plain(name, OptionKind::Combo, default)
        }
    }

    pub fn file(name: &str, default: &str) -> OptionSpec {
        OptionSpec::plain(name, OptionKind::File, default)
    }

    pub fn path(name: &str, default: &str) -> OptionSpec {
        OptionSpec::plain(name, OptionKind::Path, default)
    }
}

/// What a plugin says about itself.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct PluginInfo {
    /// Short, unique among plugins of its kind; what the GUI's drop-down shows.
    pub name: RString,
    pub version: RString,
    pub author: RString,
    pub description: RString,
    pub options: RVec<OptionSpec>,
    /// The rules the plugin plays, as CECP variant names separated by commas (see
    /// [`crate::Variant::cecp_name`]); `fischerandom` means Chess960, `xiangqi` is
    /// played on a [`crate::BoardPosition`]. The host never hands a plugin a
    /// position of rules it did not list.
    ///
    /// Empty means `normal` only for a search, and every 8×8 variant for an
    /// evaluation (they all use [`crate::Position`]).
    pub variants: RString,
}

impl PluginInfo {
    pub fn new(name: &str, version: &str) -> PluginInfo {
        PluginInfo {
            name: name.into(),
            version: version.into(),
            author: RString::new(),
            description: RString::new(),
            options: RVec::new(),
            variants: RString::new(),
        }
    }

    pub fn author(mut self, author: &str) -> PluginInfo {
        self.author = author.into();
        self
    }

    pub fn description(mut self, description: &str) -> PluginInfo {
        self.description = description.into();
        self
    }

    pub fn variants(mut self, names: &str) -> PluginInfo {
        self.variants = names.into();
        self
    }

    /// Whether a search plugin says it can search `name` (a CECP variant name).
    pub fn supports_variant(&self, name: &str) -> bool {
        if self.variants.is_empty() {
            return name == "normal";
        }
        self.lists(name)
    }

    /// Whether an evaluation plugin says it can score positions of `name` (a CECP
    /// variant name).
    pub fn evaluates_variant(&self, name: &str) -> bool {
        if self.variants.is_empty() {
            return crate::Variant::from_cecp_name(name).is_none_or(|variant| variant.is_8x8());
        }
        self.lists(name)
    }

    fn lists(&self, name: &str) -> bool {
        self.variants.split(',').any(|listed| listed.trim() == name)
    }

    pub fn option(mut self, option: OptionSpec) -> PluginInfo {
        self.options.push(option);
        self
    }
}
