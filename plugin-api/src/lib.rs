//! The stable ABI between the Plugboard host and its plugins, and nothing else.
//!
//! A plugin is a shared library that exports one `abi_stable` root module:
//! either a [`SearchModule`] (it chooses moves) or an [`EvalModule`] (it scores
//! positions). The host loads any number of each kind side by side and lets the
//! user pick one of each by name.
//!
//! Two planes cross the boundary:
//! - the control plane (describe, options, start a search, report, stop) goes through
//!   the root modules, which are prefix types so later versions can add fields
//!   without breaking plugins already built;
//! - the hot path (search → evaluation, millions of calls a second) goes through a
//!   plain `#[repr(C)]` table of `extern "C"` function pointers ([`Evaluator`])
//!   taking a crate-neutral [`Position`].
//!
//! A third, optional service goes the other way: the host lends search plugins
//! its endgame tablebases ([`TablebaseProbe`], through
//! [`SearchPlugin::use_tablebases`]), so any search can probe them.
//!
//! Root modules keep the fields of the first release: abi_stable refuses a library
//! whose root module has fewer fields than the host expects, so growing one would
//! shut out every plugin already built. Entries added later go into an extended
//! module ([`SearchModuleExt`]) that plugins export in the first release's shape;
//! the host reads them through accessors that answer `None` for older plugins.
//!
//! Plugin authors implement [`EvalPlugin`] or [`SearchPlugin`] and call
//! [`export_eval_plugin!`] or [`export_search_plugin!`]; every exported function
//! is then wrapped in `catch_unwind`, so a panic becomes an error value instead
//! of aborting the host.
//!
//! # An evaluation plugin
//!
//! A `cdylib` crate that depends on this one, implements [`EvalPlugin`] and
//! [`Evaluate`], and calls [`export_eval_plugin!`]. This is the README's example
//! (`plugins/eval-material` is the complete one); as a doctest it keeps compiling,
//! and its hidden lines load it as the host does and evaluate two positions.
//!
//! ```rust
//! # use plugboard_plugin_api::Variant;
//! // src/lib.rs
//! use plugboard_plugin_api::{EvalPlugin, Evaluate, PieceKind, PluginInfo, Position};
//!
//! pub struct MyEval;
//!
//! impl EvalPlugin for MyEval {
//!     type Evaluator = MyEvaluator;
//!
//!     fn info() -> PluginInfo {
//!         PluginInfo::new("my-eval", "0.1.0").description("pawns are gold")
//!     }
//!
//!     fn new_evaluator() -> Result<MyEvaluator, String> {
//!         Ok(MyEvaluator)
//!     }
//! }
//!
//! pub struct MyEvaluator;
//!
//! impl Evaluate for MyEvaluator {
//!     /// Centipawns for the side to move.
//!     fn evaluate(&mut self, position: &Position) -> i32 {
//!         let us = position.side_to_move;
//!         let pawns = |color| position.bitboard(PieceKind::Pawn, color).count_ones() as i32;
//!         200 * (pawns(us) - pawns(us ^ 1))
//!     }
//! }
//!
//! plugboard_plugin_api::export_eval_plugin!(MyEval);
//! #
//! # fn start_position() -> Position {
//! #     Position {
//! #         colors: [0xFFFF, 0xFFFF << 48],
//! #         pieces: [
//! #             0x00FF_0000_0000_FF00,
//! #             0x4200_0000_0000_0042,
//! #             0x2400_0000_0000_0024,
//! #             0x8100_0000_0000_0081,
//! #             0x0800_0000_0000_0008,
//! #             0x1000_0000_0000_0010,
//! #         ],
//! #         castling_rooks: 0x8100_0000_0000_0081,
//! #         side_to_move: Position::WHITE,
//! #         en_passant: Position::NO_SQUARE,
//! #         halfmove_clock: 0,
//! #         fullmove_number: 1,
//! #         variant: Variant::CHESS,
//! #         remaining_checks: [0; 2],
//! #         pockets: [[0; 5]; 2],
//! #         promoted: 0,
//! #         reserved: [0; 2],
//! #     }
//! # }
//! #
//! # fn main() -> Result<(), String> {
//! #     // What the host does with the library: it reads the plugin's name, then
//! #     // makes an evaluator and calls it through the function table.
//! #     let module = MyEval::module();
//! #     assert_eq!((module.info())().into_result()?.name.as_str(), "my-eval");
//! #     let mut evaluator = module.source().create()?;
//! #     let mut position = start_position();
//! #     assert_eq!(evaluator.evaluate(&position), 0);
//! #     // Black without its e-pawn.
//! #     position.colors[1] &= !(1 << 52);
//! #     position.pieces[PieceKind::Pawn as usize] &= !(1 << 52);
//! #     assert_eq!(evaluator.evaluate(&position), 200);
//! #     position.side_to_move = Position::BLACK;
//! #     assert_eq!(evaluator.evaluate(&position), -200);
//! #     Ok(())
//! # }
//! ```
//!
//! # A search plugin
//!
//! The same with [`SearchPlugin`] and [`export_search_plugin!`]. The API hands a
//! search positions and moves as plain data and no move generator: a search brings
//! its own (`plugins/search-example` uses shakmaty, and is the one to copy). This
//! shape, the README's, searches one ply; it shows what every search must honour:
//! the root moves the host allows, the stop flag and the hard deadline, analysis
//! and pondering going on until told to stop, a failed evaluation reported as one,
//! and a line reported through the [`Reporter`]. Its hidden lines supply a
//! stand-in generator (single pawn pushes) and run it as the host does.
//!
//! ```rust
//! # mod my_movegen {
//! #     use plugboard_plugin_api::{Move, PieceKind, Position};
//! #
//! #     /// A stand-in for this test: single pawn pushes only.
//! #     pub fn legal_moves(position: &Position) -> Vec<Move> {
//! #         let us = position.side_to_move;
//! #         let empty = !(position.colors[0] | position.colors[1]);
//! #         let mut pawns = position.bitboard(PieceKind::Pawn, us);
//! #         let mut moves = Vec::new();
//! #         while pawns != 0 {
//! #             let from = pawns.trailing_zeros() as u8;
//! #             pawns &= pawns - 1;
//! #             let to = if us == Position::WHITE { from + 8 } else { from.wrapping_sub(8) };
//! #             if to < 64 && empty & (1 << to) != 0 {
//! #                 moves.push(Move::new(from, to, None));
//! #             }
//! #         }
//! #         moves
//! #     }
//! #
//! #     pub fn play(position: &Position, m: Move) -> Position {
//! #         let mut after = *position;
//! #         let moved = (1u64 << m.from) | (1u64 << m.to);
//! #         after.colors[usize::from(position.side_to_move)] ^= moved;
//! #         after.pieces[PieceKind::Pawn as usize] ^= moved;
//! #         after.side_to_move ^= 1;
//! #         after
//! #     }
//! # }
//! // src/lib.rs
//! use std::time::{Duration, Instant};
//!
//! use plugboard_plugin_api::{
//!     EVAL_FAILED, EVAL_FAILURE_PREFIX, EvaluatorSource, PluginInfo, Reporter, Score, SearchInfo, SearchOutcome,
//!     SearchPlugin, SearchRequest,
//! };
//! // Your move generator: the API has none.
//! use my_movegen::{legal_moves, play};
//!
//! pub struct MySearch;
//!
//! impl SearchPlugin for MySearch {
//!     fn info() -> PluginInfo {
//!         PluginInfo::new("my-search", "0.1.0").description("one ply, greedy").variants("normal")
//!     }
//!
//!     fn search(
//!         request: &SearchRequest<'_>,
//!         eval: EvaluatorSource,
//!         reporter: Reporter<'_>,
//!     ) -> Result<SearchOutcome, String> {
//!         let started = Instant::now();
//!         let control = request.control;
//!         // The prefix tells the host to blame the evaluation, not this search.
//!         let mut evaluator = eval.create().map_err(|why| format!("{EVAL_FAILURE_PREFIX}: {why}"))?;
//!         let mut moves = legal_moves(&request.root);
//!         // Empty means every legal move; otherwise only these are searched.
//!         if !request.root_moves.is_empty() {
//!             moves.retain(|m| request.root_moves.contains(m));
//!         }
//!         let (mut best, mut nodes) = (None, 0);
//!         for &m in &moves {
//!             let late = started.elapsed().as_millis() as u64 >= control.hard_deadline_ms();
//!             if control.stop_requested() || (late && !control.is_infinite()) {
//!                 break;
//!             }
//!             // Scores are for the side to move: after our move, the opponent.
//!             let score = evaluator.evaluate(&play(&request.root, m));
//!             nodes += 1;
//!             if score == EVAL_FAILED {
//!                 return Err(format!("{EVAL_FAILURE_PREFIX}: the evaluation panicked"));
//!             }
//!             if best.is_none_or(|(_, best_score)| -score > best_score) {
//!                 best = Some((m, -score));
//!                 let time_ms = started.elapsed().as_millis() as u64;
//!                 reporter.report(&SearchInfo::line(1, Score::centipawns(-score), nodes, time_ms, &[m]));
//!             }
//!         }
//!         // Analysis and pondering go on until the host says stop.
//!         while control.is_infinite() && !control.stop_requested() {
//!             std::thread::sleep(Duration::from_millis(1));
//!         }
//!         // Stopped before the first move was scored: any legal move beats none.
//!         let best = best.map(|(m, _)| m).or(moves.first().copied());
//!         Ok(SearchOutcome { best: best.into(), ponder: None.into() })
//!     }
//! }
//!
//! plugboard_plugin_api::export_search_plugin!(MySearch);
//! #
//! # use plugboard_plugin_api::{
//! #     EvalPlugin, Evaluate, Move, NO_DEADLINE, PieceKind, Position, SearchControl, Variant,
//! #     abi_stable::std_types::RSlice,
//! # };
//! #
//! # /// Pawns on d3, e3, d4 and e4, each 10 for their side.
//! # struct Centre;
//! #
//! # impl Evaluate for Centre {
//! #     fn evaluate(&mut self, position: &Position) -> i32 {
//! #         let centre = |color| (position.bitboard(PieceKind::Pawn, color) & 0x1818_0000).count_ones() as i32;
//! #         10 * (centre(position.side_to_move) - centre(position.side_to_move ^ 1))
//! #     }
//! # }
//! #
//! # impl EvalPlugin for Centre {
//! #     type Evaluator = Centre;
//! #
//! #     fn info() -> PluginInfo {
//! #         PluginInfo::new("centre", "0.1.0")
//! #     }
//! #
//! #     fn new_evaluator() -> Result<Centre, String> {
//! #         Ok(Centre)
//! #     }
//! # }
//! #
//! # fn start_position() -> Position {
//! #     Position {
//! #         colors: [0xFFFF, 0xFFFF << 48],
//! #         pieces: [
//! #             0x00FF_0000_0000_FF00,
//! #             0x4200_0000_0000_0042,
//! #             0x2400_0000_0000_0024,
//! #             0x8100_0000_0000_0081,
//! #             0x0800_0000_0000_0008,
//! #             0x1000_0000_0000_0010,
//! #         ],
//! #         castling_rooks: 0x8100_0000_0000_0081,
//! #         side_to_move: Position::WHITE,
//! #         en_passant: Position::NO_SQUARE,
//! #         halfmove_clock: 0,
//! #         fullmove_number: 1,
//! #         variant: Variant::CHESS,
//! #         remaining_checks: [0; 2],
//! #         pockets: [[0; 5]; 2],
//! #         promoted: 0,
//! #         reserved: [0; 2],
//! #     }
//! # }
//! #
//! # /// Runs the search as the host does, through the module's function table:
//! # /// the outcome, and the score and line of the last report.
//! # fn run_search(root_moves: &[Move], stop: bool) -> Result<(SearchOutcome, Option<(Score, Vec<Move>)>), String> {
//! #     let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
//! #     if stop {
//! #         control.request_stop();
//! #     }
//! #     let root = start_position();
//! #     let request = SearchRequest {
//! #         game_start: root,
//! #         moves: RSlice::from_slice(&[]),
//! #         root,
//! #         root_moves: RSlice::from_slice(root_moves),
//! #         depth: 0,
//! #         nodes: 0,
//! #         threads: 1,
//! #         hash_mb: 16,
//! #         multipv: 1,
//! #         clear_hash: true,
//! #         preset_scores: RSlice::from_slice(&[]),
//! #         eval_noise: 0,
//! #         noise_seed: 0,
//! #         control: &control,
//! #     };
//! #     let last = std::sync::Mutex::new(None);
//! #     let record = |info: &SearchInfo<'_>| *last.lock().unwrap() = Some((info.score, info.pv.to_vec()));
//! #     let search = MySearch::module().search();
//! #     let outcome = search(&request, Centre::module().source(), Reporter::new(&record)).into_result()?;
//! #     Ok((outcome, last.into_inner().unwrap()))
//! # }
//! #
//! # fn main() -> Result<(), String> {
//! #     let (d3, e3, h3) = (Move::new(11, 19, None), Move::new(12, 20, None), Move::new(15, 23, None));
//! #     let (outcome, last) = run_search(&[], false)?;
//! #     // d3 and e3 score alike; the first found stays.
//! #     assert_eq!(outcome.best.into_option(), Some(d3));
//! #     assert_eq!(last, Some((Score::centipawns(10), vec![d3])));
//! #     let (outcome, last) = run_search(&[h3, e3], false)?;
//! #     assert_eq!(outcome.best.into_option(), Some(e3));
//! #     assert_eq!(last, Some((Score::centipawns(10), vec![e3])));
//! #     // Stopped before it starts: a legal move all the same, and no line.
//! #     let (outcome, last) = run_search(&[], true)?;
//! #     assert_eq!(outcome.best.into_option(), Some(Move::new(8, 16, None)));
//! #     assert_eq!(last, None);
//! #     Ok(())
//! # }
//! ```
//!
//! # An evaluation for another board
//!
//! Xiangqi (and any board beyond 8×8) crosses the boundary as a [`BoardPosition`]:
//! one byte per square (`rank * 16 + file`) with the piece's [`BoardKind`] and
//! colour. An evaluation lists the variants it scores in [`PluginInfo::variants`],
//! wraps a [`BoardEvaluate`] with [`BoardEvaluator::from_rust`] in
//! [`EvalPlugin::new_board_evaluator`], and, if it scores no chess, takes
//! [`NoEvaluator`] as its chess evaluator. The host hands it only the variants it
//! lists, and it appears in the same `Evaluation` menu as the chess ones
//! (`plugins/eval-xiangqi` is the complete one). A search plays such boards in
//! [`SearchPlugin::search_board`] the same way.
//!
//! ```rust
//! // src/lib.rs
//! use plugboard_plugin_api::{
//!     BoardEvaluate, BoardEvaluator, BoardKind, BoardPosition, EvalPlugin, NoEvaluator, PluginInfo, Variant,
//! };
//!
//! pub struct MyXiangqiEval;
//!
//! impl EvalPlugin for MyXiangqiEval {
//!     type Evaluator = NoEvaluator;
//!
//!     fn info() -> PluginInfo {
//!         PluginInfo::new("my-xiangqi", "0.1.0").variants("xiangqi")
//!     }
//!
//!     fn new_evaluator() -> Result<NoEvaluator, String> {
//!         Err("xiangqi only".into())
//!     }
//!
//!     fn new_board_evaluator(variant: Variant) -> Result<BoardEvaluator, String> {
//!         match variant {
//!             Variant::XIANGQI => Ok(BoardEvaluator::from_rust(Chariots)),
//!             _ => Err(format!("no {}", variant.cecp_name())),
//!         }
//!     }
//! }
//!
//! pub struct Chariots;
//!
//! impl BoardEvaluate for Chariots {
//!     /// 900 centipawns a chariot, for the side to move.
//!     fn evaluate(&mut self, position: &BoardPosition) -> i32 {
//!         let chariots = |color| {
//!             let is_chariot = |&square: &u8| position.piece_at(square).map(|p| p.kind()) == Some(BoardKind::CHARIOT);
//!             position.squares_of(color).filter(is_chariot).count() as i32
//!         };
//!         900 * (chariots(position.side_to_move) - chariots(position.side_to_move ^ 1))
//!     }
//! }
//!
//! plugboard_plugin_api::export_eval_plugin!(MyXiangqiEval);
//! #
//! # fn main() -> Result<(), String> {
//! #     use plugboard_plugin_api::BoardPiece;
//! #     // What the host does: it asks for a xiangqi evaluator through the table.
//! #     let module = MyXiangqiEval::module();
//! #     assert!(module.source().create().is_err(), "no chess");
//! #     let mut evaluator = module.board_source().expect("the entry").create(Variant::XIANGQI)?;
//! #     let mut board = BoardPosition::empty(Variant::XIANGQI, 9, 10);
//! #     board.put(BoardPosition::square(0, 0), Some(BoardPiece::new(BoardKind::CHARIOT, 0)));
//! #     board.put(BoardPosition::square(8, 0), Some(BoardPiece::new(BoardKind::CHARIOT, 0)));
//! #     board.put(BoardPosition::square(0, 9), Some(BoardPiece::new(BoardKind::CHARIOT, 1)));
//! #     assert_eq!(evaluator.evaluate(&board), 900);
//! #     board.side_to_move = 1;
//! #     assert_eq!(evaluator.evaluate(&board), -900);
//! #     Ok(())
//! # }
//! ```

