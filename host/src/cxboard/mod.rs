//! The cxboard front end, for xiangqi GUIs (the CXBoard protocol, version 1):
//! typed commands in, typed replies out, options declared in UCI form.

pub mod command;
pub mod options;
pub mod render;
pub mod reply;
pub mod session;

pub use command::{Command, CommandError};
pub use reply::Reply;
pub use session::Session;
