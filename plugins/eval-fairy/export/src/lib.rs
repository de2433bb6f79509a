//! The evaluation of variants defined as data, exported as a shared-library plugin.
//!
//! The logic lives in `plugboard-eval-fairy`, which the host also links
//! statically as its built-in evaluation of these variants; abi_stable's export
//! symbol has a single fixed name, so the export sits in this separate crate.

plugboard_plugin_api::export_eval_plugin!(plugboard_eval_fairy::Fairy);
