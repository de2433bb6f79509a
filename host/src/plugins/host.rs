//! The plugins in use: which search and evaluation the user chose, the options
//! each plugin offers and their values, rescanning, and falling back after a fault.

use std::{collections::HashMap, path::PathBuf};

use abi_stable::std_types::RStr;
use plugboard_plugin_api::{
    BoardEvaluatorSource, DefinedEvaluatorSource, EvaluatorSource, OptionSpec, SearchModuleRef, Variant,
};

use super::{
    Kind, Origin, Plugin, Registry,
    discovery::{self, Folder},
    examine::{Examiner, Verdict},
    file_options::SetOption,
    registry::{Refusal, ScanReport},
    symbols,
};

pub const RESCAN_OPTION: &str = "Rescan plugins";
pub const FOLDER_OPTION: &str = "Plugin folder";

/// An evaluation's entry for the positions a search is handed: its chess
/// evaluators, or its evaluators of other boards.
#[derive(Clone, Copy)]
pub enum EvalSource {
    Chess(EvaluatorSource),
    Board(BoardEvaluatorSource),
    Defined(DefinedEvaluatorSource),
}

/// Whether a game of `variant` (a CECP name) is played on 8×8 with [`plugboard_plugin_api::Position`]s.
fn is_8x8(variant: &str) -> bool {
    Variant::from_cecp_name(variant).is_none_or(Variant::is_8x8)
}

/// What an accepted `option` command changed.
#[derive(Debug, PartialEq, Eq)]
pub enum OptionChange {
    /// A value of a plugin of this kind, which the next search will see; nothing to announce.
    Value(Kind),
    /// The chosen plugin of this kind changed (or the choices did): options must be re-advertised.
    Selection(Kind),
    /// The plugin folders must be scanned again ([`PluginHost::begin_scan`]):
    /// a rescan was asked for, or the folders changed.
    ScanNeeded,
}

/// A scan's slow part, examining unknown files in child processes, which may
/// take seconds: it runs wherever the caller likes, and
/// [`PluginHost::finish_scan`] takes in what it found.
pub struct ScanWork {
    paths: Vec<PathBuf>,
    /// Libraries beside the engine not named as plugins: only their symbols are read.
    strangers: Vec<PathBuf>,
    /// Made where the work runs when there is none yet: it reads the cache of verdicts.
    examiner: Option<Examiner>,
}

impl ScanWork {
    pub fn run(self) -> Examined {
        let mut examiner = self.examiner.unwrap_or_default();
        let verdicts = examiner.examine(&self.paths);
        let misplaced = self
            .strangers
            .into_iter()
            .filter(|path| symbols::exports_entry_point(path) == Ok(true))
            .map(|path| {
                let reason = misplaced_reason(&path);
                tracing::warn!(path = %path.display(), %reason, "plugin beside the engine not loaded");
                Refusal { path, reason }
            })
            .collect();
        Examined { examiner, verdicts, misplaced }
    }
}

/// Why a plugin beside the engine under another name is not loaded, and where it would be.
fn misplaced_reason(path: &std::path::Path) -> String {
    let user_folder = discovery::user_plugin_folder()
        .map_or_else(|| "a folder named by PLUGBOARD_PLUGIN_PATH".to_owned(), |folder| folder.display().to_string());
    format!(
        "beside the engine only libraries named {}plugboard_* are taken as plugins (that folder holds the \
         build's other libraries too); put it in {user_folder}, or rename it {}",
        std::env::consts::DLL_PREFIX,
        discovery::name_beside_the_engine(path)
    )
}

/// What a [`ScanWork`] found.
pub struct Examined {
    examiner: Examiner,
    verdicts: Vec<(PathBuf, Verdict)>,
    misplaced: Vec<Refusal>,
}

/// Where an offered option's value goes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    Selection(Kind),
    Rescan,
    Folder,
    /// A chosen plugin's own option, by the plugin's name for it.
    Plugin {
        kind: Kind,
        plugin: String,
        option: String,
    },
}

impl Target {
    pub fn is_plugin_own(&self) -> bool {
        matches!(self, Target::Plugin { .. })
    }
}

