//! The alpha-beta search exported as a shared-library plugin.
//!
//! The logic lives in `plugboard-alphabeta`, which the host also links statically
//! as its built-in search; abi_stable's export symbol has a single fixed name, so
//! the export sits in this separate crate to keep the two from colliding.

plugboard_plugin_api::export_search_plugin!(plugboard_alphabeta::AlphaBeta);
