//! The folders plugins are found in, and the files in them that may be plugins.

use std::{
    env,
    path::{Path, PathBuf},
};

/// Environment variable holding extra plugin folders, separated as `PATH` is.
pub const PLUGIN_PATH_VAR: &str = "PLUGBOARD_PLUGIN_PATH";

/// A folder to scan, and whether every library in it counts or only ours by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    pub path: PathBuf,
    /// The executable's folder is a build folder too, full of libraries that are
    /// not plugins; there only files named like ours are tried.
    pub only_ours: bool,
}

/// Folders in the order they are searched: the executable's, the one built
/// in with `PLUGBOARD_BUNDLED_PLUGINS` (if any), the user's data folder, `PLUGBOARD_PLUGIN_PATH`, then the folders given on the command line
/// or in the `Plugin folder` option.
pub fn folders(extra: &[PathBuf]) -> Vec<Folder> {
    let mut folders = Vec::new();
    if let Some(dir) = env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)) {
        folders.push(Folder { path: dir, only_ours: true });
    }
    // Where `make` put the bundled plugins of a binary that is moved away from
    // them alone (OpenBench's workers keep only the executable).
    if let Some(dir) = option_env!("PLUGBOARD_BUNDLED_PLUGINS").filter(|dir| !dir.is_empty()) {
        folders.push(Folder { path: PathBuf::from(dir), only_ours: true });
    }
    if let Some(dir) = user_plugin_folder() {
        folders.push(Folder { path: dir, only_ours: false });
    }
    if let Some(value) = env::var_os(PLUGIN_PATH_VAR) {
        folders.extend(
            env::split_paths(&value)
                .filter(|p| !p.as_os_str().is_empty())
                .map(|path| Folder { path, only_ours: false }),
        );
    }
    folders.extend(extra.iter().map(|path| Folder { path: path.clone(), only_ours: false }));
    let mut seen = Vec::new();
    folders.retain(|folder| {
        let key = folder.path.canonicalize().unwrap_or_else(|_| folder.path.clone());
        let new = !seen.contains(&key);
        seen.push(key);
        new
    });
    folders
}

/// `<data dir>/plugins`, e.g. `~/.local/share/plugboard/plugins` on Linux.
pub fn user_plugin_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Plugboard", "plugboard").map(|dirs| dirs.data_dir().join("plugins"))
}

/// The shared libraries in `folder` that may be plugins, sorted by name so scans are repeatable.
pub fn candidates(folder: &Folder) -> Vec<PathBuf> {
    libraries(folder, |path| is_library_name(path, folder.only_ours))
}

/// The libraries in a folder that takes only ours by name which are not named
/// so: they are never examined, but one that exports the plugin entry point is
/// a plugin put in the wrong place, and the user is told where it belongs.
pub fn strangers(folder: &Folder) -> Vec<PathBuf> {
    if !folder.only_ours {
        return Vec::new();
    }
    libraries(folder, |path| is_library_name(path, false) && !is_library_name(path, true))
}

fn libraries(folder: &Folder, wanted: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(&folder.path) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file() && wanted(path))
        .collect();
    files.sort();
    files
}

/// How a plugin beside the engine must be named to be found there: the file's
/// own name with our prefix.
pub fn name_beside_the_engine(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_prefix(env::consts::DLL_PREFIX).unwrap_or(&name);
    format!("{}plugboard_{stem}", env::consts::DLL_PREFIX)
}

fn is_library_name(path: &Path, only_ours: bool) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let Some(stem) = name.strip_suffix(env::consts::DLL_SUFFIX) else { return false };
    if !only_ours {
        return true;
    }
    let stem = stem.strip_prefix(env::consts::DLL_PREFIX).unwrap_or(stem);
    stem.starts_with("plugboard_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_folders_only_offer_our_libraries() {
        let ours = format!("{}plugboard_eval_material{}", env::consts::DLL_PREFIX, env::consts::DLL_SUFFIX);
        let other = format!("{}serde_derive{}", env::consts::DLL_PREFIX, env::consts::DLL_SUFFIX);
        assert!(is_library_name(Path::new(&ours), true));
        assert!(!is_library_name(Path::new(&other), true));
        assert!(is_library_name(Path::new(&other), false));
        assert!(!is_library_name(Path::new("notes.txt"), false));
        let mine = format!("{}my_eval{}", env::consts::DLL_PREFIX, env::consts::DLL_SUFFIX);
        assert_eq!(
            name_beside_the_engine(Path::new(&mine)),
            format!("{}plugboard_my_eval{}", env::consts::DLL_PREFIX, env::consts::DLL_SUFFIX)
        );
    }
}
