//! The files the engine touches on its own account: how a file named by the user,
//! a GUI or a server is opened (regular files only, never blocking on open, sizes
//! checked before reading), and the private folder where the engine writes what
//! is not the user's (plugin copies), created exclusively and removed at exit.

use std::{
    fs::{self, File},
    io::{self, Read},
    path::{Path, PathBuf},
    sync::{Mutex, PoisonError},
};

/// Opens `path` for reading if it is a regular file (links followed). A FIFO, a
/// device or a folder is refused with what it is, and opening never waits for a
/// writer: a FIFO nobody writes would otherwise hold the engine for good.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let kind = file.metadata()?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("it is {}, not a regular file", describe(kind)),
        ));
    }
    Ok(file)
}

/// The whole of a regular file of at most `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("it is {size} bytes, more than the {limit} this file may have"),
        ));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    // The file may grow after the size was read: never read past the limit.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("it grew past {limit} bytes while read")));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, for messages.
pub fn describe(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a link"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// True when something other than a regular file stands at `path` (links not
/// followed): a name the engine would write to must not be a FIFO, a device or a
/// link to one.
pub fn is_occupied_by_other_than_a_file(path: &Path) -> Option<&'static str> {
    let kind = fs::symlink_metadata(path).ok()?.file_type();
    if kind.is_symlink() {
        return match fs::metadata(path) {
            Ok(target) if target.file_type().is_file() => None,
            Ok(target) => Some(describe(target.file_type())),
            Err(_) => Some("a dangling link"),
        };
    }
    (!kind.is_file()).then(|| describe(kind))
}

/// Runs `work` on a thread of its own and waits at most `patience` for it: the
/// result, or where it will arrive when it is slower than that.
pub fn off_thread<T: Send + 'static>(
    name: &str,
    patience: std::time::Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, std::sync::mpsc::Receiver<T>> {
    let (done, result) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new().name(name.to_owned()).spawn(move || {
        let _ = done.send(work());
    });
    if spawned.is_err() {
        return Err(result);
    }
    result.recv_timeout(patience).map_err(|_| result)
}

/// The prefix of the engine's private folders in the temporary folder:
/// `plugboard-PID-RANDOM`.
const PRIVATE_PREFIX: &str = "plugboard-";

static PRIVATE: Mutex<Option<PathBuf>> = Mutex::new(None);

/// This process's private folder, made on first use: a new folder with a random
/// name, created exclusively (an existing one is never taken over) and readable
/// by this user only. Other users cannot put links in it or swap files in it.
pub fn private_dir() -> io::Result<PathBuf> {
    let mut private = PRIVATE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(dir) = private.as_ref() {
        return Ok(dir.clone());
    }
    sweep_stale_private_dirs(&std::env::temp_dir());
    // tempfile creates the folder with mkdir, never accepting one that exists.
    let prefix = format!("{PRIVATE_PREFIX}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o700));
    }
    let dir = builder.tempdir()?.keep();
    *private = Some(dir.clone());
    Ok(dir)
}

/// Writes `from`'s content into a new file in the private folder, named after
/// `name`. The file is created exclusively, so no link can redirect the write.
pub fn private_copy(from: &mut impl Read, name: &str) -> io::Result<PathBuf> {
    let dir = private_dir()?;
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect();
    let mut file = tempfile::Builder::new().prefix("copy-").suffix(&format!("-{safe}")).tempfile_in(&dir)?;
    io::copy(from, file.as_file_mut())?;
    let (_, path) = file.keep().map_err(|e| e.error)?;
    Ok(path)
}

/// Removes this process's private folder, if it made one. Mapped libraries
/// stay mapped on Unix after their files are gone.
pub fn remove_private_dir() {
    let taken = PRIVATE.lock().unwrap_or_else(PoisonError::into_inner).take();
    if let Some(dir) = taken {
        let _ = fs::remove_dir_all(dir);
    }
}

