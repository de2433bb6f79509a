//! Settings the user saved with the `Save settings` button: `NAME=VALUE` lines in
//! the user's configuration folder, applied again at start-up.

use std::{
    fs,
    io::{self, Write},
    path::{Path, PathBuf},
};

/// `<config dir>/settings.txt`, e.g. `~/.config/plugboard/settings.txt` on Linux.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("org", "Plugboard", "plugboard").map(|dirs| dirs.config_dir().join("settings.txt"))
}

/// Far more than every option of the engine and a dozen plugins: a bigger file
/// is no settings file of ours, and applying it would hold up the start.
pub const MAX_BYTES: u64 = 256 * 1024;
pub const MAX_SETTINGS: usize = 1000;

/// The saved settings, in file order; lines that are not `NAME=VALUE` are skipped.
/// A missing file holds none; a file that is not a regular file or is too big is
/// refused with the reason.
pub fn load(path: &Path) -> Result<Vec<(String, String)>, String> {
    let bytes = match crate::files::read_bounded(path, MAX_BYTES) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(format!("{} not read: {error}", path.display())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let settings: Vec<(String, String)> = text
        .lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .filter_map(|line| line.split_once('='))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .filter(|(name, _)| !name.is_empty())
        .take(MAX_SETTINGS + 1)
        .collect();
    if settings.len() > MAX_SETTINGS {
        return Err(format!("{} holds more than {MAX_SETTINGS} settings: not a file of ours", path.display()));
    }
    Ok(settings)
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
    // A staging file of our own, in the same folder so the rename is atomic: two
    // engines saving at once each write theirs, and a failed write (a full disk)
    // leaves nothing behind, as the staging file is removed when dropped.
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut staging = tempfile::Builder::new().prefix(".settings-").suffix(".tmp").tempfile_in(folder)?;
    staging.write_all(text.as_bytes())?;
    staging.as_file().sync_all()?;
    staging.persist(path).map_err(|e| e.error)?;
    Ok(())
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
        assert_eq!(load(&path).unwrap(), settings);
        assert!(load(&dir.path().join("missing.txt")).unwrap().is_empty());
        // Only the settings file is left: no staging file.
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    }

    #[test]
    fn settings_files_that_are_no_settings_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let huge = dir.path().join("huge.txt");
        fs::write(&huge, "Tempo=1\n".repeat(1_000_000)).unwrap();
        assert!(load(&huge).unwrap_err().contains("more than"));
        let many = dir.path().join("many.txt");
        fs::write(&many, "A=1\n".repeat(MAX_SETTINGS + 1)).unwrap();
        assert!(load(&many).unwrap_err().contains("more than 1000 settings"));
        #[cfg(unix)]
        {
            let link = dir.path().join("zero.txt");
            std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
            assert!(load(&link).unwrap_err().contains("a device"));
        }
    }

    #[test]
    fn two_engines_saving_at_once_both_succeed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.txt");
        let writers: Vec<_> = (0..8)
            .map(|n| {
                let path = path.clone();
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        save(&path, &[("Tempo".to_owned(), n.to_string())]).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        assert_eq!(load(&path).unwrap().len(), 1);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
