//! NNUE: an efficiently updatable neural-network evaluation, `(768 → N) × 2 → 1`
//! with squared clipped ReLU and integer weights, trained on Plugboard's own games.
//!
//! This crate owns the network (its file format, [`network`]), inference (the
//! accumulators the search's make/unmake notifications keep up to date,
//! [`NnueEvaluator`]), and the format of the training data ([`data`]) that
//! `plugboard datagen` writes and `plugboard-trainer` reads. The loadable plugin
//! is the sibling `export` crate; the host links this one statically as a
//! built-in evaluation. A default network is embedded; the `EvalFile` option
//! loads another while the engine runs.

pub mod bullet;
pub mod data;
mod evaluator;
pub mod features;
mod kernels;
pub mod network;
pub mod random;
pub mod xiangqi;

use std::{
    io::Read,
    path::Path,
    sync::{Arc, PoisonError, RwLock},
};

use plugboard_plugin_api::{EvalPlugin, OptionSpec, PluginInfo};

pub use evaluator::{Evaluator, NnueEvaluator, XiangqiEvaluator};
pub use kernels::Kernels;
pub use network::{FormatError, Game, Network};

/// The network the plugin starts with; see `networks/default.md` for how it was made.
pub const DEFAULT_NETWORK: &[u8] = include_bytes!("../networks/default.nnue");

/// The largest file `EvalFile` reads: a network of [`network::MAX_HIDDEN`] units, and some.
const MAX_FILE_SIZE: u64 = 8 << 20;

/// The network new evaluators get; `None` until first asked for, then the
/// default until `EvalFile` names another.
static CURRENT: RwLock<Option<Arc<Network>>> = RwLock::new(None);

/// The plugin: describes itself and makes evaluators.
pub struct Nnue;

impl EvalPlugin for Nnue {
    type Evaluator = NnueEvaluator;

    fn info() -> PluginInfo {
        PluginInfo::new("nnue", env!("CARGO_PKG_VERSION"))
            .author("The Plugboard authors")
            .description("A (768 → N) × 2 → 1 neural network trained on Plugboard's own games, updated incrementally")
            .variants("normal,fischerandom")
            .option(OptionSpec::file("EvalFile", ""))
    }

    fn set_option(name: &str, value: &str) -> Result<(), String> {
        match name {
            "EvalFile" => set_eval_file(&CURRENT, value, Game::Chess, default_network),
            _ => Err(format!("no option named {name}")),
        }
    }

    fn new_evaluator() -> Result<NnueEvaluator, String> {
        Ok(NnueEvaluator::new(current_network()?))
    }
}

/// The network evaluators made now get.
pub fn current_network() -> Result<Arc<Network>, String> {
    current_or_default(&CURRENT, default_network)
}

/// `EvalFile`: from now on, evaluators of `current` get the network of `game`
/// in the file `value` names, or, for an empty value, the embedded one
/// (`default`). A file that does not fit leaves the network in use.
fn set_eval_file(
    current: &RwLock<Option<Arc<Network>>>,
    value: &str,
    game: Game,
    default: fn() -> Result<Network, String>,
) -> Result<(), String> {
    let network = match value.trim() {
        "" | "<default>" => default()?,
        path => load_file_of(Path::new(path), game)?,
    };
    *current.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(network));
    Ok(())
}

/// The network `current` holds, or the default put there on first use.
fn current_or_default(
    current: &RwLock<Option<Arc<Network>>>,
    default: fn() -> Result<Network, String>,
) -> Result<Arc<Network>, String> {
    if let Some(network) = current.read().unwrap_or_else(PoisonError::into_inner).as_ref() {
        return Ok(Arc::clone(network));
    }
    let mut current = current.write().unwrap_or_else(PoisonError::into_inner);
    let network = match current.as_ref() {
        Some(network) => Arc::clone(network),
        None => Arc::clone(current.insert(Arc::new(default()?))),
    };
    Ok(network)
}

/// The embedded network.
pub fn default_network() -> Result<Network, String> {
    Network::from_bytes_of(DEFAULT_NETWORK, Game::Chess)
        .map_err(|why| format!("the embedded network is unusable: {why}"))
}

/// Reads a network file, or says why not: the message names the file and what
/// was expected of it. Only a regular file is read, and never more than a
/// network's size.
pub fn load_file(path: &Path) -> Result<Network, String> {
    load_file_of(path, Game::Chess)
}

/// Reads a network file of `game`, or says why not, as [`load_file`].
pub fn load_file_of(path: &Path, game: Game) -> Result<Network, String> {
    let refused = |why: &dyn std::fmt::Display| {
        format!("cannot use {} as the network: {why}; the network in use stays", path.display())
    };
    let bytes = read_regular(path).map_err(|why| refused(&why))?;
    Network::from_bytes_of(&bytes, game).map_err(|why| refused(&why))
}

fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind};
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "it is not a regular file"));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // A FIFO put in the file's place after the check must not hold the engine.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "it is not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_SIZE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_SIZE {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("it is larger than {} MiB, more than any network this plugin reads", MAX_FILE_SIZE >> 20),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests;
