//! Syzygy endgame tablebases: the tables `egtpath syzygy` names, the move to play
//! at the root of a position they cover, the rows of `bk` there, and the probe the
//! host lends every search plugin for positions inside the search.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex, RwLock},
};

use plugboard_plugin_api::{self as api, TablebaseProbe, TablebaseSource};
use shakmaty::{Chess, Move, Position, san::SanPlus, variant::VariantPosition};
use shakmaty_syzygy::{AmbiguousWdl, SyzygyError, Tablebase, Wdl};

/// What the side to move gets with best play, under the fifty-move rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    Loss,
    Draw,
    Win,
}

/// The tables' decision at the root.
#[derive(Debug, Clone)]
pub struct RootVerdict {
    pub outcome: Outcome,
    /// The move to play: mate if there is one; else, when winning, a capture or pawn
    /// move that keeps the win, then the nearest zeroing move (smallest DTZ); when
    /// losing, the farthest.
    pub best: Move,
    /// Every move that keeps `outcome`.
    pub keeping: Vec<Move>,
    /// DTZ of the position after `best`, in plies, from our side's view: positive
    /// when we win; 0 in a draw.
    pub dtz: i32,
    /// For the thinking output: far above any evaluation, below the mate scores.
    pub score: i32,
}

/// A tablebase win is shown as this many centipawns, less the plies to the next
/// capture or pawn move.
pub const WIN_SCORE: i32 = 20_000;

/// One legal move as the tables see it.
struct Judged {
    m: Move,
    /// For us, after the move: ordered Loss < Draw < Win.
    outcome: Outcome,
    /// Mates at once.
    mates: bool,
    zeroing: bool,
    /// DTZ of the position after the move, from our view (positive when we win).
    dtz: i32,
}

pub struct Tablebases {
    tables: Tablebase<Chess>,
    folders: Vec<PathBuf>,
    files: usize,
    /// The first probe that failed (a table missing or corrupt), until the user is told.
    failure: Mutex<Option<String>>,
    failure_seen: std::sync::atomic::AtomicBool,
}

impl Tablebases {
    /// `paths` is `egtpath syzygy`'s PATH: folders separated by the platform's path
    /// separator. Never fails: what could not be read comes back as sentences.
    pub fn load(paths: &str) -> (Tablebases, Vec<String>) {
        let mut tables = Tablebase::new();
        let mut folders = Vec::new();
        let mut files = 0;
        let mut problems = Vec::new();
        for folder in std::env::split_paths(paths.trim()) {
            if folder.as_os_str().is_empty() {
                continue;
            }
            if !folder.is_dir() {
                problems.push(format!("{} is no folder", folder.display()));
                continue;
            }
            match add_tables(&mut tables, &folder, &mut problems) {
                Ok(0) => problems.push(format!("{} holds no Syzygy table", folder.display())),
                Ok(added) => {
                    files += added;
                    folders.push(folder);
                }
                Err(why) => problems.push(format!("{}: {why}", folder.display())),
            }
        }
        let tablebases = Tablebases {
            tables,
            folders,
            files,
            failure: Mutex::new(None),
            failure_seen: std::sync::atomic::AtomicBool::new(false),
        };
        (tablebases, problems)
    }

    /// The first probe failure since the tables were loaded, once: for the user.
    pub fn take_failure(&self) -> Option<String> {
        self.failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
    }

