//! Everything that can happen to the engine, as one type fed through one inbox.

use plugboard_plugin_api::{Move, Score, SearchOutcome};

#[derive(Debug, Clone)]
pub enum Event {
    /// A line from the GUI, without its line ending.
    Line(String),
    /// A line too long to be a command: its start, and its length in bytes.
    Overlong {
        start: String,
        length: usize,
    },
    /// The GUI closed our standard input.
    EndOfInput,
    Progress {
        job: u64,
        progress: Progress,
    },
    Finished {
        job: u64,
        outcome: Result<SearchOutcome, String>,
    },
    /// The search was told to stop and has not returned within a grace period:
    /// if the engine is on move, it must move without it.
    Overdue {
        job: u64,
    },
    /// The search still has not returned long after being told to stop: the
    /// plugin ignores its stop flag and is taken out of use.
    Hung {
        job: u64,
    },
    /// A variant definition file that took long to read has been read: the
    /// variants it added, or why it added none.
    VariantFileRead {
        path: String,
        result: Result<Vec<String>, String>,
    },
    /// A book that took long to open has opened (or failed to).
    BookOpened {
        generation: u64,
        result: Result<std::sync::Arc<crate::book::Book>, String>,
    },
    /// Tablebases that took long to open have opened.
    TablesLoaded {
        generation: u64,
        paths: String,
        loaded: std::sync::Arc<LoadedTables>,
    },
    /// A plugin took long to read the file given to one of its options, and
    /// has now taken it, or refused it.
    PluginFileTaken {
        call: crate::plugins::file_options::FileCall,
        end: crate::plugins::file_options::CallEnd,
    },
    /// Plugin files that took long to examine have been examined.
    PluginsExamined(std::sync::Arc<ExaminedPlugins>),
    /// SIGINT: never fatal; moves now when thinking.
    Interrupt,
    /// SIGTERM: leave cleanly.
    Terminate,
}

/// An owned copy of a plugin's progress report.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub is_line: bool,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub tbhits: u64,
    pub pv: Vec<Move>,
    pub current_move: Option<Move>,
    pub current_move_number: u32,
    pub root_move_count: u32,
    /// Which principal variation a line is, 1 for the best; 0 if the plugin did not say.
    pub multipv: u32,
    /// How full the search's hash table is, in permille, with a line; `None`
    /// when the plugin does not say.
    pub hashfull: Option<u32>,
}

/// Tables opened off the core's thread, handed over once.
pub struct LoadedTables(pub std::sync::Mutex<Option<(crate::tablebases::Tablebases, crate::tablebases::Problems)>>);

impl std::fmt::Debug for LoadedTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LoadedTables")
    }
}

/// A plugin scan's findings, made off the core's thread, handed over once.
pub struct ExaminedPlugins(pub std::sync::Mutex<Option<crate::plugins::Examined>>);

impl std::fmt::Debug for ExaminedPlugins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ExaminedPlugins")
    }
}