pub struct PluginHost {
    registry: Registry,
    search: String,
    eval: String,
    /// Folders from the command line, always scanned.
    extra_folders: Vec<PathBuf>,
    /// The `Plugin folder` option, scanned when not empty.
    folder_option: String,
    /// Values the user set, by (kind, plugin, option), re-applied to reloaded plugins.
    values: HashMap<(Kind, String, String), String>,
    /// Made on the first scan: it reads the cache of verdicts.
    examiner: Option<Examiner>,
}

impl PluginHost {
    pub fn new(extra_folders: Vec<PathBuf>) -> PluginHost {
        PluginHost::with_registry(Registry::with_builtins(), extra_folders)
    }

    /// A host over a given registry: for embedding, and for tests with linked-in fakes.
    pub fn with_registry(registry: Registry, extra_folders: Vec<PathBuf>) -> PluginHost {
        PluginHost {
            registry,
            search: Kind::Search.default_name().to_owned(),
            eval: Kind::Eval.default_name().to_owned(),
            extra_folders,
            folder_option: String::new(),
            values: HashMap::new(),
            examiner: None,
        }
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub fn folders(&self) -> Vec<Folder> {
        let mut extra = self.extra_folders.clone();
        if !self.folder_option.trim().is_empty() {
            extra.push(PathBuf::from(self.folder_option.trim()));
        }
        discovery::folders(&extra)
    }

    /// Finds new and changed plugin files (examined out of process), then loads
    /// the chosen plugins into the engine; the report names every file refused.
    pub fn scan(&mut self) -> ScanReport {
        let work = self.begin_scan();
        self.finish_scan(work.run())
    }

    /// A scan's first part: which files need examining (folders are listed, no
    /// file is opened), and the examiner to do it.
    pub fn begin_scan(&mut self) -> ScanWork {
        let folders = self.folders();
        for folder in &folders {
            tracing::debug!(folder = %folder.path.display(), "scanning for plugins");
        }
        let strangers = folders.iter().flat_map(discovery::strangers).collect();
        ScanWork { paths: self.registry.unexamined(&folders), strangers, examiner: self.examiner.take() }
    }

    /// A scan's last part: the files examined join the registry, and the chosen
    /// plugins are loaded into the engine.
    pub fn finish_scan(&mut self, examined: Examined) -> ScanReport {
        let Examined { examiner, verdicts, misplaced } = examined;
        self.examiner = Some(examiner);
        let mut report = self.registry.take_verdicts(verdicts);
        self.registry.set_misplaced(misplaced);
        for kind in [Kind::Search, Kind::Eval] {
            if let Err(refusal) = self.activate(kind) {
                report.refused.push(refusal);
            }
        }
        report
    }

    /// Loads the chosen plugin of `kind` if it is a file not loaded yet, and
    /// gives it the option values the user set. When it cannot be loaded it is
    /// disabled, and the default takes over.
    fn activate(&mut self, kind: Kind) -> Result<(), Refusal> {
        let name = self.selected_name(kind).to_owned();
        let loaded = self.registry.load(kind, &name);
        if let Err(why) = &loaded {
            let path = match self.registry.plugins().iter().find(|p| p.kind == kind && p.name() == name) {
                Some(Plugin { origin: Origin::File(path), .. }) => path.clone(),
                _ => PathBuf::from(&name),
            };
            // The default's file may not be loaded yet either.
            if name != kind.default_name() {
                let _ = self.registry.load(kind, kind.default_name());
            }
            return Err(Refusal { path, reason: format!("it failed to load: {why}") });
        }
        self.reapply_values(kind, &name);
        Ok(())
    }

    pub fn selected_name(&self, kind: Kind) -> &str {
        match kind {
            Kind::Search => &self.search,
            Kind::Eval => &self.eval,
        }
    }

    /// The plugin in use for `kind`: the chosen one, or the built-in default if
    /// the chosen one is gone or disabled.
    pub fn selected(&self, kind: Kind) -> &Plugin {
        let loaded = |plugin: &&Plugin| plugin.is_loaded();
        self.registry
            .resolve(kind, self.selected_name(kind))
            .filter(loaded)
            .or_else(|| self.registry.resolve(kind, kind.default_name()).filter(loaded))
            .or_else(|| self.registry.plugins().iter().find(|p| p.kind == kind && p.origin == Origin::Builtin))
            .expect("the built-in default of every kind is linked in and never disabled")
    }

    /// The search for a game of `variant` (a CECP name): the chosen one, or the
    /// built-in one when the chosen one does not say it can play the variant (or,
    /// for a board other than 8×8, was built before such boards crossed the
    /// boundary, or plays moves of fewer legs than `move_legs`, the most the
    /// variant's have).
    pub fn search_module(&self, variant: &str, move_legs: u32) -> (SearchModuleRef, &Plugin) {
        let plays = |plugin: &Plugin| {
            let entry = |module: SearchModuleRef| {
                if variant == Variant::DEFINED.cecp_name() {
                    module.search_defined().is_some() && module.move_legs() >= move_legs
                } else {
                    module.search_board().is_some()
                }
            };
            plugin.info.supports_variant(variant) && (is_8x8(variant) || plugin.search_module().is_some_and(entry))
        };
        let chosen = self.selected(Kind::Search);
        let plugin = if plays(chosen) {
            chosen
        } else {
            self.registry
                .plugins()
                .iter()
                .find(|p| p.kind == Kind::Search && p.origin == Origin::Builtin && p.disabled.is_none() && plays(p))
                .unwrap_or(chosen)
        };
        let module = plugin.search_module().expect("search plugins hold search modules");
        (module, plugin)
    }

    /// The evaluation for a game of `variant` (a CECP name): the chosen one if it
    /// scores such positions, else the first built-in one that does. The user
    /// picks one evaluation; it is used wherever it can be.
    pub fn evaluator_for(&self, variant: &str) -> (EvalSource, &Plugin) {
        let source = |plugin: &Plugin| {
            let module = plugin.eval_module()?;
            if !plugin.info.evaluates_variant(variant) {
                return None;
            }
            if is_8x8(variant) {
                Some(EvalSource::Chess(module.source()))
            } else if variant == Variant::DEFINED.cecp_name() {
                module.defined_source().map(EvalSource::Defined)
            } else {
                module.board_source().map(EvalSource::Board)
            }
        };
        let chosen = self.selected(Kind::Eval);
        if let Some(found) = source(chosen) {
            return (found, chosen);
        }
        let builtin = self.registry.plugins().iter().filter(|p| p.kind == Kind::Eval && p.origin == Origin::Builtin);
        for plugin in builtin.filter(|p| p.disabled.is_none()) {
            if let Some(found) = source(plugin) {
                return (found, plugin);
            }
        }
        // Nothing scores this game: the chosen one, which refuses when asked.
        let module = chosen.eval_module().expect("evaluation plugins hold evaluation modules");
        (EvalSource::Chess(module.source()), chosen)
    }

    /// Every variant (CECP names) a usable search plugin lists, each once, the
    /// built-in search's first.
    pub fn variants(&self) -> Vec<String> {
        let mut searches: Vec<&Plugin> =
            self.registry.plugins().iter().filter(|p| p.kind == Kind::Search && p.disabled.is_none()).collect();
        searches.sort_by_key(|p| p.origin != Origin::Builtin);
        let mut variants: Vec<String> = Vec::new();
        for plugin in searches {
            let listed = if plugin.info.variants.is_empty() { "normal" } else { plugin.info.variants.as_str() };
            for name in listed.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                if !variants.iter().any(|v| v == name) {
                    variants.push(name.to_owned());
                }
            }
        }
        variants
    }

