//! What no file, folder, library or line may do to the engine: write through a
//! link someone else planted, crash it at start-up, hold it for ever, delete
//! the user's files, or keep it from ending when told to. Each test drives the
//! built binary as a GUI does.

use crate::common;

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::Duration,
};

use common::{Engine, binary, built_library, plugin_folder};

/// Generous: a bound on a hang, not a measure of speed.
const QUICKLY: Duration = Duration::from_secs(3);

fn private_dirs(temp: &Path, pid: u32) -> Vec<PathBuf> {
    let prefix = format!("plugboard-{pid}-");
    fs::read_dir(temp)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

fn dead_pid() -> u32 {
    let mut child = Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn plugin_copies_go_into_a_private_folder_that_is_removed_at_exit() {
    use std::os::unix::fs::PermissionsExt;
    let temp = tempfile::tempdir().unwrap();
    // What another user could have prepared: the old predictable folder of a
    // process, holding a link named like the copy, pointing at a precious file.
    let precious = temp.path().join("precious");
    fs::write(&precious, "the user's own data").unwrap();
    let stale = dead_pid();
    for name in [format!("plugboard-{stale}"), format!("plugboard-{stale}-x1y2z3")] {
        let planted = temp.path().join(name);
        fs::create_dir(&planted).unwrap();
        std::os::unix::fs::symlink(&precious, planted.join("0-libplugboard_eval_material.so")).unwrap();
    }
    let plugins = plugin_folder(&[("plugboard_eval_material", "libplugboard_eval_material.so")]);
    let home = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_env(home, Some(plugins.path()), &[], &[("TMPDIR", temp.path().as_os_str())]);
    engine.handshake();
    engine.send("option Evaluation=material");
    let said = engine.sync(1);
    assert!(!said.iter().any(|l| l.starts_with("Error") || l.starts_with("tellusererror")), "{said:?}");

    let ours = private_dirs(temp.path(), engine.pid());
    assert_eq!(ours.len(), 1, "one private folder: {ours:?}");
    let meta = fs::symlink_metadata(&ours[0]).unwrap();
    assert!(meta.is_dir());
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    assert_eq!(fs::read_to_string(&precious).unwrap(), "the user's own data");
    assert!(private_dirs(temp.path(), stale).is_empty(), "a dead process's folders are swept");
    assert!(!temp.path().join(format!("plugboard-{stale}")).exists());

    let pid = engine.pid();
    engine.send("quit");
    assert_eq!(engine.wait_exit(QUICKLY).map(|s| s.code()), Some(Some(0)));
    assert!(private_dirs(temp.path(), pid).is_empty(), "the private folder outlived the engine");
}

/// Changes `count` bytes of `bytes` at places and to values drawn from `seed`.
fn damaged(bytes: &[u8], seed: u64, count: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut copy = bytes.to_vec();
    for _ in 0..count {
        let at = (next() % copy.len() as u64) as usize;
        copy[at] = next() as u8;
    }
    copy
}

/// A folder of damaged copies of a real plugin, and a library whose load-time
/// code ends the process that maps it.
fn hostile_folder() -> tempfile::TempDir {
    let dir = plugin_folder(&[("faulty_load_exit", "exits.so")]);
    let real = fs::read(built_library("plugboard_eval_material")).unwrap();
    for seed in 0..12 {
        fs::write(dir.path().join(format!("damaged{seed}.so")), damaged(&real, seed, 200)).unwrap();
    }
    dir
}

#[test]
fn damaged_and_hostile_libraries_are_refused_without_harm_to_the_engine() {
    let dir = hostile_folder();
    let home = tempfile::tempdir().unwrap();
    let output = Command::new(binary())
        .arg("--list-plugins")
        .env("HOME", home.path())
        .env_remove("XDG_CACHE_HOME")
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("PLUGBOARD_PLUGIN_PATH", dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{:?}\n{text}", output.status);
    let exits = text.lines().find(|l| l.contains("exits.so")).unwrap_or_else(|| panic!("exits.so not listed:\n{text}"));
    assert!(exits.starts_with("refused") && exits.contains("ended the process (exit status 3)"), "{exits}");
    // Each damaged copy is either refused with a reason or, when the damage
    // missed everything that matters, still the material evaluation.
    for seed in 0..12 {
        let file = format!("damaged{seed}.so");
        let listed = text.lines().any(|l| l.contains(&file));
        assert!(listed, "{file} neither refused nor listed:\n{text}");
    }
    for name in ["alphabeta", "pesto", "material"] {
        assert!(text.lines().any(|l| !l.starts_with("refused") && l.contains(name)), "{name} missing:\n{text}");
    }

    // The engine itself starts, plays, and survives the folder given as an option.
    let mut engine = Engine::start_at_home(tempfile::tempdir().unwrap(), Some(dir.path()), &[]);
    engine.handshake();
    engine.send(&format!("option Plugin folder={}", dir.path().display()));
    engine.sync(1);
    engine.send("new");
    engine.send("sd 2");
    engine.send("go");
    engine.expect_move();
}

#[test]
fn verdicts_are_kept_so_a_second_start_examines_nothing() {
    let dir = hostile_folder();
    let home = tempfile::tempdir().unwrap();
    let list = || {
        Command::new(binary())
            .arg("--list-plugins")
            .env("HOME", home.path())
            .env_remove("XDG_CACHE_HOME")
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("PLUGBOARD_PLUGIN_PATH", dir.path())
            .output()
            .expect("runs")
    };
    let first = list();
    let cache = home.path().join(".cache/plugboard/plugin-verdicts.txt");
    let kept = fs::read_to_string(&cache).expect("verdicts kept");
    assert!(kept.contains("exits.so"), "{kept}");
    // Nothing examined means nothing new to keep: the file is not written again.
    let written = fs::metadata(&cache).unwrap().modified().unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let second = list();
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(fs::metadata(&cache).unwrap().modified().unwrap(), written, "files were examined again");
    let exits = dir.path().join("exits.so");
    fs::copy(built_library("plugboard_eval_material"), &exits).unwrap();
    let third = String::from_utf8(list().stdout).unwrap();
    let exits = third.lines().find(|l| l.contains("exits.so")).unwrap_or_else(|| panic!("{third}"));
    // Now a copy of material, whose name is taken: examined anew, refused for that.
    assert!(exits.contains("another evaluation plugin named material"), "{exits}");
}

#[cfg(unix)]
#[test]
fn files_that_never_end_or_never_open_do_not_hold_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("book.fifo");
    mkfifo(&fifo);
    let sparse = dir.path().join("sparse.bin");
    fs::File::create(&sparse).unwrap().set_len(10 << 30).unwrap();

    let mut engine = Engine::start(None);
    engine.handshake();
    for (n, file) in ["/dev/zero", "/dev/urandom", fifo.to_str().unwrap()].into_iter().enumerate() {
        engine.send(&format!("option Book file={file}"));
        let said = engine.sync(n as u32);
        assert!(
            said.iter().any(|l| l.starts_with("tellusererror Book not opened") && l.contains("not a regular file")),
            "{file}: {said:?}"
        );
    }
    // Ten gigabytes of zeros are a whole number of entries: a book, probed on
    // disk, never read whole. Its entries are all key 0, so it has no moves here.
    engine.send(&format!("option Book file={}", sparse.display()));
    engine.send("bk");
    let said = engine.sync(10);
    assert!(!said.iter().any(|l| l.starts_with("tellusererror")), "{said:?}");
    assert!(said.iter().any(|l| l.contains("No book or tablebase moves")), "{said:?}");
    engine.send("quit");
    assert_eq!(engine.wait_exit(QUICKLY).map(|s| s.code()), Some(Some(0)));

    // A plugin-named file of ten gigabytes is refused by its size, unread.
    let plugins = tempfile::tempdir().unwrap();
    fs::File::create(plugins.path().join("huge.so")).unwrap().set_len(10 << 30).unwrap();
    let mut engine = Engine::start(Some(plugins.path()));
    let features = engine.handshake();
    assert!(features.iter().any(|l| l == "feature done=1"));
    let said = engine.sync(1);
    assert!(said.iter().any(|l| l.contains("huge.so") && l.contains("more than")), "{said:?}");
}

#[cfg(unix)]
#[test]
fn a_settings_file_that_is_no_file_is_refused_at_start_up() {
    for make in ["fifo", "zero", "million"] {
        let home = tempfile::tempdir().unwrap();
        let config = home.path().join(".config/plugboard");
        fs::create_dir_all(&config).unwrap();
        let settings = config.join("settings.txt");
        match make {
            "fifo" => mkfifo(&settings),
            "zero" => std::os::unix::fs::symlink("/dev/zero", &settings).unwrap(),
            _ => fs::write(&settings, "Contempt=5\n".repeat(1_000_000)).unwrap(),
        }
        let mut engine = Engine::start_at_home(home, None, &[]);
        engine.handshake();
        let said = engine.sync(1);
        assert!(said.iter().any(|l| l.starts_with("tellusererror Saved settings not applied")), "{make}: {said:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_the_log_is_refused_and_the_engine_plays_on() {
    let logs = tempfile::tempdir().unwrap();
    let days = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() / 86_400;
    mkfifo(&logs.path().join(plugboard::logging::daily_file_name(days as i64)));
    // At start-up, from the command line: no log, but an engine.
    let mut engine = Engine::start_with_args(None, &["--log-dir", logs.path().to_str().unwrap()]);
    engine.handshake();
    engine.sync(1);
    engine.send("quit");
    assert_eq!(engine.wait_exit(QUICKLY).map(|s| s.code()), Some(Some(0)));
    // And as an option while running: the log stays where it was.
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("option Log folder={}", logs.path().display()));
    let said = engine.sync(2);
    assert!(said.iter().any(|l| l.starts_with("tellusererror The log stays where it was") && l.contains("FIFO")));
}

#[test]
fn log_pruning_removes_only_the_engines_own_files() {
    let logs = tempfile::tempdir().unwrap();
    // The last is named as the engine's own files are, but the engine did not write it.
    let users = [
        "plugboard.changelog",
        "plugboard-backup.log",
        "plugboard_catalog",
        "plugboard.log",
        "plugboard.2019-12-31.log",
    ];
    for name in users {
        fs::write(logs.path().join(name), "the user's").unwrap();
    }
    fs::write(
        logs.path().join("plugboard.2020-01-01.log"),
        "2020-01-01T10:00:00.123456Z  INFO plugboard: plugboard starting version=\"0.1.0\"\n",
    )
    .unwrap();
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send(&format!("option Log folder={}", logs.path().display()));
    engine.send("option Log files=1");
    engine.sync(1);
    engine.send("quit");
    engine.wait_exit(QUICKLY);
    for name in users {
        assert_eq!(fs::read_to_string(logs.path().join(name)).unwrap(), "the user's", "{name}");
    }
    assert!(!logs.path().join("plugboard.2020-01-01.log").exists());
}

/// An engine whose thread that answers the GUI is stuck in a plugin's code.
fn stuck_engine() -> (Engine, tempfile::TempDir, tempfile::TempDir) {
    let plugins = plugin_folder(&[("faulty_eval_stuck", "stuck.so")]);
    let logs = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_args(Some(plugins.path()), &["--log-dir", logs.path().to_str().unwrap()]);
    engine.handshake();
    engine.send("option Evaluation=stuck");
    engine.sync(1);
    engine.send("option Stall=1");
    engine.send("ping 2");
    assert_eq!(engine.next_line(Duration::from_millis(300)), None, "the engine should be stuck");
    (engine, plugins, logs)
}

fn log_text(logs: &Path) -> String {
    fs::read_dir(logs).unwrap().filter_map(Result::ok).map(|e| fs::read_to_string(e.path()).unwrap()).collect()
}

#[test]
fn a_plugin_that_never_finishes_reading_its_file_costs_the_file_not_the_game() {
    let plugins = plugin_folder(&[("faulty_eval_stuck", "stuck.so")]);
    let mut engine = Engine::start(Some(plugins.path()));
    engine.handshake();
    engine.send("option Evaluation=stuck");
    engine.sync(1);
    engine.send("option Weights=/net/stalled/weights.bin");
    let said = engine.sync(2);
    assert!(said.iter().all(|l| !l.starts_with("tellusererror")), "{said:?}");
    engine.send("level 0 1 0");
    engine.send("go");
    let reply = engine.expect_move();
    assert!(!reply.is_empty());
    engine.send("quit");
    assert_eq!(engine.wait_exit(QUICKLY).expect("ended").code(), Some(0));
}

#[test]
fn quit_ends_a_stuck_engine_with_status_0_and_its_log_flushed() {
    let (mut engine, _plugins, logs) = stuck_engine();
    engine.send("quit");
    let status = engine.wait_exit(QUICKLY).expect("ended");
    assert_eq!(status.code(), Some(0));
    assert!(log_text(logs.path()).contains("did not end in time"), "{}", log_text(logs.path()));
}

#[test]
fn end_of_input_ends_a_stuck_engine_with_status_0() {
    let (mut engine, _plugins, logs) = stuck_engine();
    engine.close_input();
    assert_eq!(engine.wait_exit(QUICKLY).expect("ended").code(), Some(0));
    assert!(log_text(logs.path()).contains("why=\"end of input\""), "{}", log_text(logs.path()));
}

#[cfg(unix)]
#[test]
fn sigterm_ends_a_stuck_engine_with_status_0() {
    let (mut engine, _plugins, logs) = stuck_engine();
    // SAFETY: sends SIGTERM to our own child.
    assert_eq!(unsafe { libc::kill(engine.pid() as libc::pid_t, libc::SIGTERM) }, 0);
    assert_eq!(engine.wait_exit(QUICKLY).expect("ended").code(), Some(0));
    assert!(log_text(logs.path()).contains("why=\"SIGTERM\""), "{}", log_text(logs.path()));
}

#[test]
fn an_overlong_line_is_answered_by_a_short_error() {
    let logs = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_args(None, &["--log-dir", logs.path().to_str().unwrap()]);
    engine.handshake();
    let long = "x".repeat(50 << 20);
    engine.send(&long);
    let said: Vec<String> = engine.sync(1).into_iter().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(said.len(), 1, "{:?}", said.iter().map(|l| &l[..l.len().min(100)]).collect::<Vec<_>>());
    assert!(said[0].starts_with("Error (line too long): xxx") && said[0].len() < 400, "{}", &said[0][..100]);
    assert!(said[0].ends_with(&format!("({} bytes in all)", 50 << 20)), "{}", said[0]);
    engine.send("quit");
    assert_eq!(engine.wait_exit(QUICKLY).map(|s| s.code()), Some(Some(0)));
    // The log quotes the line as briefly as the reply does.
    let log = log_text(logs.path());
    assert!(log.len() < 64 * 1024, "the log holds {} bytes", log.len());
    assert!(log.lines().any(|l| l.contains("line too long") || l.contains("overlong")), "{log}");
    assert!(!log.lines().any(|l| l.len() > 1000), "a log line of over 1000 bytes");
}

#[test]
fn a_bare_carriage_return_ends_a_line() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("ping 5\rping 6");
    let said = engine.read_until(|l| l == "pong 6");
    assert!(said.contains(&"pong 5".to_owned()), "{said:?}");
}

#[test]
fn options_given_on_the_command_line_are_set() {
    let plugins = plugin_folder(&[("plugboard_eval_material", "material.so")]);
    let mut engine = Engine::start_with_args(
        Some(plugins.path()),
        &["--eval", "material", "--option", "Move overhead=250", "--option=Bishop pair bonus=77"],
    );
    let features = engine.handshake();
    let has = |text: &str| features.iter().any(|l| l.contains(text));
    assert!(
        has("Evaluation -combo nnue /// fairy /// *material /// pesto /// xiangqi-nnue /// xiangqi-pst"),
        "{features:?}"
    );
    assert!(has("Move overhead -spin 250 "), "{features:?}");
    assert!(has("Bishop pair bonus -spin 77 "), "{features:?}");

    let mut engine = Engine::start_with_args(None, &["--option", "No such option=1"]);
    engine.handshake();
    let said = engine.sync(1);
    assert!(said.iter().any(|l| l.starts_with("tellusererror Command line:") && l.contains("No such option")));
}

/// How many processes are examining `library` (Linux: from /proc).
#[cfg(target_os = "linux")]
fn examining(library: &Path) -> usize {
    let wanted = library.as_os_str().as_encoded_bytes();
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| fs::read(e.path().join("cmdline")).ok())
        .filter(|cmdline| {
            let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
            args.windows(2).any(|pair| pair[0] == b"--examine-plugin" && pair[1] == wanted)
        })
        .count()
}

/// How many processes are examining `library` once `settled` holds for that
/// count, or [`QUICKLY`] has passed: processes start and end a moment late.
#[cfg(target_os = "linux")]
fn examining_once(library: &Path, settled: impl Fn(usize) -> bool) -> usize {
    let deadline = std::time::Instant::now() + QUICKLY;
    loop {
        let count = examining(library);
        if settled(count) || std::time::Instant::now() >= deadline {
            return count;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_library_that_hangs_at_load_never_holds_the_engine_and_costs_one_start() {
    let plugins = plugin_folder(&[("faulty_load_hang", "hangs.so")]);
    let library = plugins.path().join("hangs.so");

    // Told to end while the file is examined: it ends at once, status 0, and the
    // examining child goes with it.
    for way in ["SIGTERM", "quit", "end of input"] {
        let mut engine = Engine::start(Some(plugins.path()));
        engine.send("xboard");
        engine.send("protover 2");
        // The GUI is told the features are coming, long before the examination ends.
        assert_eq!(engine.next_line(Duration::from_secs(5)).as_deref(), Some("feature done=0"), "{way}");
        // The examining child may start a moment after that line, on a busy machine.
        assert_eq!(examining_once(&library, |count| count > 0), 1, "{way}: the file should be under examination");
        match way {
            // SAFETY: sends SIGTERM to our own child.
            "SIGTERM" => assert_eq!(unsafe { libc::kill(engine.pid() as libc::pid_t, libc::SIGTERM) }, 0),
            "quit" => engine.send("quit"),
            _ => engine.close_input(),
        }
        assert_eq!(engine.wait_exit(QUICKLY).map(|s| s.code()), Some(Some(0)), "{way}");
        assert_eq!(examining_once(&library, |count| count == 0), 0, "{way}: the examining child outlived the engine");
    }

    // A patient GUI gets the features once the examination has given up, with the
    // file refused and why; the commands it sent meanwhile are answered in order.
    let mut engine = Engine::start(Some(plugins.path()));
    engine.send("xboard");
    engine.send("protover 2");
    engine.send("accepted debug");
    engine.send("ping 1");
    let said = engine.read_until(|l| l == "pong 1");
    assert_eq!(said.first().map(String::as_str), Some("feature done=0"), "{said:?}");
    let done = said.iter().position(|l| l == "feature done=1").expect("features end");
    assert!(said[..done].iter().any(|l| l.starts_with("feature myname=")), "{said:?}");
    let refusal = said[done..].iter().find(|l| l.contains("hangs.so")).unwrap_or_else(|| panic!("{said:?}"));
    assert!(refusal.contains("did not finish within 10 s"), "{refusal}");
    let home = engine.quit_keeping_home();
    let cache = home.path().join(".cache/plugboard/plugin-verdicts.txt");
    let written = fs::metadata(&cache).unwrap().modified().unwrap();

    // The next start keeps that verdict: nothing examined, the file still refused.
    let mut engine = Engine::start_at_home(home, Some(plugins.path()), &[]);
    engine.send("xboard");
    engine.send("protover 2");
    engine.send("accepted debug");
    engine.send("ping 2");
    let said = engine.read_until(|l| l == "pong 2");
    assert!(said.iter().any(|l| l.contains("hangs.so") && l.contains("did not finish")), "{said:?}");
    assert_eq!(examining(&library), 0);
    let home = engine.quit_keeping_home();
    assert_eq!(fs::metadata(&cache).unwrap().modified().unwrap(), written, "the file was examined again");

    // Rescan plugins, the user's own request, examines it again.
    let mut engine = Engine::start_at_home(home, Some(plugins.path()), &[]);
    engine.handshake();
    engine.sync(3);
    engine.send("option Rescan plugins");
    assert_eq!(examining_once(&library, |count| count > 0), 1, "Rescan plugins should examine the file again");
    // Meanwhile the engine answers, and plays.
    engine.send("new");
    engine.send("sd 2");
    engine.send("go");
    engine.expect_move();
    engine.sync(4);
    assert_eq!(examining(&library), 1, "the examination should still be under way");
    // When it gives up, the user hears of the refusal.
    let told = engine.read_until(|l| l.starts_with("telluser Plugins refused"));
    let told = told.last().unwrap();
    assert!(told.contains("hangs.so") && told.contains("did not finish within 10 s"), "{told}");
}

/// `plugboard --list-plugins` run as `exe` (a copy of the engine, so that its
/// folder is another), with `home` as the user's home; what it printed.
fn list_plugins_of(exe: &Path, home: &Path, env: &[(&str, &Path)]) -> String {
    let output = Command::new(exe)
        .arg("--list-plugins")
        .env("HOME", home)
        .env_remove("XDG_CACHE_HOME")
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("PLUGBOARD_PLUGIN_PATH")
        .envs(env.iter().map(|(name, value)| (*name, value.as_os_str())))
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn library_name(stem: &str) -> String {
    format!("{}{stem}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX)
}

#[test]
fn a_plugin_beside_the_engine_under_another_name_is_listed_with_where_it_belongs() {
    let install = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let exe = install.path().join("plugboard");
    fs::copy(binary(), &exe).unwrap();
    // As the README's example is named, and a bundled plugin as the build names it.
    let mine = install.path().join(library_name("my_eval"));
    fs::copy(built_library("plugboard_eval_material"), &mine).unwrap();
    fs::copy(
        built_library("plugboard_eval_nnue_plugin"),
        install.path().join(library_name("plugboard_eval_nnue_plugin")),
    )
    .unwrap();
    let listed = list_plugins_of(&exe, home.path(), &[]);
    let user_folder = home.path().join("data/plugboard/plugins");
    let line = listed.lines().find(|l| l.contains(&library_name("my_eval"))).unwrap_or_else(|| panic!("{listed}"));
    assert!(line.starts_with("not loaded "), "{line}");
    assert!(line.contains(&user_folder.display().to_string()), "{line}");
    assert!(line.contains(&format!("rename it {}", library_name("plugboard_my_eval"))), "{line}");
    assert!(!listed.lines().any(|l| l.starts_with("evaluation material")), "{listed}");
    // The bundled plugin is there twice, and the list says which copy is used.
    let nnue: Vec<&str> = listed.lines().filter(|l| l.starts_with("evaluation nnue")).collect();
    assert_eq!(nnue.len(), 2, "{listed}");
    let (built_in, file) = match nnue.as_slice() {
        [first, second] if first.contains("(built in)") => (first, second),
        [first, second] => (second, first),
        _ => unreachable!(),
    };
    assert!(file.contains("chosen") && file.contains("used instead of the built-in copy"), "{file}");
    assert!(built_in.contains("not used: the file") && !built_in.contains("chosen"), "{built_in}");
    // Where the list says, it is found: in the user's folder, or renamed.
    fs::create_dir_all(&user_folder).unwrap();
    fs::rename(&mine, user_folder.join(library_name("my_eval"))).unwrap();
    let listed = list_plugins_of(&exe, home.path(), &[]);
    assert!(listed.lines().any(|l| l.starts_with("evaluation material") && l.contains("my_eval")), "{listed}");
    fs::rename(user_folder.join(library_name("my_eval")), install.path().join(library_name("plugboard_my_eval")))
        .unwrap();
    let listed = list_plugins_of(&exe, home.path(), &[]);
    assert!(
        listed.lines().any(|l| l.starts_with("evaluation material") && l.contains("plugboard_my_eval")),
        "{listed}"
    );
    assert!(!listed.contains("not loaded"), "{listed}");
}

#[test]
fn a_library_that_exports_no_plugin_entry_point_is_never_mapped() {
    let dir = plugin_folder(&[("faulty_load_mark", "mark.so")]);
    let home = tempfile::tempdir().unwrap();
    let mark = home.path().join("mapped");
    for _ in 0..2 {
        let listed = list_plugins_of(
            &binary(),
            home.path(),
            &[("PLUGBOARD_PLUGIN_PATH", dir.path()), ("PLUGBOARD_TEST_MARK", &mark)],
        );
        let line = listed.lines().find(|l| l.contains("mark.so")).unwrap_or_else(|| panic!("{listed}"));
        assert!(line.starts_with("refused") && line.contains("exports no plugin entry point"), "{line}");
        assert!(!mark.exists(), "its load-time code ran");
    }
    // Nor at a rescan of a running engine.
    let mut engine = Engine::start_with_env(
        tempfile::tempdir().unwrap(),
        Some(dir.path()),
        &[],
        &[("PLUGBOARD_TEST_MARK", mark.as_os_str())],
    );
    engine.handshake();
    engine.send("option Rescan plugins");
    engine.sync(1);
    assert!(!mark.exists(), "its load-time code ran at a rescan");
}

#[test]
fn choosing_a_plugin_that_cannot_play_the_game_is_told() {
    let mut engine = Engine::start(None);
    engine.handshake();
    engine.send("variant xiangqi");
    engine.sync(1);
    engine.send("option Search=example");
    let said = engine.sync(2);
    assert!(
        said.iter().any(|l| l == "tellusererror The search example cannot play xiangqi; alphabeta plays this game."),
        "{said:?}"
    );
    // The game goes on with the search that plays it.
    engine.send("new");
    engine.send("variant xiangqi");
    engine.send("st 0.2");
    engine.send("go");
    engine.expect_move();
}
