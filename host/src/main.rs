//! The `plugboard` command: the engine on stdin/stdout, or a tool (`bench`, `perft`,
//! `book make`, `datagen`, `--list-plugins`).

use std::{ffi::OsString, path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use plugboard::{
    bench, book, datagen, engine,
    logging::{LogTarget, Logging},
    perft,
    plugins::{Kind, Origin, PluginHost, Target},
};

#[derive(Parser)]
#[command(
    name = "plugboard",
    version,
    about = "A chess engine for xboard/WinBoard whose search and evaluation are plugins",
    // Arguments built in (`make ARGS=...`) come first; the user's own replace them.
    args_override_self = true
)]
struct Cli {
    /// List every plugin found (and every file refused, with why), then exit.
    #[arg(long)]
    list_plugins: bool,
    /// Another folder to look for plugins in (may be repeated).
    #[arg(long = "plugin-dir", value_name = "DIR")]
    plugin_dirs: Vec<PathBuf>,
    /// Write the debug log to this one file instead of daily files.
    #[arg(long, value_name = "FILE", conflicts_with = "log_dir")]
    log_file: Option<PathBuf>,
    /// Keep the daily log files in this folder instead of the data folder's `logs`.
    #[arg(long, value_name = "DIR")]
    log_dir: Option<PathBuf>,
    /// How many daily log files to keep; older ones are deleted.
    #[arg(long, value_name = "N", default_value_t = 7, value_parser = clap::value_parser!(u16).range(1..=365))]
    log_files: u16,
    /// The search plugin to use, by name (as the `Search` option).
    #[arg(long, value_name = "NAME")]
    search: Option<String>,
    /// The evaluation plugin to use, by name (as the `Evaluation` option).
    #[arg(long, value_name = "NAME")]
    eval: Option<String>,
    /// Sets an option as the GUI's `option NAME=VALUE` would, after the saved
    /// settings; for clients that cannot send names with spaces (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Examines one library in this process and prints what it is (the engine
    /// runs itself so to look at unknown files without loading them).
    #[arg(long = "examine-plugin", value_name = "FILE", hide = true)]
    examine_plugin: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Search fixed positions to a fixed depth: total nodes (the signature) and nodes per second.
    Bench(bench::BenchArgs),
    /// Count the leaf nodes of the move tree to DEPTH from FEN (default: the start position).
    Perft {
        /// The rules to count by: normal, xiangqi, or a variant defined as data (capablanca, …).
        #[arg(long, default_value = "normal")]
        variant: String,
        depth: u32,
        /// A position in FEN; quote it.
        fen: Option<String>,
    },
    /// Opening book tools.
    #[command(subcommand)]
    Book(BookTool),
    /// Self-play games at a fixed node count, appended as training positions
    /// for the NNUE evaluation (resumable: run it again to go on).
    Datagen(datagen::DatagenArgs),
    /// Joins the parts `datagen --shard` made into one shuffled set without
    /// repeated positions, in our records and bullet's, with a manifest.
    Merge(datagen::merge::MergeArgs),
    /// OpenBench's opening generator: `genfens N seed S book <None|FILE.epd> [plies K] [nodes K]`,
    /// printed as `info string genfens FEN` lines (also as the one argument OpenBench passes).
    Genfens {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        words: Vec<String>,
    },
}

/// The command line, after the arguments built into this binary (`make
/// ARGS=...`, for OpenBench, which runs the engine without any) and with
/// OpenBench's `"genfens N seed S book B"`, one argument, split into words.
fn arguments() -> Vec<OsString> {
    let mut args: Vec<OsString> = std::env::args_os().collect();
    if let Some(built_in) = option_env!("PLUGBOARD_DEFAULT_ARGS") {
        let at = 1.min(args.len());
        args.splice(at..at, built_in.split_whitespace().map(OsString::from));
    }
    let texts: Vec<String> = args.iter().map(|arg| arg.to_string_lossy().into_owned()).collect();
    if let Some(at) = datagen::genfens::asked(&texts) {
        let words: Vec<OsString> =
            texts[at..].iter().flat_map(|arg| arg.split_whitespace()).map(OsString::from).collect();
        args.splice(at.., words);
    }
    args
}

