//! One owner for every option the GUI sees: the host's own, the settings
//! buttons, the plugin choices and folders, and each chosen plugin's options.
//! It gives each a name no other option has, says who receives its value, and
//! writes and reads the settings file through the same list.

use plugboard_plugin_api::{OptionKind, OptionSpec};

use crate::{
    host_options::HostOptions,
    plugins::{OptionChange, PluginHost, Target},
};

pub const SAVE: &str = "Save settings";
pub const RESET: &str = "Reset settings";
/// A one-word option that sets any others: `NAME=VALUE; NAME=VALUE`. python-chess
/// (and so lichess-bot) cuts option names at their first space, so its
/// `configure()` cannot name `Move overhead`; it can name this.
pub const CONFIGURE: &str = "Configure";

/// Who takes an option's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Receiver {
    /// One of [`HostOptions`], by its name.
    Host,
    Save,
    Reset,
    Configure,
    /// The plugin host: a choice of plugin, a folder, or a plugin's own option.
    Plugins(Target),
}

/// An option as the GUI sees it: under its unique name, with its current value.
#[derive(Debug, Clone)]
pub struct Entry {
    pub spec: OptionSpec,
    pub value: String,
    pub receiver: Receiver,
}

/// What an accepted value changed, for the core to act on.
#[derive(Debug, PartialEq, Eq)]
pub enum Changed {
    /// The host option of this name took a new value.
    Host(String),
    Plugins(OptionChange),
    Save,
    /// Everything back to its default; the host's options as they were before.
    Reset {
        before: Box<HostOptions>,
    },
    /// `Configure`'s value: the settings it lists, still to be set one by one.
    Configure(String),
    /// A file or folder for a plugin's own option, which the plugin reads as it
    /// takes it: handed over by the core, off its thread.
    PluginFile {
        target: Target,
        value: String,
    },
}

/// Why a value was not taken.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    Unknown,
    /// The option exists; the value does not fit it, or its receiver refused it.
    BadValue(String),
}

/// The host's own option values; the plugins' stay with the plugin host, which
/// gives them back to a plugin that is loaded again.
#[derive(Debug, Default)]
pub struct Options {
    pub host: HostOptions,
}

impl Options {
    /// Every option in the order the GUI lists them: the host's, the settings
    /// buttons, then the plugin host's. A plugin option whose name is taken is
    /// shown as `PLUGIN: NAME`, so the name is the same whichever others are listed.
    pub fn entries(&self, plugins: &PluginHost) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self
            .host
            .specs()
            .into_iter()
            .map(|(spec, value)| Entry { spec, value, receiver: Receiver::Host })
            .collect();
        let buttons = [
            (OptionSpec::save(SAVE), Receiver::Save),
            (OptionSpec::reset(RESET), Receiver::Reset),
            (OptionSpec::string(CONFIGURE, ""), Receiver::Configure),
        ];
        entries.extend(buttons.into_iter().map(|(spec, receiver)| Entry { spec, value: String::new(), receiver }));
        let offered = plugins.offered();
        // Every name the host gives out first, so a plugin cannot take one before it.
        let mut taken: Vec<String> = entries.iter().map(|e| e.spec.name.to_string()).collect();
        taken.extend(offered.iter().filter(|(t, ..)| !t.is_plugin_own()).map(|(_, spec, _)| spec.name.to_string()));
        for (target, mut spec, value) in offered {
            if let Target::Plugin { plugin, option, .. } = &target {
                let name = unique_name(&taken, plugin, option);
                taken.push(name.clone());
                spec.name = name.into();
            }
            entries.push(Entry { spec, value, receiver: Receiver::Plugins(target) });
        }
        entries
    }

    /// `option NAME=VALUE`: the value checked against the option and handed to its receiver.
    pub fn set(&mut self, plugins: &mut PluginHost, name: &str, value: Option<&str>) -> Result<Changed, Refused> {
        let entries = self.entries(plugins);
        let entry = match entries.iter().position(|e| e.spec.name == name) {
            Some(index) => entries[index].clone(),
            // Before the names had a colon, a taken name was shown as `PLUGIN NAME`:
            // settings saved then, and GUIs' stored values, still reach the option.
            None => entries.into_iter().find(|e| is_old_name(e, name)).ok_or(Refused::Unknown)?,
        };
        let value = validate(&entry.spec, value).map_err(Refused::BadValue)?;
        match entry.receiver {
            Receiver::Host => {
                self.host.set(name, &value).map_err(Refused::BadValue)?;
                Ok(Changed::Host(name.to_owned()))
            }
            Receiver::Save => Ok(Changed::Save),
            Receiver::Reset => {
                let before = Box::new(std::mem::take(&mut self.host));
                plugins.reset();
                Ok(Changed::Reset { before })
            }
            Receiver::Configure => Ok(Changed::Configure(value)),
            Receiver::Plugins(target) => {
                if target.is_plugin_own() && matches!(entry.spec.kind, OptionKind::File | OptionKind::Path) {
                    return Ok(Changed::PluginFile { target, value });
                }
                let keep = !matches!(entry.spec.kind, OptionKind::Button | OptionKind::Save | OptionKind::Reset);
                plugins.set(&target, value, keep).map(Changed::Plugins).map_err(Refused::BadValue)
            }
        }
    }

    /// The settings worth saving, by their shown names: every option with a
    /// value, the plugin folder first (a plugin found only there can be chosen
    /// once it is scanned), an unset folder not at all (restoring it would only rescan).
    pub fn saved(&self, plugins: &PluginHost) -> Vec<(String, String)> {
        let mut saved: Vec<(bool, String, String)> = self
            .entries(plugins)
            .into_iter()
            .filter_map(|entry| {
                let folder = entry.receiver == Receiver::Plugins(Target::Folder);
                let value = match &entry.receiver {
                    Receiver::Plugins(Target::Folder) => plugins.folder_option().to_owned(),
                    Receiver::Host | Receiver::Plugins(Target::Selection(_) | Target::Plugin { .. }) => entry.value,
                    Receiver::Save | Receiver::Reset | Receiver::Configure | Receiver::Plugins(Target::Rescan) => {
                        return None;
                    }
                };
                let valueless = matches!(entry.spec.kind, OptionKind::Button | OptionKind::Save | OptionKind::Reset);
                (!(valueless || folder && value.is_empty())).then(|| (folder, entry.spec.name.to_string(), value))
            })
            .collect();
        saved.sort_by_key(|(folder, ..)| !folder);
        saved.into_iter().map(|(_, name, value)| (name, value)).collect()
    }
}

