//! CECP text: typed commands in, typed replies out, the features we announce and
//! the options we advertise.

pub mod command;
pub mod features;
pub mod options;
pub mod render;
pub mod reply;
pub mod session;
pub mod xboard_variants;

pub use command::{Command, CommandError};
pub use reply::Reply;
pub use session::Session;
