//! Examining a library before the engine maps it. Mapping a library runs its
//! load-time code, and a damaged file can crash the dynamic loader itself, so
//! an unknown file is loaded by a child process (the engine re-run with
//! `--examine-plugin FILE`) that prints the plugin's description or why it is
//! none; a child that crashes, exits or hangs means the file is refused with
//! that reason. Verdicts are kept by path, size and modification time, so a
//! start with known plugins spawns nothing. A file refused because its child
//! ran out of time is refused so at later starts too (a library whose load-time
//! code hangs would otherwise cost every start the whole patience), and examined
//! again when the user asks for a rescan.

use std::{
    collections::HashMap,
    io::{Read, Write},
    path::{Path, PathBuf},
    process::{Child, Command, ExitCode, Stdio},
    thread,
    time::{Duration, Instant, UNIX_EPOCH},
};

use abi_stable::std_types::{RString, RVec};
use plugboard_plugin_api::{OptionKind, OptionSpec, PluginInfo};

use super::{
    Kind,
    loader::{self, Loaded},
    symbols,
};
use crate::files;

/// The hidden command-line flag of the examining child.
pub const EXAMINE_FLAG: &str = "--examine-plugin";
/// How long a child may take to load and describe one library.
pub const PATIENCE: Duration = Duration::from_secs(10);
/// Children examining at once.
const AT_ONCE: usize = 8;
/// More than any plugin's description: a child printing more is refused.
const MAX_REPORT_BYTES: u64 = 1 << 20;
const MAX_CACHE_BYTES: u64 = 4 << 20;
const HEADER: &str = "plugboard-examination 1";

/// What examining a file found.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Plugin { kind: Kind, info: PluginInfo },
    Refused(String),
}

/// Why `path` is no plugin, as far as its symbol table tells without mapping
/// it; `None` when it exports the entry point and is to be examined further.
pub fn statically_refused(path: &Path) -> Option<String> {
    if let Ok(meta) = std::fs::metadata(path)
        && meta.len() > loader::MAX_LIBRARY_BYTES
    {
        return Some(format!(
            "it is {} bytes, more than the {} a library may have; it was not read",
            meta.len(),
            loader::MAX_LIBRARY_BYTES
        ));
    }
    match symbols::exports_entry_point(path) {
        Ok(true) => None,
        Ok(false) => Some(
            "it exports no plugin entry point (which `export_eval_plugin!` and `export_search_plugin!` add): \
             it is no Plugboard plugin, and was not loaded"
                .into(),
        ),
        Err(why) => Some(format!("{why}; it was not loaded")),
    }
}

/// In the child: loads `path`, prints its verdict, and ends.
pub fn examine_here(path: &Path) -> ExitCode {
    let verdict = match statically_refused(path).map_or_else(|| loader::load(path), Err) {
        Ok(Loaded::Search(_, info)) => Verdict::Plugin { kind: Kind::Search, info },
        Ok(Loaded::Eval(_, info)) => Verdict::Plugin { kind: Kind::Eval, info },
        Err(reason) => Verdict::Refused(reason),
    };
    let mut out = std::io::stdout().lock();
    let written = writeln!(out, "{HEADER}").and_then(|()| out.write_all(write_verdict(&verdict).as_bytes()));
    let _ = out.flush();
    if written.is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Who examines: the engine's own program, and the verdicts it has already given.
pub struct Examiner {
    program: Option<PathBuf>,
    cache_path: Option<PathBuf>,
    cache: HashMap<Stamp, Kept>,
    /// Verdicts depend on the engine that gave them (its plugin API).
    engine_id: String,
}

/// A verdict kept, and whether it came from a child that ran out of time.
#[derive(Debug, Clone)]
struct Kept {
    verdict: Verdict,
    timed_out: bool,
}

/// A file as it was when examined.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Stamp {
    path: PathBuf,
    size: u64,
    modified_ns: u128,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        let modified_ns = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?.as_nanos();
        Some(Stamp { path: path.to_path_buf(), size: meta.len(), modified_ns })
    }
}

