//! Drives the built `plugboard` binary through its stdin/stdout, as a GUI does.

#![allow(dead_code)]

use std::{
    io::{BufRead, BufReader, Write},
    path::{Path, PathBuf},
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    thread,
    time::{Duration, Instant},
};

/// Generous: these bound a hang, they do not measure speed.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_plugboard"))
}

/// The folder cargo built everything into (the binary's, where plugins land).
pub fn build_folder() -> PathBuf {
    binary().parent().expect("the binary lives in a folder").to_path_buf()
}

/// A library built by the workspace, e.g. `faulty_eval_panic`.
pub fn built_library(stem: &str) -> PathBuf {
    let path = build_folder().join(format!("{}{stem}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build the whole workspace first (`cargo build --release --workspace`, as scripts/test does)",
        path.display()
    );
    path
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub transcript: Vec<String>,
    _home: tempfile::TempDir,
}

impl Engine {
    /// Starts the engine with a private home (no user plugins, logs kept apart) and
    /// `plugin_path` as `PLUGBOARD_PLUGIN_PATH`.
    pub fn start(plugin_path: Option<&Path>) -> Engine {
        Engine::start_with_args(plugin_path, &[])
    }

    pub fn start_with_args(plugin_path: Option<&Path>, args: &[&str]) -> Engine {
        Engine::start_at_home(tempfile::tempdir().expect("a temporary home"), plugin_path, args)
    }

    /// Starts the engine with `home` as its home folder (settings, logs, user plugins).
    pub fn start_at_home(home: tempfile::TempDir, plugin_path: Option<&Path>, args: &[&str]) -> Engine {
        Engine::start_with_env(home, plugin_path, args, &[])
    }

    /// As [`Engine::start_at_home`], with more environment variables.
    pub fn start_with_env(
        home: tempfile::TempDir,
        plugin_path: Option<&Path>,
        args: &[&str],
        env: &[(&str, &std::ffi::OsStr)],
    ) -> Engine {
        let mut command = Command::new(binary());
        command
            .args(args)
            .env("HOME", home.path())
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_CACHE_HOME")
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env_remove("PLUGBOARD_PLUGIN_PATH")
            .env_remove("PLUGBOARD_VARIANT_PATH")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(path) = plugin_path {
            command.env("PLUGBOARD_PLUGIN_PATH", path);
        }
        command.envs(env.iter().copied());
        let mut child = command.spawn().expect("the engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines, transcript: Vec::new(), _home: home }
    }

    /// `xboard`, `protover 2`, and everything up to `feature done=1`; accepts every feature.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("xboard");
        self.send("protover 2");
        let features = self.read_until(|l| l == "feature done=1");
        for line in &features {
            if let Some(rest) = line.strip_prefix("feature ") {
                for name in feature_names(rest) {
                    self.send(&format!("accepted {name}"));
                }
            }
        }
        features
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let finished = done(&line);
                    lines.push(line);
                    if finished {
                        return lines;
                    }
                }
                None => panic!("no expected line within {PATIENCE:?}; transcript:\n{}", self.transcript.join("\n")),
            }
        }
    }

    /// Sends `ping N` and returns everything printed before `pong N`.
    pub fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let mut lines = self.read_until(|l| l == pong);
        lines.pop();
        lines
    }

    /// An engine that has announced `variant`, started on a new game of it
    /// in `force` mode; with its features, and what it said on starting the
    /// game (its `piece` lines).
    pub fn in_variant(variant: &str) -> (Engine, String, Vec<String>) {
        let mut engine = Engine::start(None);
        let features = engine.handshake().join("\n");
        let listed = [format!(",{variant},"), format!(",{variant}\""), format!("\"{variant},")];
        assert!(listed.iter().any(|form| features.contains(form)), "{variant} not announced: {features}");
        engine.send("new");
        engine.send(&format!("variant {variant}"));
        let said = engine.sync(100);
        engine.send("force");
        (engine, features, said)
    }

    /// What the engine said before `pong n`, its `#` diagnostics left out.
    pub fn said(&mut self, n: u32) -> Vec<String> {
        self.sync(n).into_iter().filter(|line| !line.starts_with('#')).collect()
    }

    /// [`Engine::said`] with the `piece` lines of a variant's start left out too.
    pub fn said_but_pieces(&mut self, n: u32) -> Vec<String> {
        self.said(n).into_iter().filter(|line| !line.starts_with("piece ")).collect()
    }

    /// Waits for `move X` and returns X.
    pub fn expect_move(&mut self) -> String {
        let lines = self.read_until(|l| l.starts_with("move "));
        lines.last().and_then(|l| l.strip_prefix("move ")).unwrap_or_default().to_owned()
    }

    /// Waits up to `timeout` for the process to end; its exit status.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Ends the engine with `quit` and hands back its home folder for the next one.
    pub fn quit_keeping_home(mut self) -> tempfile::TempDir {
        self.send("quit");
        self.wait_exit(PATIENCE);
        let home = tempfile::tempdir().expect("a temporary folder");
        std::mem::replace(&mut self._home, home)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `a=1 b="x y" c=2` → [a, b, c]
fn feature_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = text.trim();
    while let Some((name, after)) = rest.split_once('=') {
        names.push(name.trim().to_owned());
        rest = if let Some(quoted) = after.strip_prefix('"') {
            quoted.split_once('"').map_or("", |(_, tail)| tail).trim()
        } else {
            after.split_once(' ').map_or("", |(_, tail)| tail).trim()
        };
    }
    names
}

/// Parses a thinking line `DEPTH SCORE TIME NODES ...\tPV` into (depth, score, pv).
pub fn thinking(line: &str) -> Option<(u32, i64, String)> {
    let (numbers, pv) = line.split_once('\t')?;
    let mut fields = numbers.split_whitespace();
    let depth = fields.next()?.parse().ok()?;
    let score = fields.next()?.parse().ok()?;
    Some((depth, score, pv.to_owned()))
}

/// A folder of plugins for one test.
pub fn plugin_folder(libraries: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary plugin folder");
    for (stem, name) in libraries {
        std::fs::copy(built_library(stem), dir.path().join(name)).expect("copy a plugin");
    }
    dir
}
