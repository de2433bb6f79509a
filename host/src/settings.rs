//! Settings the user saved with the `Save settings` button: `NAME=VALUE` lines in
//! the user's configuration folder, applied again at start-up.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

/// `<config dir>/settings.txt`, e.g. `~/.config/plugboard/settings.txt` on Linux.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Plugboard", "plugboard").map(|dirs| dirs.config_dir().join("settings.txt"))
}

/// The saved settings, in file order; lines that are not `NAME=VALUE` are skipped.
pub fn load(path: &Path) -> Vec<(String, String)> {
    let Ok(text) = fs::read_to_string(path) else { return Vec::new() };
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(|line| line.split_once('='))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .filter(|(name, _)| !name.is_empty())
        .collect()
}

pub fn save(path: &Path, settings: &[(String, String)]) -> io::Result<()> {
    if let Some(folder) = path.parent() {
        fs::create_dir_all(folder)?;
    }
    let mut text = String::from("# Plugboard settings, written by the Save settings button\n");
    for (name, value) in settings {
        // One setting a line: a line break in a value would forge another setting.
        let value: String = value.chars().filter(|c| !c.is_control()).collect();
        text += &format!("{name}={value}\n");
    }
    let staging = path.with_extension("tmp");
    fs::write(&staging, text)?;
    fs::rename(staging, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("settings.txt");
        let settings = vec![("Evaluation".to_owned(), "material".to_owned()), ("Tempo".to_owned(), "20".to_owned())];
        save(&path, &settings).unwrap();
        assert_eq!(load(&path), settings);
        assert!(load(&dir.path().join("missing.txt")).is_empty());
    }
}
