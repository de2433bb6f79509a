//! The xiangqi network evaluation (`xiangqi-nnue`) exported as a shared-library
//! plugin. Its logic lives in `plugboard-eval-nnue`; one library exports one
//! plugin (abi_stable's export symbol has a single name), so the chess network
//! and the xiangqi one have an export crate each.

plugboard_plugin_api::export_eval_plugin!(plugboard_eval_nnue::xiangqi::XiangqiNnue);