    fn note_failure(&self, why: &SyzygyError, position: &Chess) {
        tracing::warn!(%why, fen = %fen(position), "tablebase probe failed");
        if !self.failure_seen.swap(true, std::sync::atomic::Ordering::Relaxed) {
            // The first line: shakmaty-syzygy appends a backtrace when RUST_BACKTRACE is set.
            let first_line = why.to_string().lines().next().unwrap_or_default().trim_end_matches(':').to_owned();
            *self.failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(first_line);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.files == 0
    }

    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    pub fn describe(&self) -> String {
        let folders: Vec<String> = self.folders.iter().map(|f| f.display().to_string()).collect();
        format!("{} table files, up to {} pieces, from {}", self.files, self.max_pieces(), folders.join(", "))
    }

    /// Whether the tables may know `position` at all.
    fn covers(&self, position: &Chess) -> bool {
        !self.is_empty() && position.castles().is_empty() && position.board().occupied().count() <= self.max_pieces()
    }

    /// Every legal move judged, or `None` when a table is missing or unreadable.
    fn judge_moves(&self, position: &Chess) -> Option<Vec<Judged>> {
        let judged: Result<Vec<Judged>, SyzygyError> = position
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut after = position.clone();
                after.play_unchecked(m);
                if after.is_checkmate() {
                    return Ok(Judged { m, outcome: Outcome::Win, mates: true, zeroing: true, dtz: 1 });
                }
                if after.is_game_over() {
                    return Ok(Judged { m, outcome: Outcome::Draw, mates: false, zeroing: m.is_zeroing(), dtz: 0 });
                }
                // The opponent's view, with the halfmove clock the move leaves.
                let wdl = self.tables.probe_wdl(&after)?;
                let dtz = self.tables.probe_dtz(&after)?.ignore_rounding();
                Ok(Judged { m, outcome: our_outcome(wdl), mates: false, zeroing: m.is_zeroing(), dtz: -dtz.0 })
            })
            .collect();
        judged.map_err(|why| self.note_failure(&why, position)).ok()
    }

    pub fn root(&self, position: &Chess) -> Option<RootVerdict> {
        if !self.covers(position) {
            return None;
        }
        let judged = self.judge_moves(position)?;
        let outcome = judged.iter().map(|j| j.outcome).max()?;
        let keeping: Vec<&Judged> = judged.iter().filter(|j| j.outcome == outcome).collect();
        let best = match outcome {
            // Mate first; a zeroing move restarts the fifty-move count; then the nearest.
            Outcome::Win => keeping.iter().min_by_key(|j| (!j.mates, !j.zeroing, j.dtz)),
            // Keep the opponent's way to a zeroing move long, and make none ourselves.
            Outcome::Loss => keeping.iter().min_by_key(|j| (j.zeroing, j.dtz)),
            Outcome::Draw => keeping.first(),
        }?;
        let dtz = if outcome == Outcome::Draw { 0 } else { best.dtz };
        let score = match outcome {
            Outcome::Win => WIN_SCORE - dtz.abs(),
            Outcome::Draw => 0,
            Outcome::Loss => -WIN_SCORE + dtz.abs(),
        };
        Some(RootVerdict { outcome, best: best.m, keeping: keeping.iter().map(|j| j.m).collect(), dtz, score })
    }

    /// `bk` in a position the tables cover: every move with its result, best first.
    pub fn listing(&self, position: &Chess) -> Option<Vec<String>> {
        if !self.covers(position) {
            return None;
        }
        let mut judged = self.judge_moves(position)?;
        judged.sort_by_key(|j| {
            let order = match j.outcome {
                Outcome::Win => (0, j.dtz),
                Outcome::Draw => (1, 0),
                Outcome::Loss => (2, -j.dtz.abs()),
            };
            (!j.mates, order)
        });
        Some(
            judged
                .iter()
                .map(|j| {
                    let san = SanPlus::from_move(position.clone(), j.m).to_string();
                    match (j.outcome, j.mates) {
                        (_, true) => format!("{san:<7} win   mate"),
                        (Outcome::Win, _) => format!("{san:<7} win   DTZ {}", j.dtz.abs()),
                        (Outcome::Draw, _) => format!("{san:<7} draw"),
                        (Outcome::Loss, _) => format!("{san:<7} loss  DTZ {}", j.dtz.abs()),
                    }
                })
                .collect(),
        )
    }

    /// WDL for the side to move of a position reached by a capture or pawn move.
    pub fn probe_wdl_after_zeroing(&self, position: &Chess) -> Option<Wdl> {
        if !self.covers(position) {
            return None;
        }
        self.tables.probe_wdl_after_zeroing(position).ok()
    }
}

/// Adds the table files of `folder` one by one, so one file that cannot be a table
/// (its size says it is corrupt) is named and the others still count.
fn add_tables(tables: &mut Tablebase<Chess>, folder: &Path, problems: &mut Vec<String>) -> std::io::Result<usize> {
    let mut added = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(folder)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let is_table = path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz");
        if !is_table {
            continue;
        }
        match tables.add_file(&path) {
            Ok(()) => added += 1,
            Err(why) => problems.push(format!("{}: {why}", path.display())),
        }
    }
    Ok(added)
}

/// The result for us of a move after which the opponent's tables say `wdl`: a win
/// the fifty-move rule spoils is a draw, and so is a loss it saves. A win the
/// rounding of DTZ leaves in doubt counts as a draw too, so the engine prefers a
/// sure win and never risks a sure draw.
fn our_outcome(theirs: AmbiguousWdl) -> Outcome {
    match theirs {
        AmbiguousWdl::Loss => Outcome::Win,
        AmbiguousWdl::MaybeLoss | AmbiguousWdl::BlessedLoss | AmbiguousWdl::Draw | AmbiguousWdl::CursedWin => {
            Outcome::Draw
        }
        AmbiguousWdl::MaybeWin | AmbiguousWdl::Win => Outcome::Loss,
    }
}

