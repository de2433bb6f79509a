//! The export macros plugin authors call, and the panic-to-error helper behind them.

use std::{
    any::Any,
    sync::{Mutex, Once, PoisonError},
};

use abi_stable::std_types::RString;

/// The last panic in this library, with where it happened: a caught panic's
/// payload holds only the message, and the default hook prints the location to
/// stderr, which nobody reads under a GUI.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);
static HOOK: Once = Once::new();

/// Records every panic's message and location for [`panic_message`], then lets
/// the hook that was there before (the host's log, or the default) see it too.
/// Called when a plugin's root module is made.
pub fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let mut text = payload_text(info.payload());
            if let Some(at) = info.location() {
                text += &format!(" (at {}:{}:{})", at.file(), at.line(), at.column());
            }
            *LAST_PANIC.lock().unwrap_or_else(PoisonError::into_inner) = Some(text);
            previous(info);
        }));
    });
}

/// The last panic's message and location, once.
pub fn take_last_panic() -> Option<String> {
    LAST_PANIC.lock().unwrap_or_else(PoisonError::into_inner).take()
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "unknown panic".to_owned()
    }
}

/// The text of a caught panic, with its location when the hook saw it, for the
/// error value that replaces it.
pub fn panic_message(panic: &Box<dyn Any + Send>) -> RString {
    let text = take_last_panic().unwrap_or_else(|| payload_text(panic.as_ref()));
    format!("plugin panicked: {text}").into()
}

/// The symbol abi_stable looks up in a library; `export_root_module!` must use it.
#[doc(hidden)]
pub const ROOT_MODULE_SYMBOL: &str = "_1as_0lib_1header_0root_bmodule_bloader";

/// Exports a root module under abi_stable's symbol. The attribute macro abi_stable
/// offers needs the plugin crate to name `abi_stable` itself; this one does not.
#[doc(hidden)]
#[macro_export]
macro_rules! __export_root_module {
    ($module:ty, $make:expr) => {
        // The host catches a plugin's panics only if they unwind: built with
        // `panic = "abort"`, the first one would end the engine.
        #[cfg(not(panic = "unwind"))]
        compile_error!(
            "Plugboard plugins must be built with panic = \"unwind\" (the default): with \"abort\", a panic in the plugin would end the engine. Remove `panic = \"abort\"` from your Cargo profile."
        );

        #[doc(hidden)]
        #[unsafe(export_name = "_1as_0lib_1header_0root_bmodule_bloader")]
        pub static PLUGBOARD_ROOT_MODULE_HEADER: $crate::abi_stable::library::LibHeader = {
            extern "C" fn load_root_module() -> $crate::abi_stable::library::RootModuleResult {
                $crate::abi_stable::library::__call_root_module_loader(|| -> $module { $make })
            }
            // SAFETY: the constructor returns the root module of type $module, as the layout says.
            unsafe {
                $crate::abi_stable::library::LibHeader::from_constructor::<$module>(
                    load_root_module,
                    $crate::abi_stable::library::CheckTypeLayout::Yes,
                )
            }
        };
    };
}

/// Exports an [`EvalPlugin`](crate::EvalPlugin) as this library's root module.
///
/// Call it once, in a `cdylib` crate: `plugboard_plugin_api::export_eval_plugin!(MyEval);`
/// The [crate documentation](crate#an-evaluation-plugin) shows a whole plugin.
#[macro_export]
macro_rules! export_eval_plugin {
    ($plugin:ty) => {
        $crate::__export_root_module!($crate::EvalModuleRef, <$plugin as $crate::EvalPlugin>::module());
    };
}

/// Exports a [`SearchPlugin`](crate::SearchPlugin) as this library's root module.
///
/// Call it once, in a `cdylib` crate: `plugboard_plugin_api::export_search_plugin!(MySearch);`
/// The [crate documentation](crate#a-search-plugin) shows a whole plugin.
#[macro_export]
macro_rules! export_search_plugin {
    ($plugin:ty) => {
        $crate::__export_root_module!($crate::SearchModuleRef, <$plugin as $crate::SearchPlugin>::module());
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn export_symbol_is_the_one_abi_stable_loads() {
        assert_eq!(super::ROOT_MODULE_SYMBOL, abi_stable::library::ROOT_MODULE_LOADER_NAME);
    }
}