#[derive(Subcommand)]
enum BookTool {
    /// Build a Polyglot book from PGN games, weighted by results as Polyglot does.
    Make(book::maker::MakeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(arguments());
    if let Some(path) = &cli.examine_plugin {
        // No log: the child must touch nothing of the user's but its report.
        let code = plugboard::plugins::examine::examine_here(path);
        plugboard::files::remove_private_dir();
        return code;
    }
    let target =
        LogTarget { file: cli.log_file.clone(), folder: cli.log_dir.clone(), kept_files: usize::from(cli.log_files) };
    let (logging, opened) = Logging::init(target);
    if let Err(why) = &opened {
        // Not on stdout: the GUI reads it. The engine still plays without a log.
        eprintln!("plugboard: no debug log: {why}");
    }
    plugboard::exit::register_logging(&logging);
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "plugboard starting");
    let mut plugins = PluginHost::new(cli.plugin_dirs.clone());
    let code = match cli.command {
        Some(Tool::Perft { variant, depth, fen }) => perft::run(&variant, depth, fen.as_deref()),
        Some(Tool::Book(BookTool::Make(args))) => book::maker::run(&args),
        Some(Tool::Bench(args)) => {
            match choose_plugins(&mut plugins, cli.search.as_deref(), cli.eval.as_deref(), &cli.options) {
                Ok(()) => bench::run(&plugins, &args),
                Err(code) => code,
            }
        }
        Some(Tool::Datagen(args)) => {
            match choose_plugins(&mut plugins, cli.search.as_deref(), cli.eval.as_deref(), &cli.options) {
                Ok(()) => datagen::run(&plugins, &args),
                Err(code) => code,
            }
        }
        Some(Tool::Merge(args)) => datagen::merge::run(&args),
        Some(Tool::Genfens { words }) => {
            let words: Vec<String> = std::iter::once("genfens".to_owned()).chain(words).collect();
            match datagen::genfens::parse(&words) {
                Err(why) => {
                    eprintln!("plugboard: {why}");
                    ExitCode::FAILURE
                }
                Ok(request) => {
                    match choose_plugins(&mut plugins, cli.search.as_deref(), cli.eval.as_deref(), &cli.options) {
                        Ok(()) => datagen::genfens::run(&plugins, &request),
                        Err(code) => code,
                    }
                }
            }
        }
        None if cli.list_plugins => {
            plugins.scan();
            print!("{}", list_plugins(&plugins));
            ExitCode::SUCCESS
        }
        None => {
            // engine::run scans, while it already listens to the GUI and to signals.
            let mut startup = Vec::new();
            if let Some(name) = &cli.search {
                startup.push(("Search".to_owned(), name.clone()));
            }
            if let Some(name) = &cli.eval {
                startup.push(("Evaluation".to_owned(), name.clone()));
            }
            for option in &cli.options {
                match option.split_once('=') {
                    Some((name, value)) => startup.push((name.trim().to_owned(), value.trim().to_owned())),
                    None => startup.push((option.trim().to_owned(), String::new())),
                }
            }
            engine::run(plugins, logging.clone(), usize::from(cli.log_files), startup);
            ExitCode::SUCCESS
        }
    };
    tracing::info!("plugboard exiting");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    plugboard::exit::finish();
    // Search threads of a plugin that ignored its stop flag must not keep us alive.
    plugboard::exit::end_process(if code == ExitCode::SUCCESS { 0 } else { 1 });
}

/// Finds the plugins for a tool, selects those `--search` and `--eval` name,
/// and gives them the options `--option` sets for them (`EvalFile=...`).
fn choose_plugins(
    plugins: &mut PluginHost,
    search: Option<&str>,
    eval: Option<&str>,
    options: &[String],
) -> Result<(), ExitCode> {
    let fail = |why: String| {
        eprintln!("plugboard: {why}");
        ExitCode::FAILURE
    };
    plugins.scan();
    for (kind, name) in [(Kind::Search, search), (Kind::Eval, eval)] {
        if let Some(name) = name {
            // The engine refuses an unknown name as the option's value; a tool
            // must not measure or make data with another plugin than asked for.
            let names = plugins.registry().names(kind);
            if !names.iter().any(|known| known == name) {
                return Err(fail(format!(
                    "{} has no choice named {name} (the choices: {})",
                    kind.option_name(),
                    names.join(", ")
                )));
            }
            plugins.set(&Target::Selection(kind), name.to_owned(), true).map_err(fail)?;
        }
    }
    // After the selections: a plugin's options are those of the plugins chosen.
    for option in options {
        let (name, value) = option.split_once('=').unwrap_or((option, ""));
        let offered = plugins
            .offered()
            .into_iter()
            .find(|(target, spec, _)| target.is_plugin_own() && spec.name.as_str() == name.trim());
        let Some((target, ..)) = offered else {
            return Err(fail(format!("no option {name} among the chosen plugins' options")));
        };
        plugins.set(&target, value.trim().to_owned(), true).map_err(fail)?;
    }
    Ok(())
}

fn list_plugins(plugins: &PluginHost) -> String {
    let mut text = format!(
        "plugin API {} (plugins built against {}.x load)\n",
        plugboard_plugin_api::API_VERSION,
        plugboard_plugin_api::API_COMPATIBLE
    );
    for folder in plugins.folders() {
        let which = if folder.only_ours { " (only libraries named libplugboard_*)" } else { "" };
        text += &format!("folder     {}{which}\n", folder.path.display());
    }
    let registry = plugins.registry();
    for plugin in registry.plugins() {
        let mut notes = Vec::new();
        if plugin.disabled.is_none() && std::ptr::eq(plugins.selected(plugin.kind), plugin) {
            notes.push("chosen".to_owned());
        }
        // The same plugin as a file and built in: the file is the one used.
        let file_twin = registry.resolve(plugin.kind, plugin.name()).filter(|used| !std::ptr::eq(*used, plugin));
        match (&plugin.origin, file_twin) {
            (Origin::Builtin, Some(used)) => notes.push(format!("not used: the file {} is", used.origin)),
            (Origin::File(_), _) if registry.plugins().iter().any(|p| p.is_twin_builtin_of(plugin)) => {
                notes.push("used instead of the built-in copy".to_owned());
            }
            _ => {}
        }
        if let Some(why) = &plugin.disabled {
            notes.push(format!("disabled: {why}"));
        }
        let notes = if notes.is_empty() { String::new() } else { format!(" ({})", notes.join("; ")) };
        text +=
            &format!("{:<10} {:<14} {:<8} {}{notes}\n", plugin.kind, plugin.name(), plugin.info.version, plugin.origin);
    }
    for refusal in registry.refused() {
        text += &format!("refused    {}: {}\n", refusal.path.display(), refusal.reason);
    }
    for misplaced in registry.misplaced() {
        text += &format!("not loaded {}: {}\n", misplaced.path.display(), misplaced.reason);
    }
    text
}