    /// What the evaluation plugin from `origin` last panicked with, and where;
    /// its evaluators' panics reach the host only as failed scores.
    pub fn last_eval_panic(&self, origin: &Origin, name: &str) -> Option<String> {
        let plugin =
            self.registry.plugins().iter().find(|p| p.kind == Kind::Eval && &p.origin == origin && p.name() == name)?;
        plugin.eval_module()?.last_panic()
    }

    /// Takes a failed plugin out of use; returns the name of the one that takes over.
    pub fn disable(&mut self, kind: Kind, origin: &Origin, name: &str, reason: &str) -> String {
        self.registry.disable(kind, origin, name, reason);
        let _ = self.registry.load(kind, kind.default_name());
        let fallback = self.selected(kind).name().to_owned();
        match kind {
            Kind::Search => self.search = fallback.clone(),
            Kind::Eval => self.eval = fallback.clone(),
        }
        fallback
    }

    /// The `Plugin folder` option as the user set it (empty: none).
    pub fn folder_option(&self) -> &str {
        &self.folder_option
    }

    /// Every option this host offers, with its current value: the plugin
    /// choices, rescan, the folder, then the chosen plugins' own options under
    /// their own names (the option registry gives them unique ones).
    pub fn offered(&self) -> Vec<(Target, OptionSpec, String)> {
        let mut list = Vec::new();
        for kind in [Kind::Search, Kind::Eval] {
            let names = self.registry.names(kind);
            let choices: Vec<&str> = names.iter().map(String::as_str).collect();
            let current = self.selected(kind).name().to_owned();
            list.push((Target::Selection(kind), OptionSpec::combo(kind.option_name(), &current, &choices), current));
        }
        list.push((Target::Rescan, OptionSpec::button(RESCAN_OPTION), String::new()));
        let shown_folder = if self.folder_option.is_empty() {
            // Show where plugins go by default, so the user knows where to drop one.
            discovery::user_plugin_folder().map(|p| p.display().to_string()).unwrap_or_default()
        } else {
            self.folder_option.clone()
        };
        list.push((Target::Folder, OptionSpec::path(FOLDER_OPTION, ""), shown_folder));
        for kind in [Kind::Search, Kind::Eval] {
            let plugin = self.selected(kind);
            for spec in plugin.info.options.iter() {
                let key = (kind, plugin.name().to_owned(), spec.name.to_string());
                let value = self.values.get(&key).cloned().unwrap_or_else(|| spec.default.to_string());
                let target = Target::Plugin { kind, plugin: key.1, option: key.2 };
                list.push((target, spec.clone(), value));
            }
        }
        list
    }

