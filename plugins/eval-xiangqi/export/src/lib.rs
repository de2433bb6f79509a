//! The xiangqi evaluation exported as a shared-library plugin.
//!
//! The logic lives in `plugboard-eval-xiangqi`, which the host also links
//! statically as its built-in xiangqi evaluation; abi_stable's export symbol has a
//! single fixed name, so the export sits in this separate crate.

plugboard_plugin_api::export_eval_plugin!(plugboard_eval_xiangqi::XiangqiPst);