impl Examiner {
    /// Examines with this very program, keeping verdicts in the user's cache folder.
    pub fn new() -> Examiner {
        let program = std::env::current_exe().ok();
        let engine_id = program.as_deref().and_then(Stamp::of).map_or_else(String::new, |stamp| {
            format!("{} {} {}", env!("CARGO_PKG_VERSION"), stamp.size, stamp.modified_ns)
        });
        let cache_path = directories::ProjectDirs::from("org", "Plugboard", "plugboard")
            .map(|dirs| dirs.cache_dir().join("plugin-verdicts.txt"));
        let mut examiner = Examiner { program, cache_path, cache: HashMap::new(), engine_id };
        examiner.load_cache();
        examiner
    }

    /// The verdict on every file, examining in children those not known already.
    pub fn examine(&mut self, paths: &[PathBuf]) -> Vec<(PathBuf, Verdict)> {
        let stamps: Vec<Option<Stamp>> = paths.iter().map(|path| Stamp::of(path)).collect();
        let unknown: Vec<&Stamp> = stamps.iter().flatten().filter(|stamp| !self.cache.contains_key(*stamp)).collect();
        let mut fresh = Vec::new();
        // Read as data first: a file without the entry point is never mapped,
        // so its load-time code never runs, not even in a child.
        let mut to_load = Vec::new();
        for stamp in unknown {
            match statically_refused(&stamp.path) {
                Some(why) => {
                    tracing::info!(path = %stamp.path.display(), reason = %why, "plugin file refused unloaded");
                    fresh.push((stamp.clone(), Kept { verdict: Verdict::Refused(why), timed_out: false }));
                }
                None => to_load.push(stamp),
            }
        }
        for batch in to_load.chunks(AT_ONCE) {
            let started: Vec<(&Stamp, Result<Child, String>)> =
                batch.iter().map(|stamp| (*stamp, self.spawn(&stamp.path))).collect();
            let deadline = Instant::now() + PATIENCE;
            for (stamp, child) in started {
                let (verdict, timed_out) = match child {
                    Ok(child) => collect(child, deadline),
                    Err(why) => (Verdict::Refused(why), false),
                };
                tracing::info!(path = %stamp.path.display(), ?verdict, "plugin file examined");
                fresh.push((stamp.clone(), Kept { verdict, timed_out }));
            }
        }
        let examined = !fresh.is_empty();
        self.cache.extend(fresh);
        if examined {
            self.save_cache();
        }
        paths
            .iter()
            .zip(&stamps)
            .map(|(path, stamp)| {
                let verdict = stamp.as_ref().and_then(|stamp| self.cache.get(stamp)).map(|kept| kept.verdict.clone());
                (path.clone(), verdict.unwrap_or_else(|| Verdict::Refused("it cannot be read".into())))
            })
            .collect()
    }

    /// Files whose child ran out of time are examined again at the next scan (a
    /// timeout on a loaded machine may not happen again).
    pub fn forget_timeouts(&mut self) {
        self.cache.retain(|_, kept| !kept.timed_out);
    }

    fn spawn(&self, path: &Path) -> Result<Child, String> {
        let program = self.program.as_ref().ok_or("the engine cannot find its own program to examine it")?;
        let mut command = Command::new(program);
        command.arg(EXAMINE_FLAG).arg(path).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        end_with_parent(&mut command);
        command.spawn().map_err(|e| format!("it could not be examined: {e}"))
    }