fn fen(position: &Chess) -> String {
    shakmaty::fen::Fen::from_position(position, shakmaty::EnPassantMode::Legal).to_string()
}

/// The tables the search plugins probe: a process-wide slot, so a search still
/// running after `egtpath` changed keeps what it started with alive.
static ACTIVE: RwLock<Option<Arc<Tablebases>>> = RwLock::new(None);

/// Lends `tables` (or none) to every search started from now on.
pub fn install(tables: Option<Arc<Tablebases>>) {
    *ACTIVE.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = tables;
}

/// The tables lent to searches, if any.
pub fn active() -> Option<Arc<Tablebases>> {
    ACTIVE.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
}

/// What a search plugin's probe reaches: whatever tables are lent at the time.
struct Lent;

static LENT: Lent = Lent;

impl TablebaseSource for Lent {
    fn probe_wdl(&self, position: &api::Position) -> Option<api::Wdl> {
        if position.variant != api::Variant::CHESS {
            return None;
        }
        let lent = ACTIVE.read().unwrap_or_else(|poisoned| poisoned.into_inner());
        let tables = lent.as_ref()?;
        if position.colors[0].count_ones() + position.colors[1].count_ones() > tables.max_pieces() as u32 {
            return None;
        }
        let VariantPosition::Chess(chess) = plugboard_shakmaty::from_plugin_position(position).ok()? else {
            return None;
        };
        Some(match tables.probe_wdl_after_zeroing(&chess)? {
            Wdl::Loss => api::Wdl::LOSS,
            Wdl::BlessedLoss => api::Wdl::BLESSED_LOSS,
            Wdl::Draw => api::Wdl::DRAW,
            Wdl::CursedWin => api::Wdl::CURSED_WIN,
            Wdl::Win => api::Wdl::WIN,
        })
    }
}

