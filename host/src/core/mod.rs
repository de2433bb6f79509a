//! The engine core: what the engine knows and decides, apart from any protocol's text.

pub mod options;
