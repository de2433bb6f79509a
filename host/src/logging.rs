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
    /// The folder of the daily files and how many are kept, for the pruner.
    daily: Mutex<Option<(PathBuf, usize)>>,
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
                daily: Mutex::new(None),
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
        logging.spawn_pruner();
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
        refuse_other_than_a_file(file)?;
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
        refuse_other_than_a_file(&folder.join(daily_file_name(days_since_epoch())))?;
        // Not tracing-appender's own pruning: it removes every file whose name
        // starts and ends like ours, the user's `plugboard.changelog` included.
        let appender = rolling::Builder::new()
            .rotation(rolling::Rotation::DAILY)
            .filename_prefix(FILE_PREFIX)
            .filename_suffix(FILE_SUFFIX)
            .build(&folder)
            .map_err(|e| format!("cannot log in {}: {e}", folder.display()))?;
        let kept = kept_files.max(1);
        prune(&folder, kept);
        *self.shared.daily.lock().unwrap_or_else(PoisonError::into_inner) = Some((folder.clone(), kept));
        self.start(appender, folder);
        Ok(())
    }

    /// A long-running engine starts a new file each day: the old ones are pruned
    /// as the days pass, not only at start-up.
    fn spawn_pruner(&self) {
        let shared = Arc::downgrade(&self.shared);
        let _ = std::thread::Builder::new().name("log-pruner".into()).spawn(move || {
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
                let Some(shared) = shared.upgrade() else { return };
                let daily = shared.daily.lock().unwrap_or_else(PoisonError::into_inner).clone();
                if let Some((folder, kept)) = daily {
                    prune(&folder, kept);
                }
            }
        });
    }

    fn start(&self, appender: rolling::RollingFileAppender, location: PathBuf) {
        let (writer, guard) = tracing_appender::non_blocking(WaitingWriter { inner: appender, asked: false });
        self.swap(Some(writer), Some(guard), Some(location.clone()));
        tracing::info!(location = %location.display(), "logging here");
    }

    fn swap(&self, writer: Option<NonBlocking>, guard: Option<WorkerGuard>, location: Option<PathBuf>) {
        if location.is_none() {
            *self.shared.daily.lock().unwrap_or_else(PoisonError::into_inner) = None;
        }
        *self.shared.writer.write().unwrap_or_else(PoisonError::into_inner) = writer;
        *self.shared.location.lock().unwrap_or_else(PoisonError::into_inner) = location;
        let old = std::mem::replace(&mut *self.shared.guard.lock().unwrap_or_else(PoisonError::into_inner), guard);
        // Dropped outside the lock: dropping waits for the old worker to flush.
        drop(old);
    }
}

/// A log file must be a file: opening a FIFO for writing waits for a reader
/// that never comes, and a link may point anywhere.
fn refuse_other_than_a_file(path: &Path) -> Result<(), String> {
    match crate::files::is_occupied_by_other_than_a_file(path) {
        Some(what) => Err(format!("{} is {what}, not a log file", path.display())),
        None => Ok(()),
    }
}

/// `plugboard.YYYY-MM-DD.log`, the name tracing-appender gives a day's file (UTC).
pub fn daily_file_name(days_since_epoch: i64) -> String {
    let (year, month, day) = civil_date(days_since_epoch);
    format!("{FILE_PREFIX}.{year:04}-{month:02}-{day:02}.{FILE_SUFFIX}")
}

