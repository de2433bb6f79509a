//! The UCI front end, for the GUIs, testers and bot frameworks that speak only
//! UCI: typed commands in, typed replies out, over the same core as CECP and
//! cxboard. cxboard took its option and `go` forms from UCI, so the two share
//! them: the parsing lives here, the option forms in `cxboard`.

pub mod command;
pub mod options;
pub mod render;
pub mod reply;
pub mod session;
pub(crate) mod sessions;
mod wdl;

pub use command::{Command, CommandError};
pub use reply::Reply;
pub use session::Session;
