//! Every plugin known to this process: the built-in fallbacks and the files found,
//! with what was refused and why.

use std::{
    fmt,
    path::{Path, PathBuf},
    time::SystemTime,
};

use plugboard_alphabeta::AlphaBeta;
use plugboard_eval_pesto::Pesto;
use plugboard_plugin_api::{EvalModuleRef, EvalPlugin, PluginInfo, SearchModuleRef, SearchPlugin};

use super::{
    discovery::{self, Folder},
    examine::Verdict,
    loader::{self, Loaded},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Search,
    Eval,
}

impl Kind {
    /// What the GUI's drop-down for this kind is called.
    pub fn option_name(self) -> &'static str {
        match self {
            Kind::Search => "Search",
            Kind::Eval => "Evaluation",
        }
    }

    /// The plugin that is linked in, and chosen unless the user says otherwise:
    /// the strongest we ship. For evaluations that is the chess network; in
    /// games it does not score, the first built-in that does takes over
    /// (see `PluginHost::evaluator_for`), which is why the strongest of each
    /// game is linked in first.
    pub fn default_name(self) -> &'static str {
        match self {
            Kind::Search => "alphabeta",
            Kind::Eval => "nnue",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Search => "search",
            Kind::Eval => "evaluation",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Builtin,
    File(PathBuf),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Builtin => f.write_str("(built in)"),
            Origin::File(path) => write!(f, "{}", path.display()),
        }
    }
}

#[derive(Clone, Copy)]
pub enum Module {
    Search(SearchModuleRef),
    Eval(EvalModuleRef),
}

#[derive(Clone)]
pub struct Plugin {
    pub kind: Kind,
    pub info: PluginInfo,
    pub origin: Origin,
    /// The loaded library's entry points; `None` for a file examined but not
    /// (yet) chosen, which is never mapped into the engine.
    pub module: Option<Module>,
    /// Why the plugin may no longer be used, once it has failed.
    pub disabled: Option<String>,
    stamp: Option<(SystemTime, u64)>,
}

impl Plugin {
    pub fn name(&self) -> &str {
        self.info.name.as_str()
    }

    pub fn search_module(&self) -> Option<SearchModuleRef> {
        match self.module {
            Some(Module::Search(module)) => Some(module),
            _ => None,
        }
    }

    pub fn eval_module(&self) -> Option<EvalModuleRef> {
        match self.module {
            Some(Module::Eval(module)) => Some(module),
            _ => None,
        }
    }

    pub fn is_loaded(&self) -> bool {
        self.module.is_some()
    }

    /// Whether this is the built-in copy of `file`'s plugin (same kind and name).
    pub fn is_twin_builtin_of(&self, file: &Plugin) -> bool {
        self.origin == Origin::Builtin && self.kind == file.kind && self.name() == file.name()
    }
}

fn stamp_of(path: &Path) -> Option<(SystemTime, u64)> {
    std::fs::metadata(path).ok().and_then(|m| Some((m.modified().ok()?, m.len())))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub path: PathBuf,
    pub reason: String,
}

/// What one scan changed.
#[derive(Debug, Default)]
pub struct ScanReport {
    pub loaded: Vec<(Kind, String, PathBuf)>,
    pub refused: Vec<Refusal>,
}

pub struct Registry {
    plugins: Vec<Plugin>,
    refused: Vec<Refusal>,
    /// Plugins beside the engine under names it does not take there, as the
    /// latest scan found them.
    misplaced: Vec<Refusal>,
}

impl Registry {
    /// Only the plugins linked into the binary.
    pub fn with_builtins() -> Registry {
        let mut registry = Registry { plugins: Vec::new(), refused: Vec::new(), misplaced: Vec::new() };
        registry.link_search::<AlphaBeta>();
        registry.link_eval::<plugboard_eval_nnue::Nnue>();
        registry.link_eval::<Pesto>();
        // The chess evaluations score 8×8 boards only; xiangqi has evaluations of
        // its own, the network first, as it is the stronger.
        registry.link_eval::<plugboard_eval_nnue::xiangqi::XiangqiNnue>();
        registry.link_eval::<plugboard_eval_xiangqi::XiangqiPst>();
        registry.link_eval::<plugboard_eval_fairy::Fairy>();
        registry
    }

