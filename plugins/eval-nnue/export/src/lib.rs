//! The NNUE evaluation exported as a shared-library plugin.
//!
//! The logic lives in `plugboard-eval-nnue`, which the host also links statically
//! as a built-in evaluation; abi_stable's export symbol has a single fixed name,
//! so the export sits in this separate crate to keep the two from colliding.

plugboard_plugin_api::export_eval_plugin!(plugboard_eval_nnue::Nnue);