    /// Hands a checked value to `target`; `keep` says whether the value is one
    /// to give back to the plugin when it is loaded again (not a button press).
    pub fn set(&mut self, target: &Target, value: String, keep: bool) -> Result<OptionChange, String> {
        match target {
            Target::Selection(kind) => {
                let kind = *kind;
                match kind {
                    Kind::Search => self.search = value.clone(),
                    Kind::Eval => self.eval = value.clone(),
                }
                if let Err(refusal) = self.activate(kind) {
                    let fallback = self.selected(kind).name().to_owned();
                    return Err(format!("{value} cannot be used, {}; {fallback} stays", refusal.reason));
                }
                let plugin = self.selected(kind);
                tracing::info!(%kind, name = %plugin.name(), origin = %plugin.origin, "plugin selected");
                Ok(OptionChange::Selection(kind))
            }
            Target::Rescan => {
                if let Some(examiner) = &mut self.examiner {
                    examiner.forget_timeouts();
                }
                Ok(OptionChange::ScanNeeded)
            }
            Target::Folder => {
                self.folder_option = value;
                Ok(OptionChange::ScanNeeded)
            }
            Target::Plugin { kind, plugin, option } => {
                self.apply(*kind, plugin, option, &value)?;
                if keep {
                    self.values.insert((*kind, plugin.clone(), option.clone()), value);
                }
                Ok(OptionChange::Value(*kind))
            }
        }
    }

