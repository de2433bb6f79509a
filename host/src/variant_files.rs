//! The user's own variant definitions: `*.ini` files in the data folder's
//! `variants`, the files and folders `PLUGBOARD_VARIANT_PATH` names, and the
//! file the `Variant file` option names, each read whole into the catalog of
//! variants defined as data, or refused with its file, line and why.

use std::{
    env,
    io::Read,
    path::{Path, PathBuf},
};

use crate::{files, game::defined};

/// Environment variable holding definition files or folders of them, separated as `PATH` is.
pub const VARIANT_PATH_VAR: &str = "PLUGBOARD_VARIANT_PATH";
/// A definition file larger than this is no definition file.
pub const MAX_BYTES: u64 = 1 << 20;

/// `<data dir>/variants`, e.g. `~/.local/share/plugboard/variants` on Linux.
pub fn user_variant_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Plugboard", "plugboard").map(|dirs| dirs.data_dir().join("variants"))
}

/// The definition files to read at start-up, in order: the data folder's, then
/// those `PLUGBOARD_VARIANT_PATH` names (a folder stands for its `*.ini` files).
pub fn startup_files() -> Vec<PathBuf> {
    let mut places: Vec<PathBuf> = user_variant_folder().into_iter().collect();
    if let Some(value) = env::var_os(VARIANT_PATH_VAR) {
        places.extend(env::split_paths(&value).filter(|path| !path.as_os_str().is_empty()));
    }
    let mut found = Vec::new();
    for place in places {
        if place.is_dir() {
            let Ok(entries) = std::fs::read_dir(&place) else { continue };
            let mut inis: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "ini") && path.is_file())
                .collect();
            inis.sort();
            found.extend(inis);
        } else if place.exists() {
            found.push(place);
        }
    }
    found
}

/// The text of a definition file: a regular file, never blocking on open, at
/// most [`MAX_BYTES`], UTF-8.
pub fn read(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let file = files::open_regular(path).map_err(|error| format!("{shown}: {error}"))?;
    let size = file.metadata().map_err(|error| format!("{shown}: {error}"))?.len();
    if size > MAX_BYTES {
        return Err(format!("{shown}: {size} bytes is too large for a variant definition (at most {MAX_BYTES})"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1).read_to_end(&mut bytes).map_err(|error| format!("{shown}: {error}"))?;
    String::from_utf8(bytes).map_err(|_| format!("{shown}: not a text file (it is not UTF-8)"))
}

/// Reads the definition file at `path` and adds its variants; their names, or
/// why nothing was added (the file, the line and the fault).
pub fn load(path: &Path) -> Result<Vec<String>, String> {
    let text = read(path)?;
    let mut catalog = defined::catalog().write().map_err(|_| "the catalog of variants is unusable".to_string())?;
    catalog.add_file(&text, &path.display().to_string()).map_err(|error| error.to_string())
}

/// Reads every start-up file; the problems, one line each, for the log and the user.
pub fn load_startup() -> Vec<String> {
    let mut problems = Vec::new();
    for path in startup_files() {
        match load(&path) {
            Ok(names) => tracing::info!(file = %path.display(), ?names, "variant definitions read"),
            Err(why) => {
                tracing::warn!(%why, "variant definitions refused");
                problems.push(why);
            }
        }
    }
    problems
}
