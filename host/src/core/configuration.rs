//! What changing an option or a file brings about: the settings file read and
//! written, the log moved, the book and the tables opened (late ones taken when
//! they arrive), the plugin folders scanned again.

use std::{path::PathBuf, sync::Arc};

use super::{
    Applied, Changed, Core, Note, Refusal, Refused,
    knowledge::{self, Arrival},
};
use crate::{
    event::{Event, ExaminedPlugins, LoadedTables},
    files, host_options,
    plugins::{
        Examined, Kind, OptionChange, Target,
        file_options::{CallEnd, FileCall},
    },
    settings,
    tablebases::Problems,
};

/// How long reading the saved settings may hold the start-up.
const SETTINGS_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);
/// How long examining plugin files may hold the engine before it goes on and
/// takes in the findings when they arrive (a library whose load-time code hangs
/// holds its examination for [`crate::plugins::examine::PATIENCE`]).
const SCAN_PATIENCE: std::time::Duration = std::time::Duration::from_secs(1);
/// How long reading a variant definition file may hold the GUI's answer.
const VARIANT_FILE_PATIENCE: std::time::Duration = std::time::Duration::from_millis(200);

impl Core {
    /// `egtpath KIND PATHS`: tablebases of a kind the engine reads, in place of the ones before.
    pub fn open_tables(&mut self, kind: &str, paths: &str) -> Result<(), Refusal> {
        if kind != "syzygy" {
            return Err(Refusal::UnsupportedTables);
        }
        match self.knowledge.open_tables(paths) {
            (generation, Arrival::Now((tables, problems))) => self.tables_opened(generation, paths, tables, &problems),
            (generation, Arrival::Later(later)) => {
                self.debug(format!("Syzygy tablebases in {paths} are still opening; used once they have"));
                let paths = paths.to_owned();
                self.forward_when_done("tables-wait", later, move |loaded| {
                    let loaded = Arc::new(LoadedTables(std::sync::Mutex::new(Some(loaded))));
                    Event::TablesLoaded { generation, paths, loaded }
                });
            }
        }
        Ok(())
    }

    /// Saves settings to `path` from now on, and applies what it already holds;
    /// what cannot be restored is told.
    pub fn use_settings_file(&mut self, path: PathBuf) {
        self.settings_path = Some(path.clone());
        // Off the thread that answers the GUI, as every file the engine reads.
        let read = files::off_thread("settings", SETTINGS_PATIENCE, move || settings::load(&path));
        let read = read.unwrap_or_else(|_| Err("reading them took too long".to_owned()));
        let mut saved = match read {
            Ok(saved) => saved,
            Err(why) => {
                tracing::warn!(%why, "saved settings not applied");
                self.note(Note::TellError(format!("Saved settings not applied: {why}")));
                return;
            }
        };
        // The folder first, also from files saved before it was written first: a
        // plugin found only there can be chosen once it is scanned.
        saved.sort_by_key(|(name, _)| name != crate::plugins::host::FOLDER_OPTION);
        let mut kept = self.take_notes();
        let mut refused = Vec::new();
        for (name, value) in saved {
            if let Err(why) = self.set_option(&name, Some(&value)) {
                tracing::warn!(%name, %value, ?why, "saved setting not restored");
                refused.push(format!("{name}={value}"));
            }
            for note in self.take_notes() {
                match note {
                    // Diagnostics go where diagnostics go; the rest is summed up below.
                    Note::Debug(_) => kept.push(note),
                    note => tracing::warn!(?note, "said while applying the saved settings"),
                }
            }
        }
        self.out = kept;
        // A choice that no longer applies (a plugin gone, say) must not pass unseen.
        if !refused.is_empty() {
            let message = format!("Saved settings not restored (see the log): {}", refused.join("; "));
            self.note(Note::Tell(message));
        }
    }