    fn load_cache(&mut self) {
        let Some(path) = &self.cache_path else { return };
        let Ok(bytes) = files::read_bounded(path, MAX_CACHE_BYTES) else { return };
        let text = String::from_utf8_lossy(&bytes);
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let fields: Vec<String> = line.split('\t').map(unescape).collect();
            let [tag, path, size, modified, engine] = fields.as_slice() else { continue };
            let Some(verdict) = read_verdict(&mut lines) else { break };
            let timed_out = match tag.as_str() {
                "file" => false,
                "timeout" => true,
                _ => continue,
            };
            if *engine != self.engine_id {
                continue;
            }
            let (Ok(size), Ok(modified_ns)) = (size.parse(), modified.parse()) else { continue };
            self.cache.insert(Stamp { path: PathBuf::from(path), size, modified_ns }, Kept { verdict, timed_out });
        }
    }

    fn save_cache(&self) {
        let Some(path) = &self.cache_path else { return };
        let mut text = String::new();
        for (stamp, Kept { verdict, timed_out }) in &self.cache {
            let fields = [
                if *timed_out { "timeout" } else { "file" }.to_owned(),
                stamp.path.display().to_string(),
                stamp.size.to_string(),
                stamp.modified_ns.to_string(),
                self.engine_id.clone(),
            ];
            text += &fields.iter().map(|f| escape(f)).collect::<Vec<_>>().join("\t");
            text.push('\n');
            text += &write_verdict(verdict);
        }
        let saved = (|| -> std::io::Result<()> {
            let folder = path.parent().ok_or(std::io::ErrorKind::NotFound)?;
            std::fs::create_dir_all(folder)?;
            let mut staging = tempfile::Builder::new().prefix(".verdicts-").tempfile_in(folder)?;
            staging.write_all(text.as_bytes())?;
            staging.persist(path).map_err(|e| e.error)?;
            Ok(())
        })();
        if let Err(error) = saved {
            tracing::warn!(path = %path.display(), %error, "plugin verdicts not saved");
        }
    }
}

impl Default for Examiner {
    fn default() -> Examiner {
        Examiner::new()
    }
}

/// A child whose library hangs must not outlive an engine that ended before its
/// patience ran out (told to quit, say): Linux kills it with its parent.
#[cfg(target_os = "linux")]
fn end_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec the closure calls only async-signal-safe
    // functions (prctl, getppid, _exit) and allocates nothing.
    let parent = std::process::id() as libc::pid_t;
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have ended before the request took hold.
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn end_with_parent(_command: &mut Command) {}

/// Waits for a child's verdict until `deadline`; also whether the child ran out
/// of time.
fn collect(mut child: Child, deadline: Instant) -> (Verdict, bool) {
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let reader = thread::spawn(move || {
        let mut report = Vec::new();
        if let Some(stdout) = stdout {
            let _ = stdout.take(MAX_REPORT_BYTES + 1).read_to_end(&mut report);
        }
        report
    });
    let errors = thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(stderr) = stderr {
            let _ = stderr.take(64 * 1024).read_to_end(&mut text);
        }
        text
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => break None,
            Ok(None) => thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    let Some(status) = status else {
        let _ = child.kill();
        let _ = child.wait();
        let why =
            format!("loading it did not finish within {} s (examined again on Rescan plugins)", PATIENCE.as_secs());
        return (Verdict::Refused(why), true);
    };
    let report = reader.join().unwrap_or_default();
    let errors = errors.join().unwrap_or_default();
    let first_error = String::from_utf8_lossy(&errors).lines().find(|l| !l.trim().is_empty()).map(str::to_owned);
    if report.len() as u64 > MAX_REPORT_BYTES {
        return (Verdict::Refused("its description is too long".into()), false);
    }
    let text = String::from_utf8_lossy(&report);
    let mut lines = text.lines();
    if status.success()
        && lines.next() == Some(HEADER)
        && let Some(verdict) = read_verdict(&mut lines)
    {
        return (verdict, false);
    }
    let detail = first_error.map(|e| format!(": {}", crate::quote::quote(e.trim()))).unwrap_or_default();
    (Verdict::Refused(format!("loading it {}{detail}", ended_how(status))), false)
}

/// How a child that gave no verdict ended, for the refusal.
fn ended_how(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGILL => " (SIGILL)",
                libc::SIGFPE => " (SIGFPE)",
                libc::SIGKILL => " (SIGKILL)",
                _ => "",
            };
            return format!("crashed the process (signal {signal}{name})");
        }
    }
    match status.code() {
        Some(code) => format!("ended the process (exit status {code})"),
        None => "ended the process".to_owned(),
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Search => "search",
        Kind::Eval => "eval",
    }
}