pub mod board;
pub mod eval;
pub mod export;
mod hot_path;
pub mod options;
pub mod position;
#[cfg(test)]
mod releases;
pub mod search;
pub mod tablebase;

pub use abi_stable;
pub use board::{
    BoardKind, BoardPiece, BoardPosition, BoardSquare,
    eval::{BoardEvaluate, BoardEvaluator, BoardEvaluatorSource, DefinedEvaluatorSource},
    search::{BoardPresetScore, BoardSearchRequest},
};
pub use eval::{
    EVAL_FAILED, EVAL_LIMIT, EvalModule, EvalModuleExt, EvalModuleExtRef, EvalModuleRef, EvalPlugin, Evaluate,
    Evaluator, EvaluatorSource, NoEvaluator,
};
pub use options::{OptionKind, OptionSpec, PluginInfo};
pub use position::{Move, PieceKind, Position, Square, Variant};
pub use search::{
    BoardSearchFn, Bound, DefinedSearchFn, EVAL_FAILURE_PREFIX, InfoKind, NO_DEADLINE, NO_HASH_FULL, PresetScore,
    Reporter, Score, ScoreKind, SearchControl, SearchInfo, SearchModule, SearchModuleExt, SearchModuleExtRef,
    SearchModuleRef, SearchOutcome, SearchPlugin, SearchRequest,
};
pub use tablebase::{TablebaseProbe, TablebaseSource, Wdl};

/// The version of this API a plugin is built against (this crate's version).
pub const API_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The versions that load together: abi_stable takes `0.y.*` as compatible
/// with `0.y.*` (and `x.*` with `x.*` from 1.0 on), layouts permitting.
pub const API_COMPATIBLE: &str = {
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    let mut dots = 0;
    let mut end = 0;
    while end < version.len() {
        if version[end] == b'.' {
            dots += 1;
            if dots == 2 || (dots == 1 && !(version[0] == b'0' && end == 1)) {
                break;
            }
        }
        end += 1;
    }
    match std::str::from_utf8(version.split_at(end).0) {
        Ok(prefix) => prefix,
        Err(_) => env!("CARGO_PKG_VERSION"),
    }
};

/// Root-module name of search plugins; the host reads it from a library's header
/// to know which kind of plugin a file holds before checking its layout.
pub const SEARCH_MODULE_NAME: &str = "plugboard_search";
/// Root-module name of evaluation plugins.
pub const EVAL_MODULE_NAME: &str = "plugboard_eval";