/// Checks a value sent for `spec`; returns it normalised.
pub fn validate(spec: &OptionSpec, value: Option<&str>) -> Result<String, String> {
    let value = value.unwrap_or("").trim();
    match spec.kind {
        OptionKind::Button | OptionKind::Save | OptionKind::Reset => Ok(String::new()),
        OptionKind::Check => match value {
            "1" | "true" | "on" => Ok("1".into()),
            "0" | "false" | "off" => Ok("0".into()),
            _ => Err(format!("{} must be 0 or 1", spec.name)),
        },
        OptionKind::Spin | OptionKind::Slider => {
            let number: i64 = value.parse().map_err(|_| format!("{} must be a whole number", spec.name))?;
            if (spec.min..=spec.max).contains(&number) {
                Ok(number.to_string())
            } else {
                Err(format!("{} must be between {} and {}", spec.name, spec.min, spec.max))
            }
        }
        OptionKind::Combo => spec
            .choices
            .iter()
            .find(|choice| choice.as_str() == value)
            .map(|choice| choice.to_string())
            .ok_or_else(|| format!("{} has no choice named {value}", spec.name)),
        OptionKind::String | OptionKind::File | OptionKind::Path => Ok(value.to_owned()),
    }
}

/// Whether `name` is how `entry`, a plugin option shown under a prefixed name,
/// was named before: `PLUGIN NAME`.
fn is_old_name(entry: &Entry, name: &str) -> bool {
    match &entry.receiver {
        Receiver::Plugins(Target::Plugin { plugin, option, .. }) => {
            entry.spec.name != option.as_str() && name.strip_prefix(plugin.as_str()) == Some(&format!(" {option}"))
        }
        _ => false,
    }
}

/// The name a plugin's option is shown under: its own when free, else prefixed
/// with the plugin's name (and numbered, should even that be taken).
fn unique_name(taken: &[String], plugin: &str, option: &str) -> String {
    let free = |name: &str| !taken.iter().any(|t| t == name);
    if free(option) {
        return option.to_owned();
    }
    let prefixed = format!("{plugin}: {option}");
    if free(&prefixed) {
        return prefixed;
    }
    (2..).map(|n| format!("{prefixed} ({n})")).find(|name| free(name)).unwrap_or(prefixed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_is_prefixed_with_the_plugin_and_stays_unique() {
        let taken = vec!["Threads".to_owned(), "alphabeta: Hash".to_owned()];
        assert_eq!(unique_name(&taken, "alphabeta", "Null move"), "Null move");
        assert_eq!(unique_name(&taken, "alphabeta", "Threads"), "alphabeta: Threads");
        assert_eq!(unique_name(&taken, "alphabeta", "alphabeta: Hash"), "alphabeta: alphabeta: Hash");
        let taken = vec!["Hash".to_owned(), "alphabeta: Hash".to_owned()];
        assert_eq!(unique_name(&taken, "alphabeta", "Hash"), "alphabeta: Hash (2)");
    }

    #[test]
    fn values_are_checked_against_their_option() {
        let spin = OptionSpec::spin("Move overhead", 50, 0, 5000);
        assert_eq!(validate(&spin, Some("100")), Ok("100".into()));
        assert!(validate(&spin, Some("5001")).is_err());
        assert!(validate(&spin, Some("x")).is_err());
        let check = OptionSpec::check("Use book", true);
        assert_eq!(validate(&check, Some("true")), Ok("1".into()));
        assert!(validate(&check, Some("maybe")).is_err());
    }

    #[test]
    fn host_options_and_buttons_are_listed_and_reached() {
        let mut plugins = PluginHost::with_registry(crate::plugins::Registry::with_builtins(), Vec::new());
        let mut options = Options::default();
        let names: Vec<String> = options.entries(&plugins).iter().map(|e| e.spec.name.to_string()).collect();
        for name in ["Move overhead", "Threads", SAVE, RESET, CONFIGURE, "Search", "Evaluation", "Plugin folder"] {
            assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name} in {names:?}");
        }
        assert_eq!(options.set(&mut plugins, "Threads", Some("3")), Ok(Changed::Host("Threads".into())));
        assert_eq!(options.host.threads, 3);
        assert!(matches!(options.set(&mut plugins, "Threads", Some("0")), Err(Refused::BadValue(_))));
        assert_eq!(options.set(&mut plugins, "Hash", Some("3")), Err(Refused::Unknown));
        assert_eq!(options.set(&mut plugins, SAVE, None), Ok(Changed::Save));
        let reset = options.set(&mut plugins, RESET, None);
        assert!(matches!(&reset, Ok(Changed::Reset { before }) if before.threads == 3), "{reset:?}");
        assert_eq!(options.host.threads, 1);
    }
}
