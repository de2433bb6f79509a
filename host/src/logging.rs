//! The debug log: `tracing` into a daily-rotated file in the user's data folder,
//! never onto stdout (which belongs to the protocol).

use std::path::{Path, PathBuf};

use tracing_appender::{non_blocking::WorkerGuard, rolling};

/// How many daily files are kept.
const KEPT_FILES: usize = 7;

/// Where logs go unless told otherwise: `<data dir>/logs`.
pub fn default_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Plugboard", "plugboard").map(|dirs| dirs.data_dir().join("logs"))
}

/// Starts logging; the returned guard flushes the file when dropped, so it must be
/// dropped before the process exits. `file` names one file instead of the daily set.
pub fn init(file: Option<&Path>) -> Option<WorkerGuard> {
    let appender = match file {
        Some(file) => {
            let folder = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let name = file.file_name()?;
            rolling::Builder::new().filename_prefix(name.to_string_lossy()).build(folder).ok()?
        }
        None => {
            let folder = default_folder()?;
            std::fs::create_dir_all(&folder).ok()?;
            rolling::Builder::new()
                .rotation(rolling::Rotation::DAILY)
                .filename_prefix("plugboard")
                .filename_suffix("log")
                .max_log_files(KEPT_FILES)
                .build(folder)
                .ok()?
        }
    };
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let subscriber =
        tracing_subscriber::fmt().with_writer(writer).with_ansi(false).with_max_level(tracing::Level::DEBUG).finish();
    tracing::subscriber::set_global_default(subscriber).ok()?;
    std::panic::set_hook(Box::new(|info| {
        tracing::error!(target: "panic", "{info}");
    }));
    Some(guard)
}
