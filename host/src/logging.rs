//! The debug log: `tracing` into a daily-rotated file set with a bounded number
//! of files, in the user's data folder unless told otherwise, never onto stdout
//! (which belongs to the protocol). The file can be moved while the engine runs
//! (the `Log folder` and `Log files` options), and the writer is flushed and
//! closed on every way out.

use std::{
    io,
    path::{Path, PathBuf},
    sync::{Arc, Mutex, PoisonError, RwLock},
};

use tracing_appender::{
    non_blocking::{NonBlocking, WorkerGuard},
    rolling,
};
use tracing_subscriber::fmt::MakeWriter;

pub const FILE_PREFIX: &str = "plugboard";
pub const FILE_SUFFIX: &str = "log";

/// Where logs go unless told otherwise: `<data dir>/logs`.
pub fn default_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Plugboard", "plugboard").map(|dirs| dirs.data_dir().join("logs"))
}

/// Where the log goes, from the command line.
#[derive(Debug, Clone, Default)]
pub struct LogTarget {
    /// One file, never rotated (`--log-file`).
    pub file: Option<PathBuf>,
    /// The folder of the daily files (`--log-dir`); the data folder's `logs` if `None`.
    pub folder: Option<PathBuf>,
    /// How many daily files are kept (`--log-files`).
    pub kept_files: usize,
}

/// The log's switchable writer. Clones share it.
#[derive(Clone)]
pub struct Logging {
    shared: Arc<Shared>,
}

struct Shared {
    writer: RwLock<Option<NonBlocking>>,
    /// Flushes and closes the file when dropped.
    guard: Mutex<Option<WorkerGuard>>,
    /// What the command line asked for: the `Log folder` option's empty value.
    started_with: LogTarget,
    location: Mutex<Option<PathBuf>>,
}

impl Logging {
    /// Installs the subscriber and the panic hook, and opens the log where `target`
    /// says; when it cannot be opened the engine runs without a log (and says why
    /// in the returned error, for the user).
    pub fn init(target: LogTarget) -> (Logging, Result<(), String>) {
        let logging = Logging {
            shared: Arc::new(Shared {
                writer: RwLock::new(None),
                guard: Mutex::new(None),
                started_with: target.clone(),
                location: Mutex::new(None),
            }),
        };
        let subscriber = tracing_subscriber::fmt()
            .with_writer(logging.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::DEBUG)
            .finish();
        let _ = tracing::subscriber::set_global_default(subscriber);
        // The default hook prints to stderr, and a library might write anywhere: a
        // panic goes to the log only.
        std::panic::set_hook(Box::new(|info| {
            let thread = std::thread::current();
            tracing::error!(target: "panic", thread = thread.name().unwrap_or("unnamed"), "{info}");
        }));
        let opened = match &target.file {
            Some(file) => logging.open_file(file),
            None => logging.open_folder(target.folder.as_deref(), target.kept_files),
        };
        (logging, opened)
    }

    /// Moves the daily files to `folder` (`None`: where the engine started logging)
    /// keeping `kept_files` of them. The old file is flushed and closed first.
    pub fn reconfigure(&self, folder: Option<&Path>, kept_files: usize) -> Result<(), String> {
        let started = &self.shared.started_with;
        let folder = folder.map(Path::to_path_buf).or_else(|| started.folder.clone());
        match (&started.file, &folder) {
            // Started on one named file and no folder asked for: only the count changed.
            (Some(file), None) => self.open_file(&file.clone()),
            _ => self.open_folder(folder.as_deref(), kept_files),
        }
    }

    /// The file or folder being written, if any.
    pub fn location(&self) -> Option<PathBuf> {
        self.shared.location.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Flushes and closes the log; later events are dropped. Called on every way out.
    pub fn shutdown(&self) {
        self.swap(None, None, None);
    }

    fn open_file(&self, file: &Path) -> Result<(), String> {
        let folder = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = file.file_name().ok_or_else(|| format!("{} names no file", file.display()))?;
        std::fs::create_dir_all(folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        let appender = rolling::Builder::new()
            .filename_prefix(name.to_string_lossy())
            .build(folder)
            .map_err(|e| format!("cannot open {}: {e}", file.display()))?;
        self.start(appender, file.to_path_buf());
        Ok(())
    }

    fn open_folder(&self, folder: Option<&Path>, kept_files: usize) -> Result<(), String> {
        let folder = match folder {
            Some(folder) => folder.to_path_buf(),
            None => default_folder().ok_or("this system has no data folder for the log")?,
        };
        std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        let appender = rolling::Builder::new()
            .rotation(rolling::Rotation::DAILY)
            .filename_prefix(FILE_PREFIX)
            .filename_suffix(FILE_SUFFIX)
            .max_log_files(kept_files.max(1))
            .build(&folder)
            .map_err(|e| format!("cannot log in {}: {e}", folder.display()))?;
        self.start(appender, folder);
        Ok(())
    }

    fn start(&self, appender: rolling::RollingFileAppender, location: PathBuf) {
        let (writer, guard) = tracing_appender::non_blocking(appender);
        self.swap(Some(writer), Some(guard), Some(location.clone()));
        tracing::info!(location = %location.display(), "logging here");
    }

    fn swap(&self, writer: Option<NonBlocking>, guard: Option<WorkerGuard>, location: Option<PathBuf>) {
        *self.shared.writer.write().unwrap_or_else(PoisonError::into_inner) = writer;
        *self.shared.location.lock().unwrap_or_else(PoisonError::into_inner) = location;
        let old = std::mem::replace(&mut *self.shared.guard.lock().unwrap_or_else(PoisonError::into_inner), guard);
        // Dropped outside the lock: dropping waits for the old worker to flush.
        drop(old);
    }
}

/// One event's writer: the current file, or nowhere.
pub struct LogWriter(Option<NonBlocking>);

impl io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(writer) => writer.write(buf),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.0 {
            Some(writer) => writer.flush(),
            None => Ok(()),
        }
    }
}

impl<'a> MakeWriter<'a> for Logging {
    type Writer = LogWriter;

    fn make_writer(&'a self) -> LogWriter {
        LogWriter(self.shared.writer.read().unwrap_or_else(PoisonError::into_inner).clone())
    }
}