    /// Back to the defaults: the default plugins, no extra folder, every plugin
    /// option at its default value.
    pub fn reset(&mut self) {
        self.search = Kind::Search.default_name().to_owned();
        self.eval = Kind::Eval.default_name().to_owned();
        self.folder_option.clear();
        for kind in [Kind::Search, Kind::Eval] {
            if let Err(refusal) = self.activate(kind) {
                tracing::warn!(%kind, reason = %refusal.reason, "default plugin file not loaded");
            }
        }
        for ((kind, plugin, option), _) in std::mem::take(&mut self.values) {
            let default = self.registry.resolve(kind, &plugin).and_then(|p| {
                p.info.options.iter().find(|spec| spec.name.as_str() == option).map(|spec| spec.default.to_string())
            });
            if let Some(default) = default
                && let Err(why) = self.apply(kind, &plugin, &option, &default)
            {
                tracing::warn!(%kind, %plugin, %option, %why, "option not reset");
            }
        }
    }

    fn apply(&self, kind: Kind, plugin: &str, option: &str, value: &str) -> Result<(), String> {
        let set = self.setter(kind, plugin)?;
        set(RStr::from_str(option), RStr::from_str(value)).into_result().map_err(|e| e.to_string())
    }

    fn setter(&self, kind: Kind, plugin: &str) -> Result<SetOption, String> {
        let Some(plugin) = self.registry.resolve(kind, plugin) else {
            return Err(format!("the {kind} plugin {plugin} is not available"));
        };
        match plugin.module {
            Some(super::registry::Module::Search(module)) => Ok(module.set_option()),
            Some(super::registry::Module::Eval(module)) => Ok(module.set_option()),
            None => Err(format!("the {kind} plugin {} is not loaded", plugin.name())),
        }
    }

    /// The entry a plugin's own option (`target`) is set through, and the
    /// plugin's name for the option, for a caller that sets it on another thread
    /// (see [`super::file_options`]) and then [`PluginHost::remember`]s the value.
    pub fn option_setter(&self, target: &Target) -> Result<(SetOption, String), String> {
        match target {
            Target::Plugin { kind, plugin, option } => Ok((self.setter(*kind, plugin)?, option.clone())),
            _ => Err("not a plugin's own option".to_owned()),
        }
    }

    /// Keeps a value a plugin took through [`PluginHost::option_setter`], to be
    /// shown as the option's value and given back to the plugin if it is loaded again.
    pub fn remember(&mut self, target: &Target, value: String) {
        if let Target::Plugin { kind, plugin, option } = target {
            self.values.insert((*kind, plugin.clone(), option.clone()), value);
        }
    }

    fn reapply_values(&self, kind: Kind, plugin: &str) {
        if !self.registry.resolve(kind, plugin).is_some_and(Plugin::is_loaded) {
            return;
        }
        for ((k, p, option), value) in &self.values {
            if *k == kind
                && p == plugin
                && let Err(why) = self.apply(kind, plugin, option, value)
            {
                tracing::warn!(%kind, %plugin, %option, %why, "option not restored after reload");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use plugboard_plugin_api::{PluginInfo, Reporter, SearchOutcome, SearchPlugin, SearchRequest};

    use super::*;

    struct Shatranj;

    impl SearchPlugin for Shatranj {
        fn info() -> PluginInfo {
            PluginInfo::new("shatranj-only", "0.1.0").variants("normal, shatranj,shogi")
        }

        fn search(_: &SearchRequest<'_>, _: EvaluatorSource, _: Reporter<'_>) -> Result<SearchOutcome, String> {
            Err("not for searching".into())
        }
    }

    #[test]
    fn the_variants_are_those_of_every_usable_search_each_once_the_built_ins_first() {
        let mut registry = Registry::with_builtins();
        let builtin = PluginHost::with_registry(Registry::with_builtins(), Vec::new()).variants();
        registry.link_search::<Shatranj>();
        let mut host = PluginHost::with_registry(registry, Vec::new());
        let mut expected = builtin.clone();
        expected.extend(["shatranj".to_owned(), "shogi".to_owned()]);
        assert_eq!(host.variants(), expected);
        assert!(builtin.iter().any(|v| v == "normal") && !builtin.iter().any(|v| v == "shatranj"), "{builtin:?}");
        host.disable(Kind::Search, &Origin::Builtin, "shatranj-only", "a test");
        assert_eq!(host.variants(), builtin);
    }
}
