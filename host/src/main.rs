//! The `plugboard` command: the engine on stdin/stdout, or a tool (`bench`, `perft`,
//! `book make`, `--list-plugins`).

use std::{path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use plugboard::{
    bench, book, engine,
    logging::{LogTarget, Logging},
    perft,
    plugins::PluginHost,
};

#[derive(Parser)]
#[command(
    name = "plugboard",
    version,
    about = "A chess engine for xboard/WinBoard whose search and evaluation are plugins"
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
    #[command(subcommand)]
    command: Option<Tool>,
}

#[derive(Subcommand)]
enum Tool {
    /// Search fixed positions to a fixed depth: total nodes (the signature) and nodes per second.
    Bench(bench::BenchArgs),
    /// Count the leaf nodes of the move tree to DEPTH from FEN (default: the start position).
    Perft {
        depth: u32,
        /// A position in FEN; quote it.
        fen: Option<String>,
    },
    /// Opening book tools.
    #[command(subcommand)]
    Book(BookTool),
}

#[derive(Subcommand)]
enum BookTool {
    /// Build a Polyglot book from PGN games, weighted by results as Polyglot does.
    Make(book::maker::MakeArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let target =
        LogTarget { file: cli.log_file.clone(), folder: cli.log_dir.clone(), kept_files: usize::from(cli.log_files) };
    let (logging, opened) = Logging::init(target);
    if let Err(why) = &opened {
        // Not on stdout: the GUI reads it. The engine still plays without a log.
        eprintln!("plugboard: no debug log: {why}");
    }
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "plugboard starting");
    let mut plugins = PluginHost::new(cli.plugin_dirs.clone());
    let code = match cli.command {
        Some(Tool::Perft { depth, fen }) => perft::run(depth, fen.as_deref()),
        Some(Tool::Book(BookTool::Make(args))) => book::maker::run(&args),
        Some(Tool::Bench(args)) => {
            plugins.scan();
            bench::run(&plugins, &args)
        }
        None if cli.list_plugins => {
            plugins.scan();
            print!("{}", list_plugins(&plugins));
            ExitCode::SUCCESS
        }
        None => {
            plugins.scan();
            engine::run(plugins, logging.clone(), usize::from(cli.log_files));
            ExitCode::SUCCESS
        }
    };
    tracing::info!("plugboard exiting");
    logging.shutdown();
    // Search threads of a plugin that ignored its stop flag must not keep us alive.
    std::process::exit(if code == ExitCode::SUCCESS { 0 } else { 1 });
}

fn list_plugins(plugins: &PluginHost) -> String {
    let mut text = String::new();
    for plugin in plugins.registry().plugins() {
        let state = match &plugin.disabled {
            Some(why) => format!(" (disabled: {why})"),
            None => String::new(),
        };
        text +=
            &format!("{:<10} {:<14} {:<8} {}{state}\n", plugin.kind, plugin.name(), plugin.info.version, plugin.origin);
    }
    for refusal in plugins.registry().refused() {
        text += &format!("refused    {}: {}\n", refusal.path.display(), refusal.reason);
    }
    text
}