    /// `option NAME=VALUE`. `Configure` comes back for the front end to split
    /// into the settings it lists, each refused on its own in its protocol's words.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Applied, Refusal> {
        let resolved = self.option_named(name);
        let name = resolved.as_deref().unwrap_or(name);
        let changed = match self.options.set(&mut self.plugins, name, value) {
            Ok(changed) => changed,
            Err(Refused::Unknown) => return Err(Refusal::UnknownOption),
            Err(Refused::BadValue(why)) => {
                tracing::warn!(%name, ?value, %why, "option refused");
                // A plugin that failed to load has left the menu.
                if name == Kind::Search.option_name() || name == Kind::Eval.option_name() {
                    self.note(Note::OptionsChanged { purged: false });
                }
                return Err(Refusal::BadParameter(why));
            }
        };
        self.clock.overhead_ms = self.options.host.overhead_ms;
        match changed {
            Changed::Configure(settings) => return Ok(Applied::Configure(settings)),
            Changed::Save => self.save_settings(),
            Changed::Reset { before } => {
                let host = &self.options.host;
                if (&before.log_folder, before.log_files) != (&host.log_folder, host.log_files) {
                    self.move_log();
                }
                if before.book_file != self.options.host.book_file {
                    self.open_book();
                }
                self.clear_hash = true;
                // The GUI purged its option list when the button was pressed: always answer.
                self.note(Note::OptionsChanged { purged: true });
            }
            Changed::Host(name) => {
                if name == host_options::MULTI_PV && self.analyzing {
                    self.restart_analysis();
                }
                if name == host_options::LOG_FOLDER || name == host_options::LOG_FILES {
                    self.move_log();
                }
                if name == host_options::BOOK_FILE {
                    self.open_book();
                }
                if name == host_options::VARIANT_FILE {
                    self.read_variant_file();
                }
            }
            Changed::Plugins(change @ (OptionChange::Value(_) | OptionChange::Selection(_))) => {
                if let OptionChange::Selection(kind) = change {
                    // Chosen, but not for this game: as with any refused choice, the user is told.
                    if let Some(message) = self.stand_in(kind) {
                        self.note(Note::TellError(message));
                    }
                    self.note(Note::OptionsChanged { purged: false });
                    let notes = self.finger_notes();
                    if let Some(talk) = self.ics.plugins_changed(notes, self.wall_clock.now()) {
                        self.note(Note::Talk(talk));
                    }
                }
                self.plugin_value_changed();
            }
            Changed::Plugins(OptionChange::ScanNeeded) => self.rescan(),
            Changed::PluginFile { target, value } => self.hand_file_to_plugin(target, value),
        }
        Ok(Applied::Done)
    }

    /// A plugin's option that names a file: the plugin reads it as it takes it,
    /// on a thread of its own; a refusal is told the user, as of a book that
    /// does not open, and the value in use stays.
    fn hand_file_to_plugin(&mut self, target: Target, value: String) {
        let (set, name) = match self.plugins.option_setter(&target) {
            Ok(setter) => setter,
            Err(why) => {
                tracing::warn!(?target, %value, %why, "file option refused");
                self.note(Note::TellError(why));
                return;
            }
        };
        match self.file_options.call(set, target, name, value) {
            (call, Ok(end)) => self.plugin_file_taken(call, end),
            (call, Err(later)) => {
                self.debug(format!("{} is still being read; it is used once it has been", call.value));
                self.forward_when_done("plugin-file-wait", later, move |end| Event::PluginFileTaken { call, end });
            }
        }
    }

    pub(super) fn plugin_file_taken(&mut self, call: FileCall, end: CallEnd) {
        if !self.file_options.is_newest(&call) {
            // A newer value was given since; the plugin holds that one.
            return;
        }
        match end {
            CallEnd::Overtaken => {}
            CallEnd::Answered(Err(why)) => {
                tracing::warn!(target = ?call.target, value = %call.value, %why, "file option refused");
                self.note(Note::TellError(why));
            }
            CallEnd::Answered(Ok(())) => {
                tracing::info!(target = ?call.target, value = %call.value, "file option taken");
                self.plugins.remember(&call.target, call.value);
                self.plugin_value_changed();
            }
        }
    }

    fn plugin_value_changed(&mut self) {
        // Scores found with the old plugin or value would be shown for the new one.
        self.clear_hash = true;
        if self.analyzing {
            self.discard_search();
            self.restart_analysis();
        }
    }

    fn save_settings(&mut self) {
        let Some(path) = self.settings_path.clone() else {
            self.note(Note::TellError("No folder to save settings in".into()));
            return;
        };
        match settings::save(&path, &self.options.saved(&self.plugins)) {
            Ok(()) => self.note(Note::Tell(format!("Settings saved to {}", path.display()))),
            Err(why) => self.note(Note::TellError(format!("Settings not saved to {}: {why}", path.display()))),
        }
    }

    /// Applies the `Log folder` and `Log files` options.
    fn move_log(&mut self) {
        let Some(logging) = &self.logging else { return };
        let folder = &self.options.host.log_folder;
        let folder = (!folder.is_empty()).then(|| std::path::Path::new(folder));
        match logging.reconfigure(folder, self.options.host.log_files as usize) {
            Ok(()) => {
                let location = logging.location().map(|l| l.display().to_string()).unwrap_or_default();
                self.debug(format!("logging to {location}"));
            }
            Err(why) => self.note(Note::TellError(format!("The log stays where it was: {why}"))),
        }
    }

    /// Reads the definitions the `Variant file` option names, off this thread.
    fn read_variant_file(&mut self) {
        let path = self.options.host.variant_file.trim().to_owned();
        if path.is_empty() {
            return;
        }
        let reading = path.clone();
        let work = move || crate::variant_files::load(std::path::Path::new(&reading));
        match files::off_thread("variant-file", VARIANT_FILE_PATIENCE, work) {
            Ok(result) => self.variant_file_read(&path, result),
            Err(later) => {
                self.debug(format!("{path} is still being read; its variants are offered once it has been"));
                self.forward_when_done("variant-file-wait", later, move |result| Event::VariantFileRead {
                    path,
                    result,
                });
            }
        }
    }

    pub(super) fn variant_file_read(&mut self, path: &str, result: Result<Vec<String>, String>) {
        match result {
            Ok(names) => {
                tracing::info!(%path, ?names, "variant definitions read");
                self.note(Note::Tell(format!("Variants added from {path}: {}", names.join(", "))));
                self.note(Note::VariantsChanged);
            }
            Err(why) => {
                tracing::warn!(%why, "variant definitions refused");
                self.note(Note::TellError(format!("Variant definitions refused: {why}")));
            }
        }
    }

    /// Opens the book the `Book file` option names (none when it is empty).
    fn open_book(&mut self) {
        match self.knowledge.open_book(&self.options.host.book_file) {
            None => {}
            Some((generation, Arrival::Now(result))) => self.book_opened(generation, result),
            Some((generation, Arrival::Later(later))) => {
                self.debug("the book is still opening; it is used once it has opened".to_owned());
                self.forward_when_done("book-wait", later, move |result| Event::BookOpened { generation, result });
            }
        }
    }

    pub(super) fn book_opened(&mut self, generation: u64, result: knowledge::BookResult) {
        match self.knowledge.book_opened(generation, result) {
            None => {}
            Some(Ok(book)) => {
                let text = format!("book {} opened: {} entries", book.path().display(), book.len());
                self.debug(text);
            }
            Some(Err(why)) => {
                tracing::warn!(%why, "book not opened");
                self.note(Note::TellError(format!("Book not opened: {why}")));
            }
        }
    }

    pub(super) fn tables_opened(
        &mut self,
        generation: u64,
        paths: &str,
        tables: crate::tablebases::Tablebases,
        problems: &Problems,
    ) {
        let description = tables.describe();
        let empty = tables.is_empty();
        if !self.knowledge.tables_opened(generation, tables) {
            return;
        }
        for problem in problems.broken.iter().chain(&problems.absent) {
            tracing::warn!(%problem, "tablebases");
        }
        if let Some(summary) = problems.summary() {
            self.note(Note::Tell(format!("Syzygy tablebases: {summary}")));
        }
        if empty {
            // Having no tables is normal: GUIs send their default path to every engine.
            self.debug(format!("No Syzygy tables found in {paths}: playing without tablebases"));
            return;
        }
        self.debug(format!("Syzygy tablebases: {description}"));
        // Scores found without the tables may be wrong with them.
        self.clear_hash = true;
    }

    /// Scans the plugin folders again. Unknown files are examined in child
    /// processes, which may take seconds, on a thread of its own: a scan slower
    /// than a moment is taken in, and the menu re-advertised, when it ends.
    fn rescan(&mut self) {
        let work = self.plugins.begin_scan();
        match files::off_thread("plugin-scan", SCAN_PATIENCE, move || work.run()) {
            Ok(examined) => self.scan_finished(examined),
            Err(later) => {
                self.debug("plugin files are still being examined; the menu follows once they are".to_owned());
                self.forward_when_done("plugin-scan-wait", later, |examined| {
                    Event::PluginsExamined(Arc::new(ExaminedPlugins(std::sync::Mutex::new(Some(examined)))))
                });
            }
        }
    }

    pub(super) fn scan_finished(&mut self, examined: Examined) {
        self.plugins.finish_scan(examined);
        let refused = self.report_plugins();
        if !refused.is_empty() {
            self.note(Note::Tell(format!("Plugins refused: {}", refused.join("; "))));
        }
        self.note(Note::OptionsChanged { purged: false });
    }

    /// Lists every plugin and every refused file as diagnostics; returns the refusals.
    pub(super) fn report_plugins(&mut self) -> Vec<String> {
        let registry = self.plugins.registry();
        let loaded: Vec<String> = registry
            .plugins()
            .iter()
            .map(|p| format!("{} plugin {} {} from {}", p.kind, p.name(), p.info.version, p.origin))
            .collect();
        let refused: Vec<String> =
            registry.refused().iter().map(|r| format!("{}: {}", r.path.display(), r.reason)).collect();
        let misplaced: Vec<String> =
            registry.misplaced().iter().map(|r| format!("{}: {}", r.path.display(), r.reason)).collect();
        for text in loaded {
            self.debug(text);
        }
        for text in &refused {
            self.debug(format!("plugin refused: {text}"));
        }
        for text in misplaced {
            self.debug(format!("plugin {text}"));
        }
        refused
    }

    /// Work that outlasted its patience (see [`files::off_thread`]) reaches the
    /// core as an event when it ends.
    fn forward_when_done<T: Send + 'static>(
        &self,
        name: &str,
        later: std::sync::mpsc::Receiver<T>,
        event: impl FnOnce(T) -> Event + Send + 'static,
    ) {
        let inbox = self.inbox.clone();
        let _ = std::thread::Builder::new().name(name.into()).spawn(move || {
            if let Ok(done) = later.recv() {
                let _ = inbox.send(event(done));
            }
        });
    }
}
