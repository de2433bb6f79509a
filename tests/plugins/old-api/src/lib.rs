//! An evaluation plugin built against an older, incompatible plugin API (0.0.x,
//! with a different root module): the host must refuse it and say why.

use abi_stable::{
    StableAbi, library::RootModule, package_version_strings, prefix_type::PrefixTypeTrait, sabi_types::VersionStrings,
    std_types::RString,
};

#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = OldEvalModuleRef)))]
pub struct OldEvalModule {
    #[sabi(last_prefix_field)]
    pub name: extern "C" fn() -> RString,
}

impl RootModule for OldEvalModuleRef {
    abi_stable::declare_root_module_statics! {OldEvalModuleRef}
    const BASE_NAME: &'static str = "plugboard_eval";
    const NAME: &'static str = "plugboard_eval";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

extern "C" fn name() -> RString {
    "old".into()
}

#[abi_stable::export_root_module]
pub fn old_root_module() -> OldEvalModuleRef {
    OldEvalModule { name }.leak_into_prefix()
}