    /// Adds a search plugin linked into this binary.
    pub fn link_search<P: SearchPlugin>(&mut self) {
        self.link(Kind::Search, P::info(), Module::Search(P::module()));
    }

    /// Adds an evaluation plugin linked into this binary.
    pub fn link_eval<P: EvalPlugin>(&mut self) {
        self.link(Kind::Eval, P::info(), Module::Eval(P::module()));
    }

    fn link(&mut self, kind: Kind, info: PluginInfo, module: Module) {
        self.plugins.push(Plugin {
            kind,
            info,
            origin: Origin::Builtin,
            module: Some(module),
            disabled: None,
            stamp: None,
        });
    }

    pub fn plugins(&self) -> &[Plugin] {
        &self.plugins
    }

    /// The files refused by the latest scan.
    pub fn refused(&self) -> &[Refusal] {
        &self.refused
    }

    /// The plugins the latest scan found beside the engine under a name it
    /// does not take there, with where they would be found.
    pub fn misplaced(&self) -> &[Refusal] {
        &self.misplaced
    }

    pub fn set_misplaced(&mut self, misplaced: Vec<Refusal>) {
        self.misplaced = misplaced;
    }

    /// The libraries in `folders` that are new or changed since they were examined.
    /// Only folders are listed and files' metadata read: no file is opened.
    pub fn unexamined(&self, folders: &[Folder]) -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = Vec::new();
        for folder in folders {
            for path in discovery::candidates(folder) {
                let stamp = stamp_of(&path);
                let known = self.plugins.iter().find(|p| p.origin == Origin::File(path.clone()));
                if known.is_some_and(|plugin| plugin.stamp == stamp) {
                    continue;
                }
                paths.push(path);
            }
        }
        paths
    }

    /// Takes in what examining the files found: the plugins among them join the
    /// registry, and the rest are the refusals of this scan.
    pub fn take_verdicts(&mut self, verdicts: Vec<(PathBuf, Verdict)>) -> ScanReport {
        let mut report = ScanReport::default();
        for (path, verdict) in verdicts {
            self.consider(&path, verdict, &mut report);
        }
        self.refused = report.refused.clone();
        report
    }

    fn consider(&mut self, path: &Path, verdict: Verdict, report: &mut ScanReport) {
        let stamp = stamp_of(path);
        let known = self.plugins.iter().position(|p| p.origin == Origin::File(path.to_path_buf()));
        let refuse = |reason: String| Refusal { path: path.to_path_buf(), reason };
        let (kind, info) = match verdict {
            Verdict::Plugin { kind, info } => (kind, info),
            Verdict::Refused(reason) => {
                tracing::warn!(path = %path.display(), %reason, "plugin refused");
                report.refused.push(refuse(reason));
                return;
            }
        };
        let name = info.name.to_string();
        if name.trim().is_empty() || name.contains("///") || name.chars().any(|c| c.is_control() || c == '"') {
            report.refused.push(refuse(format!("its name {name:?} cannot be shown in a menu")));
            return;
        }
        let clash = self.plugins.iter().enumerate().find(|(index, p)| {
            p.kind == kind && p.name() == name && p.origin != Origin::Builtin && Some(*index) != known
        });
        if let Some((_, first)) = clash {
            report
                .refused
                .push(refuse(format!("another {kind} plugin named {name} was found first in {}", first.origin)));
            return;
        }
        tracing::info!(%kind, %name, version = %info.version, path = %path.display(), "plugin found");
        report.loaded.push((kind, name, path.to_path_buf()));
        let plugin =
            Plugin { kind, info, origin: Origin::File(path.to_path_buf()), module: None, disabled: None, stamp };
        match known {
            Some(index) => self.plugins[index] = plugin,
            None => self.plugins.push(plugin),
        }
    }

    /// Maps the library of the plugin `name` stands for into the engine, if it
    /// is a file not yet loaded. A file that fails now (changed since it was
    /// examined, or no longer there) is disabled with the reason.
    pub fn load(&mut self, kind: Kind, name: &str) -> Result<(), String> {
        let Some(index) = self.resolve_index(kind, name) else { return Ok(()) };
        let plugin = &self.plugins[index];
        let Origin::File(path) = plugin.origin.clone() else { return Ok(()) };
        if plugin.is_loaded() {
            return Ok(());
        }
        // Off the thread that answers the GUI: a library of hundreds of megabytes on
        // a slow disk, or load-time code slower than it was when examined.
        let owned = path.clone();
        let loaded = crate::files::off_thread("plugin-load", super::examine::PATIENCE, move || loader::load(&owned))
            .unwrap_or_else(|_| {
                Err(format!("loading it did not finish within {} s", super::examine::PATIENCE.as_secs()))
            });
        let loaded = match loaded {
            Ok(Loaded::Search(module, info)) if kind == Kind::Search => Ok((Module::Search(module), info)),
            Ok(Loaded::Eval(module, info)) if kind == Kind::Eval => Ok((Module::Eval(module), info)),
            Ok(_) => Err(format!("{} is no longer a {kind} plugin", path.display())),
            Err(why) => Err(why),
        };
        let plugin = &mut self.plugins[index];
        match loaded {
            Ok((module, info)) if info.name == plugin.info.name => {
                tracing::info!(%kind, %name, path = %path.display(), "plugin loaded");
                plugin.info = info;
                plugin.module = Some(module);
                Ok(())
            }
            Ok((_, info)) => {
                let why = format!("{} changed since it was examined: it is now {}", path.display(), info.name);
                plugin.disabled = Some(why.clone());
                Err(why)
            }
            Err(why) => {
                tracing::error!(%kind, %name, path = %path.display(), %why, "plugin not loaded");
                plugin.disabled = Some(format!("it failed to load: {why}"));
                Err(why)
            }
        }
    }

    /// The plugin a name stands for: a file found on disk before the built-in of that name.
    pub fn resolve(&self, kind: Kind, name: &str) -> Option<&Plugin> {
        self.resolve_index(kind, name).map(|index| &self.plugins[index])
    }

    fn resolve_index(&self, kind: Kind, name: &str) -> Option<usize> {
        let usable = |p: &Plugin| p.kind == kind && p.name() == name && p.disabled.is_none();
        let plugins = &self.plugins;
        (plugins.iter().position(|p| usable(p) && p.origin != Origin::Builtin))
            .or_else(|| plugins.iter().position(|p| usable(p) && p.origin == Origin::Builtin))
    }

    /// The names the GUI may choose from, the default first.
    pub fn names(&self, kind: Kind) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for plugin in &self.plugins {
            if plugin.kind == kind && plugin.disabled.is_none() && !names.iter().any(|n| n == plugin.name()) {
                names.push(plugin.name().to_owned());
            }
        }
        names.sort_by_key(|name| (name != kind.default_name(), name.clone()));
        names
    }

    /// Takes a plugin out of use after it failed; the built-in fallback stays usable.
    pub fn disable(&mut self, kind: Kind, origin: &Origin, name: &str, reason: &str) {
        for plugin in &mut self.plugins {
            let built_in_default = plugin.origin == Origin::Builtin && plugin.name() == kind.default_name();
            if plugin.kind == kind && &plugin.origin == origin && plugin.name() == name && !built_in_default {
                tracing::error!(%kind, %name, origin = %origin, %reason, "plugin disabled");
                plugin.disabled = Some(reason.to_owned());
            }
        }
    }
}