/// A verdict as lines of tab-separated escaped fields, ending with `end`.
fn write_verdict(verdict: &Verdict) -> String {
    let mut lines: Vec<Vec<String>> = Vec::new();
    match verdict {
        Verdict::Refused(reason) => lines.push(vec!["refused".into(), reason.clone()]),
        Verdict::Plugin { kind, info } => {
            lines.push(vec!["kind".into(), kind_name(*kind).into()]);
            for (key, value) in [
                ("name", &info.name),
                ("version", &info.version),
                ("author", &info.author),
                ("description", &info.description),
                ("variants", &info.variants),
            ] {
                lines.push(vec![key.into(), value.to_string()]);
            }
            for spec in info.options.iter() {
                let mut fields = vec![
                    "option".to_owned(),
                    spec.name.to_string(),
                    spec.kind.cecp_name().to_owned(),
                    spec.default.to_string(),
                    spec.min.to_string(),
                    spec.max.to_string(),
                ];
                fields.extend(spec.choices.iter().map(ToString::to_string));
                lines.push(fields);
            }
        }
    }
    lines.push(vec!["end".into()]);
    lines.iter().map(|fields| fields.iter().map(|f| escape(f)).collect::<Vec<_>>().join("\t") + "\n").collect()
}

/// Reads a verdict up to its `end` line; `None` if it is malformed.
fn read_verdict<'a>(lines: &mut impl Iterator<Item = &'a str>) -> Option<Verdict> {
    let mut kind = None;
    let mut refused = None;
    let mut info = PluginInfo::new("", "");
    for line in lines.by_ref() {
        let fields: Vec<String> = line.split('\t').map(unescape).collect();
        match fields.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
            ["end"] => {
                return match (refused, kind) {
                    (Some(reason), _) => Some(Verdict::Refused(reason)),
                    (None, Some(kind)) => Some(Verdict::Plugin { kind, info }),
                    (None, None) => None,
                };
            }
            ["refused", reason] => refused = Some((*reason).to_owned()),
            ["kind", "search"] => kind = Some(Kind::Search),
            ["kind", "eval"] => kind = Some(Kind::Eval),
            ["name", value] => info.name = RString::from(*value),
            ["version", value] => info.version = RString::from(*value),
            ["author", value] => info.author = RString::from(*value),
            ["description", value] => info.description = RString::from(*value),
            ["variants", value] => info.variants = RString::from(*value),
            ["option", name, kind, default, min, max, choices @ ..] => {
                let kind = option_kind(kind)?;
                info.options.push(OptionSpec {
                    name: RString::from(*name),
                    kind,
                    default: RString::from(*default),
                    min: min.parse().ok()?,
                    max: max.parse().ok()?,
                    choices: choices.iter().map(|c| RString::from(*c)).collect::<RVec<RString>>(),
                });
            }
            _ => return None,
        }
    }
    None
}

fn option_kind(name: &str) -> Option<OptionKind> {
    use OptionKind::*;
    [Button, Save, Reset, Check, String, Spin, Slider, Combo, File, Path].into_iter().find(|k| k.cecp_name() == name)
}

/// Keeps a field on one line and free of tabs: `%`, tab, CR, LF and other
/// control characters become `%XX`.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '%' || c.is_control() {
            let mut buffer = [0u8; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                escaped += &format!("%{byte:02X}");
            }
        } else {
            escaped.push(c);
        }
    }
    escaped
}

fn unescape(text: &str) -> String {
    let mut bytes = Vec::with_capacity(text.len());
    let raw = text.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%'
            && let Some(byte) =
                raw.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok())
        {
            bytes.push(byte);
            i += 3;
        } else {
            bytes.push(raw[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_survive_their_text_form() {
        let info = PluginInfo::new("my eval", "1.0%")
            .author("A\tB")
            .description("two\nlines")
            .variants("normal,atomic")
            .option(OptionSpec::spin("Knight centre bonus", 5, -100, 100))
            .option(OptionSpec::combo("Style", "solid", &["solid", "wild one"]))
            .option(OptionSpec::button("Clear"));
        for verdict in [Verdict::Plugin { kind: Kind::Eval, info }, Verdict::Refused("bad\r\nfile".into())] {
            let text = write_verdict(&verdict);
            assert_eq!(text.lines().count(), text.matches('\n').count());
            assert_eq!(read_verdict(&mut text.lines()), Some(verdict));
        }
        assert_eq!(read_verdict(&mut "kind\tsearch\nfrobnicate\nend\n".lines()), None);
        assert_eq!(read_verdict(&mut "kind\tsearch\n".lines()), None);
    }
}