/// The probe to hand a search plugin before a search; `None` while no tables are lent.
pub fn plugin_probe() -> Option<TablebaseProbe> {
    let tables = active()?;
    Some(TablebaseProbe::new(&LENT, tables.max_pieces() as u32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    fn folder() -> String {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/syzygy").display().to_string()
    }

    fn tables() -> Tablebases {
        let (tables, problems) = Tablebases::load(&folder());
        assert!(problems.is_empty(), "{problems:?}");
        tables
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn uci(m: Move) -> String {
        UciMove::from_standard(m).to_string()
    }

    #[test]
    fn folders_are_read_and_problems_named() {
        let tables = tables();
        assert_eq!(tables.files, 70);
        assert_eq!(tables.max_pieces(), 4);
        assert!(tables.describe().starts_with("70 table files, up to 4 pieces, from "));

        let empty = tempfile::tempdir().unwrap();
        let file = empty.path().join("KQvK.txt");
        std::fs::write(&file, "no table").unwrap();
        let joined = std::env::join_paths([
            std::path::PathBuf::from(folder()),
            empty.path().to_owned(),
            std::path::PathBuf::from("/nonexistent/syzygy"),
            file.clone(),
        ])
        .unwrap();
        let (tables, problems) = Tablebases::load(joined.to_str().unwrap());
        assert_eq!(tables.files, 70);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].ends_with("holds no Syzygy table"));
        assert_eq!(problems[1], "/nonexistent/syzygy is no folder");
        assert!(problems[2].ends_with("KQvK.txt is no folder"));
        let (none, problems) = Tablebases::load("/nonexistent/syzygy");
        assert!(none.is_empty() && problems.len() == 1);
    }

    #[test]
    fn corrupt_tables_are_named_and_the_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(folder()).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
        // A table's size says whether it can be one: 17 bytes cannot.
        std::fs::write(dir.path().join("KQvK.rtbw"), [0u8; 17]).unwrap();
        // This one has the right size but garbage inside: found only when probed.
        let krk = dir.path().join("KRvK.rtbw");
        let size = std::fs::metadata(&krk).unwrap().len() as usize;
        let mut garbage = std::fs::read(&krk).unwrap()[..4].to_vec();
        garbage.extend((4..size).map(|i| (i * 7919 % 251) as u8));
        std::fs::write(&krk, garbage).unwrap();

        let (tables, problems) = Tablebases::load(dir.path().to_str().unwrap());
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("KQvK.rtbw"), "{problems:?}");
        assert_eq!(tables.files, 69);
        // The garbage table: no verdict, one message for the user, then quiet.
        assert!(tables.root(&position("k7/8/8/8/8/8/8/KR6 w - - 0 1")).is_none());
        let failure = tables.take_failure().unwrap();
        assert!(failure.contains("KRvK"), "{failure}");
        assert!(!failure.contains('\n'));
        assert!(tables.root(&position("k7/8/8/8/8/8/8/KR6 w - - 0 1")).is_none());
        assert!(tables.take_failure().is_none());
        // The sound tables still answer.
        assert_eq!(tables.root(&position("k7/8/8/8/8/8/8/KB4Q1 w - - 0 1")).unwrap().outcome, Outcome::Win);
    }

    #[test]
    fn a_won_position_is_played_to_win() {
        let tables = tables();
        // The tables' figures: DTZ 13 for White here (tests/data/syzygy/MANIFEST.md).
        let verdict = tables.root(&position("k7/8/8/8/8/8/8/KQ6 w - - 0 1")).unwrap();
        assert_eq!(verdict.outcome, Outcome::Win);
        assert_eq!(verdict.dtz, 12);
        assert_eq!(verdict.score, WIN_SCORE - 12);
        // Mate in one is taken at once.
        let mate = tables.root(&position("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")).unwrap();
        assert_eq!(uci(mate.best), "g1g8");
        assert_eq!(mate.outcome, Outcome::Win);
        // The defender's side loses and makes it last.
        let lost = tables.root(&position("k7/8/8/8/8/8/8/KQ6 b - - 0 1")).unwrap();
        assert_eq!(lost.outcome, Outcome::Loss);
        assert_eq!(lost.dtz, -13);
    }

    #[test]
    fn a_drawn_position_keeps_only_drawing_moves() {
        let tables = tables();
        // A rook ending where a careless rook move hangs the rook.
        let drawn = "8/8/3k4/8/8/2r5/8/R3K3 w - - 0 1";
        let verdict = tables.root(&position(drawn)).unwrap();
        assert_eq!(verdict.outcome, Outcome::Draw);
        assert_eq!(verdict.score, 0);
        // Every move kept draws, and every move left out loses.
        let all = position(drawn).legal_moves();
        for m in &all {
            let mut after = position(drawn);
            after.play_unchecked(*m);
            let theirs = tables.tables.probe_wdl(&after).unwrap();
            assert_eq!(verdict.keeping.contains(m), theirs == AmbiguousWdl::Draw, "{}", uci(*m));
        }
        assert!(verdict.keeping.len() < all.len());
    }

    #[test]
    fn the_fifty_move_rule_is_respected() {
        let tables = tables();
        // KQvK with DTZ 13 but 95 plies already gone: the win cannot be completed
        // in time, so the tables call it a draw rather than a win.
        let late = tables.root(&position("k7/8/8/8/8/8/8/KQ6 w - - 95 80")).unwrap();
        assert_eq!(late.outcome, Outcome::Draw);
        let early = tables.root(&position("k7/8/8/8/8/8/8/KQ6 w - - 80 80")).unwrap();
        assert_eq!(early.outcome, Outcome::Win);
    }

    #[test]
    fn positions_outside_the_tables_are_left_to_the_search() {
        let tables = tables();
        assert!(tables.root(&Chess::default()).is_none());
        assert!(tables.root(&position("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1")).is_none());
        assert!(tables.root(&position("k7/8/8/8/8/8/1PP5/KQ6 w - - 0 1")).is_none());
        assert!(tables.listing(&Chess::default()).is_none());
    }

    #[test]
    fn bk_rows_list_every_move_best_first() {
        let tables = tables();
        let rows = tables.listing(&position("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")).unwrap();
        assert_eq!(rows[0], "Qg8#    win   mate");
        assert!(rows.iter().any(|r| r.contains("draw")), "stalemating moves draw: {rows:?}");
        assert_eq!(rows.len(), position("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1").legal_moves().len());
    }

    #[test]
    fn lent_tables_answer_search_plugins() {
        let plugin_position = |fen: &str| plugboard_shakmaty::to_plugin_position(&position(fen), api::Variant::CHESS);
        install(Some(Arc::new(tables())));
        let probe = plugin_probe().unwrap();
        assert_eq!(probe.max_pieces, 4);
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/8/KQ6 b - - 0 1")), Some(api::Wdl::LOSS));
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/8/KQ6 w - - 0 1")), Some(api::Wdl::WIN));
        assert_eq!(probe.probe_wdl(&plugin_position("8/8/3k4/8/8/2r5/8/R3K3 w - - 0 1")), Some(api::Wdl::DRAW));
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/1PP5/KQ6 w - - 0 1")), None);
        let mut atomic = plugin_position("k7/8/8/8/8/8/8/KQ6 b - - 0 1");
        atomic.variant = api::Variant::ATOMIC;
        assert_eq!(probe.probe_wdl(&atomic), None);
        install(None);
        assert!(plugin_probe().is_none());
        // A probe handed out earlier now finds nothing, and is still safe to call.
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/8/KQ6 b - - 0 1")), None);
    }
}
