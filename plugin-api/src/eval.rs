//! Evaluation plugins: the root module, and the hot-path function table a search calls.

use std::{ffi::c_void, panic::catch_unwind};

use abi_stable::{
    StableAbi,
    library::RootModule,
    package_version_strings,
    sabi_types::VersionStrings,
    std_types::{ROption, RResult, RStr, RString},
};

use crate::{
    BoardEvaluator, BoardEvaluatorSource, DefinedEvaluatorSource, Move, PluginInfo, Position, Variant,
    export::panic_message, hot_path,
};

/// What [`Evaluator::evaluate`] returns when the evaluation failed (it panicked).
/// A search that sees it must abandon the search and return an error.
pub const EVAL_FAILED: i32 = i32::MIN;
/// Evaluations are clamped to `-EVAL_LIMIT..=EVAL_LIMIT` centipawns so that they
/// can never be mistaken for mate scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// The root module of an evaluation plugin.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = EvalModuleRef, prefix_fields = EvalModulePrefix)))]
#[sabi(missing_field(panic))]
pub struct EvalModule {
    pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
    /// Changes one of the options the plugin declared; evaluators created after
    /// the call see the new value.
    pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
    /// The source of evaluators, one for each search thread.
    #[sabi(last_prefix_field)]
    pub source: EvaluatorSource,
}

impl RootModule for EvalModuleRef {
    abi_stable::declare_root_module_statics! {EvalModuleRef}
    const BASE_NAME: &'static str = crate::EVAL_MODULE_NAME;
    const NAME: &'static str = crate::EVAL_MODULE_NAME;
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// [`EvalModule`] with the entries added after the first release, at its end,
/// as [`crate::SearchModuleExt`] is for searches (the same promise: entries are
/// only appended).
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = EvalModuleExtRef, prefix_fields = EvalModuleExtPrefix)))]
#[sabi(missing_field(option))]
pub struct EvalModuleExt {
    pub info: extern "C" fn() -> RResult<PluginInfo, RString>,
    pub set_option: extern "C" fn(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString>,
    #[sabi(last_prefix_field)]
    pub source: EvaluatorSource,
    /// The last panic in the plugin, with its location, once: an evaluator's
    /// panic is only a failed score on the hot path, and the host asks this to
    /// tell the user what happened.
    pub last_panic: extern "C" fn() -> ROption<RString>,
    /// The source of evaluators of board positions (xiangqi and the other boards
    /// that are not 8×8), for the variants the plugin lists.
    pub board_source: BoardEvaluatorSource,
    /// The source of evaluators of variants defined as data, for a plugin that
    /// lists `defined`.
    pub defined_source: DefinedEvaluatorSource,
}

impl EvalModuleExt {
    /// The root module to export: this one, seen as an [`EvalModule`].
    pub fn leak_into_module(self) -> EvalModuleRef {
        use abi_stable::prefix_type::{PrefixRefTrait, PrefixTypeTrait};
        let extended = self.leak_into_prefix();
        // SAFETY: EvalModuleExt is EvalModule with fields appended (both repr(C),
        // the same prefix), so its prefix can be read as EvalModule's; the value's
        // metadata still says which fields it has.
        EvalModuleRef::from_prefix_ref(unsafe { extended.to_prefix_ref().cast::<EvalModulePrefix>() })
    }
}

impl EvalModuleRef {
    /// The module with the entries added after the first release.
    pub fn extended(self) -> EvalModuleExtRef {
        use abi_stable::prefix_type::PrefixRefTrait;
        // SAFETY: as SearchModuleRef::extended: every evaluation module starts with
        // EvalModule's fields, and the accessors past the prefix check the fields
        // the value was built with.
        EvalModuleExtRef::from_prefix_ref(unsafe { self.to_prefix_ref().cast::<EvalModuleExtPrefix>() })
    }

    /// The last panic in the plugin, with its location; `None` when there was
    /// none, or the plugin was built before it could say.
    pub fn last_panic(self) -> Option<String> {
        let last_panic = self.extended().last_panic()?;
        last_panic().into_option().map(String::from)
    }

    /// The plugin's evaluators of board positions; `None` for a plugin built
    /// before boards other than 8×8 crossed the boundary.
    pub fn board_source(self) -> Option<BoardEvaluatorSource> {
        self.extended().board_source()
    }

