//! Plugins: where they are found, how they are loaded, and which ones the user chose.

pub mod discovery;
pub mod examine;
pub mod file_options;
pub mod host;
pub mod loader;
pub mod registry;
pub mod symbols;

pub use host::{EvalSource, Examined, OptionChange, PluginHost, ScanWork, Target};
pub use registry::{Kind, Origin, Plugin, Registry};
