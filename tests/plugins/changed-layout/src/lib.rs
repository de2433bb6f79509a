//! An evaluation plugin that claims the engine's plugin API version (0.1.0) but
//! whose root module has another layout, as a plugin built against a patched
//! `plugboard-plugin-api` would: the host must refuse it and name what differs.

use abi_stable::{
    StableAbi, library::RootModule, package_version_strings, prefix_type::PrefixTypeTrait, sabi_types::VersionStrings,
    std_types::RString,
};

#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = ChangedEvalModuleRef)))]
pub struct ChangedEvalModule {
    /// The engine's first entry returns a plugin description, not a number.
    pub info: extern "C" fn() -> u64,
    #[sabi(last_prefix_field)]
    pub name: extern "C" fn() -> RString,
}

impl RootModule for ChangedEvalModuleRef {
    abi_stable::declare_root_module_statics! {ChangedEvalModuleRef}
    const BASE_NAME: &'static str = "plugboard_eval";
    const NAME: &'static str = "plugboard_eval";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

extern "C" fn info() -> u64 {
    0
}

extern "C" fn name() -> RString {
    "changed".into()
}

#[abi_stable::export_root_module]
pub fn changed_root_module() -> ChangedEvalModuleRef {
    ChangedEvalModule { info, name }.leak_into_prefix()
}