    /// The plugin's evaluators of variants defined as data; `None` for a plugin
    /// built before such variants crossed the boundary.
    pub fn defined_source(self) -> Option<DefinedEvaluatorSource> {
        self.extended().defined_source()
    }
}

extern "C" fn last_panic_shim() -> ROption<RString> {
    crate::export::take_last_panic().map(RString::from).into()
}

/// Makes evaluators; the search fetches this once per search and calls it once per thread.
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct EvaluatorSource {
    pub new_evaluator: extern "C" fn() -> RResult<Evaluator, RString>,
}

impl EvaluatorSource {
    pub fn create(&self) -> Result<Evaluator, String> {
        (self.new_evaluator)().into_result().map_err(String::from)
    }
}

/// One evaluator: opaque state plus the functions that use it.
///
/// The state belongs to one search thread. `evaluate` scores from the side to
/// move's point of view, in centipawns. The notification functions are `None`
/// unless the evaluation keeps incremental state (an accumulator): a search then
/// calls `reset` at the root, `on_make` after each move it makes and
/// `on_unmake` after each move it takes back.
#[repr(C)]
#[derive(StableAbi)]
pub struct Evaluator {
    state: *mut c_void,
    evaluate_fn: unsafe extern "C" fn(state: *mut c_void, position: &Position) -> i32,
    pub reset: Option<unsafe extern "C" fn(state: *mut c_void, root: &Position)>,
    pub on_make: Option<unsafe extern "C" fn(state: *mut c_void, mv: Move, after: &Position)>,
    pub on_unmake: Option<unsafe extern "C" fn(state: *mut c_void)>,
    release: unsafe extern "C" fn(state: *mut c_void),
}

hot_path::evaluator_methods!(Evaluator, Position, Evaluate, Chess);

/// An evaluator written in Rust.
pub trait Evaluate: Send + 'static {
    /// Set to `true` to receive `reset`/`on_make`/`on_unmake` calls.
    const INCREMENTAL: bool = false;

    /// The score for the side to move, in centipawns.
    fn evaluate(&mut self, position: &Position) -> i32;

    fn reset(&mut self, _root: &Position) {}
    fn on_make(&mut self, _mv: Move, _after: &Position) {}
    fn on_unmake(&mut self) {}
}

/// The [`EvalPlugin::Evaluator`] of a plugin that evaluates no 8×8 chess (a xiangqi
/// evaluation, say): a type with no values, so no such evaluator can ever be made.
/// Its plugin's `new_evaluator` returns an error.
#[derive(Debug)]
pub enum NoEvaluator {}

impl Evaluate for NoEvaluator {
    fn evaluate(&mut self, _position: &Position) -> i32 {
        match *self {}
    }
}

/// An evaluation plugin written in Rust; see [`crate::export_eval_plugin!`].
pub trait EvalPlugin: 'static {
    type Evaluator: Evaluate;

    fn info() -> PluginInfo;

    fn set_option(name: &str, _value: &str) -> Result<(), String> {
        Err(format!("no option named {name}"))
    }

    fn new_evaluator() -> Result<Self::Evaluator, String>;

    /// An evaluator of `variant`'s board positions, for a plugin that lists a
    /// variant not played on 8×8 (see [`PluginInfo::variants`]); wrap yours with
    /// [`BoardEvaluator::from_rust`]. The host asks only for the variants listed.
    fn new_board_evaluator(variant: Variant) -> Result<BoardEvaluator, String> {
        Err(format!("no evaluation of {} boards", variant.cecp_name()))
    }

    /// An evaluator of the variant `definition` defines (its `variants.ini`
    /// text), for a plugin that lists `defined`.
    fn new_defined_evaluator(_definition: &str) -> Result<BoardEvaluator, String> {
        Err("no evaluation of variants defined as data".to_string())
    }

    /// The root module for this plugin, for the export macro and for hosts that
    /// link the plugin in statically.
    fn module() -> EvalModuleRef
    where
        Self: Sized,
    {
        crate::export::install_panic_hook();
        EvalModuleExt {
            info: info_shim::<Self>,
            set_option: set_option_shim::<Self>,
            source: EvaluatorSource { new_evaluator: new_evaluator_shim::<Self> },
            last_panic: last_panic_shim,
            board_source: BoardEvaluatorSource { new_evaluator: new_board_evaluator_shim::<Self> },
            defined_source: DefinedEvaluatorSource { new_evaluator: new_defined_evaluator_shim::<Self> },
        }
        .leak_into_module()
    }
}

extern "C" fn info_shim<P: EvalPlugin>() -> RResult<PluginInfo, RString> {
    catch_unwind(P::info).map_err(|panic| panic_message(&panic)).into()
}

extern "C" fn set_option_shim<P: EvalPlugin>(name: RStr<'_>, value: RStr<'_>) -> RResult<(), RString> {
    match catch_unwind(|| P::set_option(name.as_str(), value.as_str())) {
        Ok(result) => result.map_err(RString::from).into(),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}

extern "C" fn new_evaluator_shim<P: EvalPlugin>() -> RResult<Evaluator, RString> {
    match catch_unwind(P::new_evaluator) {
        Ok(Ok(evaluator)) => RResult::ROk(Evaluator::from_rust(evaluator)),
        Ok(Err(message)) => RResult::RErr(message.into()),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}

extern "C" fn new_board_evaluator_shim<P: EvalPlugin>(variant: Variant) -> RResult<BoardEvaluator, RString> {
    match catch_unwind(|| P::new_board_evaluator(variant)) {
        Ok(result) => result.map_err(RString::from).into(),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}

extern "C" fn new_defined_evaluator_shim<P: EvalPlugin>(definition: RStr<'_>) -> RResult<BoardEvaluator, RString> {
    match catch_unwind(|| P::new_defined_evaluator(definition.as_str())) {
        Ok(result) => result.map_err(RString::from).into(),
        Err(panic) => RResult::RErr(panic_message(&panic)),
    }
}