/// Removes the private folders of this user's processes that have ended
/// without removing theirs (killed, or crashed). Another user's folders, and
/// names that are not ours, are left alone.
pub fn sweep_stale_private_dirs(temp: &Path) {
    let Ok(entries) = fs::read_dir(temp) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(stale_candidate_pid) else { continue };
        if pid == std::process::id() || process_alive(pid) {
            continue;
        }
        let Ok(meta) = fs::symlink_metadata(entry.path()) else { continue };
        if !meta.is_dir() || !owned_by_us(&meta) {
            continue;
        }
        match fs::remove_dir_all(entry.path()) {
            Ok(()) => tracing::info!(folder = %entry.path().display(), "removed a dead process's private folder"),
            Err(error) => tracing::debug!(folder = %entry.path().display(), %error, "stale folder not removed"),
        }
    }
}

/// `plugboard-PID-RANDOM` and the older `plugboard-PID` → PID.
fn stale_candidate_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PRIVATE_PREFIX)?;
    let pid = rest.split_once('-').map_or(rest, |(pid, _)| pid);
    pid.parse().ok()
}

#[cfg(unix)]
fn owned_by_us(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    meta.uid() == unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn owned_by_us(_meta: &fs::Metadata) -> bool {
    true
}

#[cfg(unix)]
fn process_alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 only asks whether the process exists; nothing is sent.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_alive(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read_and_only_up_to_their_limit() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("book.bin");
        fs::write(&file, [7u8; 32]).unwrap();
        assert_eq!(read_bounded(&file, 32).unwrap().len(), 32);
        assert!(read_bounded(&file, 31).unwrap_err().to_string().contains("more than"));
        assert!(open_regular(dir.path()).unwrap_err().to_string().contains("a folder"));
        #[cfg(unix)]
        {
            assert!(open_regular(Path::new("/dev/zero")).unwrap_err().to_string().contains("a device"));
            let fifo = dir.path().join("fifo");
            let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            // Would block for ever on a plain open: nobody writes this FIFO.
            assert!(open_regular(&fifo).unwrap_err().to_string().contains("a FIFO"));
            assert_eq!(is_occupied_by_other_than_a_file(&fifo), Some("a FIFO"));
            let link = dir.path().join("link");
            std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
            assert!(read_bounded(&link, 100).unwrap_err().to_string().contains("a device"));
            assert_eq!(is_occupied_by_other_than_a_file(&link), Some("a device"));
        }
        assert_eq!(is_occupied_by_other_than_a_file(&file), None);
        assert_eq!(is_occupied_by_other_than_a_file(&dir.path().join("none")), None);
    }

    #[test]
    fn stale_folder_names_give_their_process() {
        assert_eq!(stale_candidate_pid("plugboard-123-x1Yz"), Some(123));
        assert_eq!(stale_candidate_pid("plugboard-123"), Some(123));
        assert_eq!(stale_candidate_pid("plugboard-abc"), None);
        assert_eq!(stale_candidate_pid("other-123"), None);
    }

    #[cfg(unix)]
    #[test]
    fn the_sweep_removes_dead_processes_folders_only() {
        use std::os::unix::fs::PermissionsExt;
        let temp = tempfile::tempdir().unwrap();
        // A process that has ended: a child we waited for.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = temp.path().join(format!("plugboard-{dead}-abc"));
        let alive = temp.path().join(format!("plugboard-{}-abc", std::process::id()));
        let unrelated = temp.path().join("plugboard.changelog");
        for dir in [&stale, &alive] {
            fs::create_dir(dir).unwrap();
            fs::write(dir.join("copy"), b"x").unwrap();
        }
        fs::write(&unrelated, b"notes").unwrap();
        sweep_stale_private_dirs(temp.path());
        assert!(!stale.exists());
        assert!(alive.exists() && unrelated.exists());

        let own = private_dir().unwrap();
        let mode = fs::metadata(&own).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }
}