fn days_since_epoch() -> i64 {
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    (seconds / 86_400) as i64
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

/// Whether `name` is one of the daily files the engine writes, exactly.
fn is_daily_file_name(name: &str) -> bool {
    let Some(date) = name.strip_prefix(FILE_PREFIX).and_then(|rest| rest.strip_prefix('.')) else { return false };
    let Some(date) = date.strip_suffix(FILE_SUFFIX).and_then(|rest| rest.strip_suffix('.')) else { return false };
    let bytes = date.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
}

/// Whether the file at `path` starts as every file of the engine's log does: with
/// a line stamped `YYYY-MM-DDTHH:MM:SS.ffffffZ`. A user's own file that merely has
/// the name of one of ours does not.
fn written_by_us(path: &Path) -> bool {
    let Ok(file) = crate::files::open_regular(path) else { return false };
    let mut start = Vec::with_capacity(40);
    if io::Read::read_to_end(&mut io::Read::take(file, 40), &mut start).is_err() {
        return false;
    }
    let shape = b"dddd-dd-ddTdd:dd:dd.";
    if start.len() < shape.len() + 3 {
        return false;
    }
    let stamped = shape.iter().zip(&start).all(|(want, got)| match want {
        b'd' => got.is_ascii_digit(),
        _ => want == got,
    });
    let fraction = start[shape.len()..].iter().take_while(|b| b.is_ascii_digit()).count();
    stamped && fraction > 0 && start[shape.len() + fraction..].starts_with(b"Z ")
}

/// Removes the oldest of the engine's own daily files beyond `kept`. Nothing
/// else in the folder is touched: not a file named almost like ours, not a link,
/// not a file named exactly like ours that the engine did not write.
pub fn prune(folder: &Path, kept: usize) {
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    let today = daily_file_name(days_since_epoch());
    let mut ours: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_str().is_some_and(is_daily_file_name))
        .filter(|entry| std::fs::symlink_metadata(entry.path()).is_ok_and(|m| m.file_type().is_file()))
        .map(|entry| entry.path())
        // Today's file is the one being written, maybe not yet started.
        .filter(|path| path.file_name() == Some(today.as_ref()) || written_by_us(path))
        .collect();
    // The dates sort as the names do.
    ours.sort();
    let surplus = ours.len().saturating_sub(kept);
    for old in &ours[..surplus] {
        match std::fs::remove_file(old) {
            Ok(()) => tracing::info!(file = %old.display(), "old log removed"),
            Err(error) => tracing::warn!(file = %old.display(), %error, "old log not removed"),
        }
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

/// The file writer on the log's own thread, which asks for a short time slice
/// when it first writes: it waits for lines most of the time, and on the way
/// out the last lines must be written before the process ends, however many
/// search threads are still busy.
struct WaitingWriter<W> {
    inner: W,
    asked: bool,
}

impl<W: std::io::Write> std::io::Write for WaitingWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if !std::mem::replace(&mut self.asked, true) {
            crate::scheduling::prefer_latency();
        }
        self.inner.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daily_names_follow_the_calendar() {
        assert_eq!(daily_file_name(0), "plugboard.1970-01-01.log");
        assert_eq!(daily_file_name(20_780), "plugboard.2026-11-23.log");
        assert_eq!(daily_file_name(11_016), "plugboard.2000-02-29.log");
        assert!(is_daily_file_name("plugboard.2026-11-23.log"));
        for other in ["plugboard.changelog", "plugboard-backup.log", "plugboard_catalog", "plugboard.2026-11-2x.log"] {
            assert!(!is_daily_file_name(other), "{other}");
        }
    }

    #[test]
    fn pruning_removes_only_the_oldest_of_our_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let names = ["plugboard.2026-11-20.log", "plugboard.2026-11-21.log", "plugboard.2026-11-22.log"];
        // The last is named as ours would be, but the engine did not write it.
        let others = [
            "plugboard.changelog",
            "plugboard-backup.log",
            "plugboard_catalog",
            "notes.txt",
            "plugboard.2026-11-19.log",
        ];
        for name in names {
            let line = format!("{}T23:59:59.999999Z  INFO plugboard: plugboard starting\n", &name[10..20]);
            std::fs::write(dir.path().join(name), line).unwrap();
        }
        for name in others {
            std::fs::write(dir.path().join(name), "2026-11-19: my own notes\n").unwrap();
        }
        prune(dir.path(), 1);
        let mut left: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        let mut expected: Vec<&str> = others.to_vec();
        expected.push("plugboard.2026-11-22.log");
        expected.sort();
        assert_eq!(left, expected);
    }
}
