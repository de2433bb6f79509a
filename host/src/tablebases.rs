//! Syzygy endgame tablebases: the tables `egtpath syzygy` names, the move to play
//! at the root of a position they cover, the rows of `bk` there, and the probe the
//! host lends every search plugin for positions inside the search.
//!
//! # The root move and the fifty-move rule
//!
//! Every legal move is judged by probing the position it leads to: its WDL under
//! the fifty-move rule (shakmaty-syzygy's `probe_wdl`, which adds the halfmove
//! clock the move leaves to the DTZ) and its DTZ. A move that mates is best of all.
//! Then the result for us ranks the moves, and within the best result:
//! - winning: a capture or pawn move that keeps the win (the fifty-move count starts
//!   again), else the smallest DTZ;
//! - losing: a move that is no capture or pawn move, then the largest DTZ;
//! - drawing: any; they all go to [`RootVerdict::keeping`], for a search to choose.
//!
//! A win the fifty-move rule spoils (cursed) and a loss it saves (blessed) are
//! draws. Some DTZ tables store distances rounded up to an even number of plies,
//! so when a rounded DTZ plus the halfmove clock lands exactly on the limit (100
//! plies) the tables cannot tell a win from a fifty-move draw (shakmaty-syzygy's
//! `MaybeWin`/`MaybeLoss`). Such a move ranks between the sure results and a draw:
//! it never does worse than a draw, and if the phase since the last capture or pawn
//! move followed the tables (as our own play does) it is a win, since the rounding
//! never wastes the ply that decides. The verdict takes the hopeful reading for the
//! side to move: a possible win is a [`Outcome::Win`], a possible loss a
//! [`Outcome::Draw`] (the move played is the same either way; the reading only
//! decides what is shown and whether a draw is worth accepting).
//!
//! Playing each move this way converts a won position to mate within the
//! fifty-move rule and never loses a drawn one (`tests/endgames.rs` plays it out).

use std::{
    cmp::Reverse,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex, Weak,
        atomic::{AtomicBool, Ordering},
    },
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
    /// For the side to move; see the module documentation for wins and losses
    /// that DTZ rounding leaves in doubt.
    pub outcome: Outcome,
    /// The move to play: mate if there is one; else, when winning, a capture or pawn
    /// move that keeps the win, then the nearest zeroing move (smallest DTZ); when
    /// losing, no capture or pawn move, then the farthest; when drawing, one that
    /// leaves the opponent a loss but for the fifty-move rule if there is one.
    pub best: Move,
    /// Every move as good as `best` by the tables' result: for a draw, the drawing
    /// moves, among which a search may choose.
    pub keeping: Vec<Move>,
    /// DTZ of the position after `best`, in plies, from our side's view: positive
    /// when we win, negative when we lose; 0 in a draw.
    pub dtz: i32,
    /// For the thinking output: `WIN_SCORE - dtz` for a win, `-WIN_SCORE - dtz`
    /// for a loss, 0 for a draw. Far above any evaluation, far below the mate
    /// scores the host shows (100000 and more).
    pub score: i32,
}

/// A tablebase win is shown as this many centipawns, less the plies to the next
/// capture or pawn move: "+199.87" reads as a tablebase win, as in other engines.
pub const WIN_SCORE: i32 = 20_000;

/// How a move serves us by the tables, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Loss,
    /// A loss or a fifty-move draw: DTZ rounding leaves it on the limit.
    MaybeLoss,
    /// Also a win the fifty-move rule spoils, or a loss it saves.
    Draw,
    /// A win or a fifty-move draw: DTZ rounding leaves it on the limit.
    MaybeWin,
    Win,
}

impl Rank {
    /// The result for the side to move, taking the hopeful reading of a doubt.
    fn outcome(self) -> Outcome {
        match self {
            Rank::Win | Rank::MaybeWin => Outcome::Win,
            Rank::Draw | Rank::MaybeLoss => Outcome::Draw,
            Rank::Loss => Outcome::Loss,
        }
    }

    /// How a move serves us when the opponent's tables then say `theirs`.
    fn of_reply(theirs: AmbiguousWdl) -> Rank {
        match theirs {
            AmbiguousWdl::Loss => Rank::Win,
            AmbiguousWdl::MaybeLoss => Rank::MaybeWin,
            AmbiguousWdl::BlessedLoss | AmbiguousWdl::Draw | AmbiguousWdl::CursedWin => Rank::Draw,
            AmbiguousWdl::MaybeWin => Rank::MaybeLoss,
            AmbiguousWdl::Win => Rank::Loss,
        }
    }
}

/// One legal move as the tables see it.
struct Judged {
    m: Move,
    rank: Rank,
    /// The opponent's result after the move; `None` when the move ends the game.
    theirs: Option<AmbiguousWdl>,
    /// Mates at once.
    mates: bool,
    zeroing: bool,
    /// DTZ of the position after the move, from our view (positive when we win).
    dtz: i32,
}

impl Judged {
    /// Orders moves best first: by rank, then as the module documentation says.
    fn preference(&self) -> (Reverse<Rank>, bool, bool, i32) {
        let within = match self.rank {
            Rank::Win | Rank::MaybeWin => (!self.mates, !self.zeroing, self.dtz),
            // Our DTZ is negative: the smallest is the farthest.
            Rank::Loss | Rank::MaybeLoss => (false, self.zeroing, self.dtz),
            // A loss for them but for the fifty-move rule first, the nearest first:
            // they may still go wrong. A win for them but for the rule last.
            Rank::Draw => match self.theirs {
                Some(AmbiguousWdl::BlessedLoss) => (false, false, self.dtz),
                Some(AmbiguousWdl::CursedWin) => (true, true, 0),
                _ => (true, false, 0),
            },
        };
        (Reverse(self.rank), within.0, within.1, within.2)
    }

    /// The `bk` row: SAN, then the result for us.
    fn row(&self, position: &Chess) -> String {
        let san = SanPlus::from_move(position.clone(), self.m).to_string();
        let result = match (self.rank, self.theirs) {
            _ if self.mates => "win   mate".to_owned(),
            (Rank::Win, _) => format!("win   DTZ {}", self.dtz),
            (Rank::MaybeWin, _) => format!("win   DTZ {} (or a fifty-move draw: DTZ rounded)", self.dtz),
            (Rank::Draw, Some(AmbiguousWdl::BlessedLoss)) => format!("draw  (cursed win, DTZ {})", self.dtz),
            (Rank::Draw, Some(AmbiguousWdl::CursedWin)) => format!("draw  (blessed loss, DTZ {})", self.dtz),
            (Rank::Draw, _) => "draw".to_owned(),
            (Rank::MaybeLoss, _) => format!("loss  DTZ {} (or a fifty-move draw: DTZ rounded)", self.dtz),
            (Rank::Loss, _) => format!("loss  DTZ {}", self.dtz),
        };
        format!(" {san:<7} {result}")
    }
}

pub struct Tablebases {
    tables: Tablebase<Chess>,
    folders: Vec<PathBuf>,
    files: usize,
    /// The first probe that failed (a table missing or corrupt), until the user is told.
    failure: Mutex<Option<String>>,
    failure_seen: AtomicBool,
}

impl Tablebases {
    /// `paths` is `egtpath syzygy`'s PATH: one or more folders separated by the
    /// platform's path separator. Never fails: what could not be read (a folder
    /// that is missing or no folder, a folder without tables, a table file whose
    /// size says it is corrupt) comes back as sentences for the user and the log.
    pub fn load(paths: &str) -> (Tablebases, Problems) {
        let mut tables = Tablebase::new();
        let mut folders = Vec::new();
        let mut files = 0;
        let mut problems = Problems::default();
        for folder in std::env::split_paths(paths.trim()) {
            if folder.as_os_str().is_empty() {
                continue;
            }
            if !folder.is_dir() {
                problems.absent.push(format!("{} is no folder", folder.display()));
                continue;
            }
            match add_tables(&mut tables, &folder, &mut problems.broken) {
                Ok(0) => problems.absent.push(format!("{} holds no Syzygy table", folder.display())),
                Ok(added) => {
                    files += added;
                    folders.push(folder);
                }
                Err(why) => problems.broken.push(format!("{}: {why}", folder.display())),
            }
        }
        let tablebases =
            Tablebases { tables, folders, files, failure: Mutex::new(None), failure_seen: AtomicBool::new(false) };
        (tablebases, problems)
    }

    /// The first probe failure since the tables were loaded, once: for the user.
    pub fn take_failure(&self) -> Option<String> {
        self.failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).take()
    }

    fn note_failure(&self, why: &SyzygyError, position: &Chess) {
        tracing::warn!(%why, fen = %fen(position), "tablebase probe failed");
        if !self.failure_seen.swap(true, Ordering::Relaxed) {
            // The first line: shakmaty-syzygy appends a backtrace when RUST_BACKTRACE is set.
            let first_line = why.to_string().lines().next().unwrap_or_default().trim_end_matches(':').to_owned();
            *self.failure.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(first_line);
        }
    }

    /// No table at all.
    pub fn is_empty(&self) -> bool {
        self.files == 0
    }

    /// The most pieces (kings included) of any table.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// E.g. "70 table files, up to 4 pieces, from /a/b".
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
                let zeroing = m.is_zeroing();
                if after.is_checkmate() {
                    return Ok(Judged { m, rank: Rank::Win, theirs: None, mates: true, zeroing, dtz: 1 });
                }
                if after.is_game_over() {
                    return Ok(Judged { m, rank: Rank::Draw, theirs: None, mates: false, zeroing, dtz: 0 });
                }
                // The opponent's view, with the halfmove clock the move leaves.
                let theirs = self.tables.probe_wdl(&after)?;
                let dtz = self.tables.probe_dtz(&after)?.ignore_rounding();
                Ok(Judged { m, rank: Rank::of_reply(theirs), theirs: Some(theirs), mates: false, zeroing, dtz: -dtz.0 })
            })
            .collect();
        judged.map_err(|why| self.note_failure(&why, position)).ok()
    }

    /// The root decision in a position the tables cover (standard chess rules, no
    /// castling rights, at most [`Self::max_pieces`] pieces); `None` elsewhere, and
    /// when a probe failed (a table missing or corrupt: logged, and told once
    /// through [`Self::take_failure`]), so the engine just searches.
    pub fn root(&self, position: &Chess) -> Option<RootVerdict> {
        if !self.covers(position) {
            return None;
        }
        let judged = self.judge_moves(position)?;
        let best = judged.iter().min_by_key(|j| j.preference())?;
        let outcome = best.rank.outcome();
        let keeping = judged.iter().filter(|j| j.rank == best.rank).map(|j| j.m).collect();
        let (dtz, score) = match outcome {
            Outcome::Win => (best.dtz, WIN_SCORE - best.dtz),
            Outcome::Draw => (0, 0),
            Outcome::Loss => (best.dtz, -WIN_SCORE - best.dtz),
        };
        Some(RootVerdict { outcome, best: best.m, keeping, dtz, score })
    }

    /// `bk` in a position the tables cover: every legal move with its result for
    /// the side to move, best first, e.g. " Kb2     win   DTZ 12", " Rxa1    draw",
    /// " Ke2     loss  DTZ -7" (DTZ of the position after the move, from our view).
    /// `None` where [`Self::root`] gives none.
    pub fn listing(&self, position: &Chess) -> Option<Vec<String>> {
        if !self.covers(position) {
            return None;
        }
        let mut judged = self.judge_moves(position)?;
        judged.sort_by_key(Judged::preference);
        Some(judged.iter().map(|j| j.row(position)).collect())
    }

    /// WDL for the side to move of a position reached by a capture or pawn move.
    pub fn probe_wdl_after_zeroing(&self, position: &Chess) -> Option<Wdl> {
        if !self.covers(position) {
            return None;
        }
        self.tables.probe_wdl_after_zeroing(position).ok()
    }
}

/// What was wrong with the folders of an `egtpath`.
#[derive(Debug, Default)]
pub struct Problems {
    /// Tables that are there and cannot be used: the user must hear of them.
    pub broken: Vec<String>,
    /// Folders that are not there or hold no tables: normal (a GUI sends its
    /// default path to every engine), so only logged.
    pub absent: Vec<String>,
}

impl Problems {
    /// One message for all the broken tables, naming the first few: each
    /// `telluser` is a dialog in xboard.
    pub fn summary(&self) -> Option<String> {
        const NAMED: usize = 3;
        let (first, rest) = self.broken.split_at(self.broken.len().min(NAMED));
        let mut text = match self.broken.len() {
            0 => return None,
            1 => "1 table could not be used: ".to_owned(),
            count => format!("{count} tables could not be used: "),
        };
        text += &first.join("; ");
        if !rest.is_empty() {
            text += &format!("; and {} more (all named in the log)", rest.len());
        }
        Some(text)
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
        // Opening a FIFO would wait for ever for a writer; a device is no table.
        if let Ok(meta) = std::fs::metadata(&path)
            && !meta.is_file()
        {
            problems.push(format!(
                "{} is {}, not a table file",
                path.display(),
                crate::files::describe(meta.file_type())
            ));
            continue;
        }
        match tables.add_file(&path) {
            Ok(()) => added += 1,
            Err(why) => problems.push(format!("{}: {why}", path.display())),
        }
    }
    Ok(added)
}

fn fen(position: &Chess) -> String {
    shakmaty::fen::Fen::from_position(position, shakmaty::EnPassantMode::Legal).to_string()
}

/// What a search plugin's probe reaches. It must live as long as the process
/// (a plugin may keep its probe past a change of tables), so it is leaked, a
/// few bytes for each set of tables opened; it holds the tables weakly, so
/// tables that nothing uses any more are closed and then answer nothing.
struct Lent {
    tables: Weak<Tablebases>,
}

impl TablebaseSource for Lent {
    fn probe_wdl(&self, position: &api::Position) -> Option<api::Wdl> {
        if position.variant != api::Variant::CHESS || position.castling_rooks != 0 {
            return None;
        }
        let tables = self.tables.upgrade()?;
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

/// Tables as they travel with a search request: the probe handed to the plugin,
/// and the tables it reaches, kept open while the request lives.
#[derive(Clone)]
pub struct SearchTables {
    tables: Arc<Tablebases>,
    probe: TablebaseProbe,
}

impl SearchTables {
    /// Lends `tables` to the searches to come.
    pub fn lend(tables: Arc<Tablebases>) -> SearchTables {
        let lent: &'static Lent = Box::leak(Box::new(Lent { tables: Arc::downgrade(&tables) }));
        let probe = TablebaseProbe::new(lent, tables.max_pieces() as u32);
        SearchTables { tables, probe }
    }

    pub fn tables(&self) -> &Arc<Tablebases> {
        &self.tables
    }

    /// The probe to hand a search plugin before its search.
    pub fn probe(&self) -> TablebaseProbe {
        self.probe
    }
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
        assert!(problems.broken.is_empty() && problems.absent.is_empty(), "{problems:?}");
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
        let problems = problems.absent;
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].ends_with("holds no Syzygy table"));
        assert_eq!(problems[1], "/nonexistent/syzygy is no folder");
        assert!(problems[2].ends_with("KQvK.txt is no folder"));
        let (none, problems) = Tablebases::load("/nonexistent/syzygy");
        assert!(none.is_empty() && problems.absent.len() == 1 && problems.summary().is_none());
    }

    #[test]
    fn many_broken_tables_make_one_message() {
        let dir = tempfile::tempdir().unwrap();
        for n in 0..72 {
            std::fs::write(dir.path().join(format!("K{n}vK.rtbw")), [0u8; 17]).unwrap();
        }
        #[cfg(unix)]
        {
            let fifo = std::ffi::CString::new(dir.path().join("KQvKQ.rtbz").to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        }
        let (tables, problems) = Tablebases::load(dir.path().to_str().unwrap());
        assert!(tables.is_empty());
        let expected = if cfg!(unix) { 73 } else { 72 };
        assert_eq!(problems.broken.len(), expected);
        let summary = problems.summary().unwrap();
        assert!(summary.starts_with(&format!("{expected} tables could not be used: ")), "{summary}");
        assert!(summary.ends_with(&format!("and {} more (all named in the log)", expected - 3)), "{summary}");
        #[cfg(unix)]
        assert!(problems.broken.iter().any(|p| p.contains("a FIFO")), "{:?}", problems.broken);
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
        let problems = problems.broken;
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

    /// The opponent's WDL after `m`, as `root` reads it.
    fn theirs_after(tables: &Tablebases, position: &Chess, m: Move) -> AmbiguousWdl {
        let mut after = position.clone();
        after.play_unchecked(m);
        tables.tables.probe_wdl(&after).unwrap()
    }

    #[test]
    fn a_won_position_is_played_to_win() {
        let tables = tables();
        // The tables' figures: DTZ 13 for White here (tests/data/syzygy/MANIFEST.md),
        // so 12 after the best move.
        let won = position("k7/8/8/8/8/8/8/KQ6 w - - 0 1");
        let verdict = tables.root(&won).unwrap();
        assert_eq!(verdict.outcome, Outcome::Win);
        assert_eq!(verdict.dtz, 12);
        assert_eq!(verdict.score, WIN_SCORE - 12);
        assert!(verdict.keeping.contains(&verdict.best));
        // Every winning move is kept, and only those.
        for m in won.legal_moves() {
            let wins = theirs_after(&tables, &won, m) == AmbiguousWdl::Loss;
            assert_eq!(verdict.keeping.contains(&m), wins, "{}", uci(m));
        }
        // Mate in one is taken at once.
        let mate = tables.root(&position("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")).unwrap();
        assert_eq!(uci(mate.best), "g1g8");
        assert_eq!(mate.outcome, Outcome::Win);
        // The defender's side loses and makes it last.
        let lost = tables.root(&position("k7/8/8/8/8/8/8/KQ6 b - - 0 1")).unwrap();
        assert_eq!(lost.outcome, Outcome::Loss);
        assert_eq!(lost.dtz, -13);
        assert_eq!(lost.score, -WIN_SCORE + 13);
    }

    #[test]
    fn a_capture_or_pawn_move_that_keeps_the_win_comes_first() {
        let tables = tables();
        // KQvKR: king or queen can take the rook; taking it starts a fresh KQvK count.
        let verdict = tables.root(&position("8/8/8/3k4/8/8/1r6/KQ6 w - - 0 1")).unwrap();
        assert_eq!(verdict.outcome, Outcome::Win);
        assert!(verdict.best.is_capture(), "{}", uci(verdict.best));
    }

    #[test]
    fn a_drawn_pawn_ending_keeps_the_draw() {
        let tables = tables();
        // The king in front of the pawn: every move holds (MANIFEST.md: WDL 0).
        let drawn = position("4k3/8/8/4P3/4K3/8/8/8 b - - 0 1");
        let verdict = tables.root(&drawn).unwrap();
        assert_eq!((verdict.outcome, verdict.dtz, verdict.score), (Outcome::Draw, 0, 0));
        assert_eq!(verdict.keeping.len(), drawn.legal_moves().len());
        // Here only the opposition holds: a wrong king move lets the pawn through.
        let narrow = position("8/4k3/8/4PK2/8/8/8/8 b - - 0 1");
        let verdict = tables.root(&narrow).unwrap();
        assert_eq!(verdict.outcome, Outcome::Draw);
        let all = narrow.legal_moves();
        for m in &all {
            let draws = theirs_after(&tables, &narrow, *m) == AmbiguousWdl::Draw;
            assert_eq!(verdict.keeping.contains(m), draws, "{}", uci(*m));
        }
        assert!(verdict.keeping.len() < all.len(), "some king move should lose");
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
        // KQvK, DTZ 13: the fastest line reaches mate 13 plies from now.
        let at = |clock: u32| tables.root(&position(&format!("k7/8/8/8/8/8/8/KQ6 w - - {clock} 80"))).unwrap();
        let fresh = at(0);
        // 87 plies gone: only the fastest moves still mate by ply 100.
        let late = at(87);
        assert_eq!(late.outcome, Outcome::Win);
        assert_eq!(late.dtz, 12);
        assert!(!late.keeping.is_empty() && late.keeping.len() < fresh.keeping.len());
        for m in &late.keeping {
            assert!(fresh.keeping.contains(m));
            let mut after = position("k7/8/8/8/8/8/8/KQ6 w - - 0 1");
            after.play_unchecked(*m);
            assert_eq!(tables.tables.probe_dtz(&after).unwrap().ignore_rounding().0, -12, "{}", uci(*m));
        }
        // One ply more, and no line mates in time: a draw, kept by any safe move.
        let too_late = at(88);
        assert_eq!((too_late.outcome, too_late.score), (Outcome::Draw, 0));
        assert_eq!(at(95).outcome, Outcome::Draw);
        // The defender, with 86 plies gone, reaches the fifty-move draw if the
        // win takes the longest way (DTZ 13 after the best defence)...
        let defended = tables.root(&position("k7/8/8/8/8/8/8/KQ6 b - - 87 80")).unwrap();
        assert_eq!(defended.outcome, Outcome::Draw);
        // ... and a capture resets the count: KQvKR, the rook taken at once.
        let capture = tables.root(&position("8/8/8/3k4/8/8/1r6/KQ6 w - - 99 80")).unwrap();
        assert_eq!(capture.outcome, Outcome::Win);
        assert!(capture.best.is_capture(), "{}", uci(capture.best));
    }

    #[test]
    fn a_result_rounding_leaves_on_the_limit_reads_hopefully() {
        let tables = tables();
        // KQvK after the best move: DTZ 12, stored rounded. With 87 plies gone the
        // opponent's position sits exactly on the limit: a loss or a fifty-move draw
        // for all the tables can tell. The win is played for (and is real: the
        // manifest's Gaviota DTM 13 shows the 12 is exact).
        let won = position("k7/8/8/8/8/8/8/KQ6 w - - 87 80");
        let verdict = tables.root(&won).unwrap();
        assert_eq!(theirs_after(&tables, &won, verdict.best), AmbiguousWdl::MaybeLoss);
        assert_eq!(verdict.outcome, Outcome::Win);
        assert_eq!(verdict.score, WIN_SCORE - 12);
        let rows = tables.listing(&won).unwrap();
        assert!(rows[0].contains("win   DTZ 12 (or a fifty-move draw"), "{rows:?}");
        // The defender on the limit: the farthest move, read as a draw.
        let defended = position("k7/8/8/8/8/8/8/KQ6 b - - 86 80");
        let verdict = tables.root(&defended).unwrap();
        assert_eq!(theirs_after(&tables, &defended, verdict.best), AmbiguousWdl::MaybeWin);
        assert_eq!((verdict.outcome, verdict.score), (Outcome::Draw, 0));
        for m in &verdict.keeping {
            assert_eq!(theirs_after(&tables, &defended, *m), AmbiguousWdl::MaybeWin, "{}", uci(*m));
        }
    }

    #[test]
    fn moves_rank_by_result_then_mate_zeroing_and_distance() {
        let moves = position("k7/8/8/8/8/8/8/KQ6 w - - 0 1").legal_moves();
        let judged = |i: usize, rank: Rank, theirs: Option<AmbiguousWdl>, mates: bool, zeroing: bool, dtz: i32| {
            Judged { m: moves[i], rank, theirs, mates, zeroing, dtz }
        };
        let mut list = [
            judged(0, Rank::Loss, Some(AmbiguousWdl::Win), false, false, -20),
            judged(1, Rank::Loss, Some(AmbiguousWdl::Win), false, true, -30),
            judged(2, Rank::Loss, Some(AmbiguousWdl::Win), false, false, -30),
            judged(3, Rank::MaybeLoss, Some(AmbiguousWdl::MaybeWin), false, false, -60),
            judged(4, Rank::Draw, Some(AmbiguousWdl::CursedWin), false, false, -110),
            judged(5, Rank::Draw, Some(AmbiguousWdl::Draw), false, false, 0),
            judged(6, Rank::Draw, Some(AmbiguousWdl::BlessedLoss), false, false, 110),
            judged(7, Rank::MaybeWin, Some(AmbiguousWdl::MaybeLoss), false, false, 40),
            judged(8, Rank::Win, Some(AmbiguousWdl::Loss), false, false, 5),
            judged(9, Rank::Win, Some(AmbiguousWdl::Loss), false, true, 9),
            judged(10, Rank::Win, None, true, false, 1),
        ];
        list.sort_by_key(Judged::preference);
        let order: Vec<Move> = list.iter().map(|j| j.m).collect();
        let expected: Vec<Move> = [10, 9, 8, 7, 6, 5, 4, 3, 2, 0, 1].iter().map(|&i| moves[i]).collect();
        assert_eq!(order, expected);
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
        let mating = position("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1");
        let rows = tables.listing(&mating).unwrap();
        assert_eq!(rows[0], " Qg8#    win   mate");
        assert!(rows.iter().any(|r| r.ends_with(" draw")), "stalemating moves draw: {rows:?}");
        assert_eq!(rows.len(), mating.legal_moves().len());
        assert!(rows.iter().all(|r| r.starts_with(' ')));
        // The losing side: every row a loss, the longest first, as negative DTZ.
        let rows = tables.listing(&position("k7/8/8/8/8/8/8/KQ6 b - - 0 1")).unwrap();
        assert_eq!(rows[0], " Ka7     loss  DTZ -13", "{rows:?}");
        assert!(rows.iter().all(|r| r.contains(" loss  DTZ -")), "{rows:?}");
        // The winning side: the best first, then the slower wins, then the rest.
        let rows = tables.listing(&position("k7/8/8/8/8/8/8/KQ6 w - - 0 1")).unwrap();
        assert!(rows[0].ends_with(" win   DTZ 12"), "{rows:?}");
        // A cursed win: won but for the fifty-move rule.
        let rows = tables.listing(&position("k7/8/8/8/8/8/8/KQ6 w - - 90 80")).unwrap();
        assert!(rows[0].contains(" draw  (cursed win, DTZ 12)"), "{rows:?}");
    }

    /// The built-in search keeps its probe in a slot of the process's: tests that
    /// hand it one take turns.
    static LENDING: Mutex<()> = Mutex::new(());

    #[test]
    fn lent_tables_answer_search_plugins() {
        let plugin_position = |fen: &str| plugboard_shakmaty::to_plugin_position(&position(fen), api::Variant::CHESS);
        let lent = SearchTables::lend(Arc::new(tables()));
        let probe = lent.probe();
        assert_eq!(probe.max_pieces, 4);
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/8/KQ6 b - - 0 1")), Some(api::Wdl::LOSS));
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/8/KQ6 w - - 0 1")), Some(api::Wdl::WIN));
        assert_eq!(probe.probe_wdl(&plugin_position("8/8/3k4/8/8/2r5/8/R3K3 w - - 0 1")), Some(api::Wdl::DRAW));
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/1PP5/KQ6 w - - 0 1")), None);
        let mut atomic = plugin_position("k7/8/8/8/8/8/8/KQ6 b - - 0 1");
        atomic.variant = api::Variant::ATOMIC;
        assert_eq!(probe.probe_wdl(&atomic), None);
        drop(lent);
        // A probe handed out for tables since closed finds nothing, and is still safe to call.
        assert_eq!(probe.probe_wdl(&plugin_position("k7/8/8/8/8/8/8/KQ6 b - - 0 1")), None);
    }

    /// The built-in search, handed the probe as the host hands it to any search
    /// plugin, searches `fen` to `depth`: its last score and tablebase hits.
    fn search_with_lent_tables(lent: Option<&SearchTables>, fen: &str, depth: u32) -> (api::Score, u64) {
        use api::{InfoKind, NO_DEADLINE, Reporter, SearchControl, SearchInfo, SearchPlugin, SearchRequest};
        use plugboard_alphabeta::{AlphaBeta, Direct};
        use plugboard_eval_pesto::PestoEvaluator;

        let module = AlphaBeta::module();
        let use_tablebases = module.use_tablebases().expect("alphabeta takes tablebases");
        use_tablebases(lent.map(SearchTables::probe).into());
        let game = crate::game::Game::from_fen(fen).unwrap();
        let root = game.plugin_position(game.position());
        let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
        let request = SearchRequest {
            game_start: root,
            moves: abi_stable::std_types::RSlice::from_slice(&[]),
            root,
            root_moves: abi_stable::std_types::RSlice::from_slice(&[]),
            depth,
            nodes: 0,
            threads: 1,
            hash_mb: 8,
            multipv: 1,
            clear_hash: true,
            preset_scores: abi_stable::std_types::RSlice::from_slice(&[]),
            eval_noise: 0,
            noise_seed: 0,
            control: &control,
        };
        let last = Mutex::new(None);
        let record = |info: &SearchInfo<'_>| {
            if info.kind == InfoKind::Line {
                *last.lock().unwrap() = Some((info.score, info.tbhits));
            }
        };
        plugboard_alphabeta::search(&request, || Ok(Direct(PestoEvaluator::new())), Reporter::new(&record)).unwrap();
        use_tablebases(None.into());
        last.into_inner().unwrap().expect("a line")
    }

    #[test]
    fn a_search_plugin_probes_the_lent_tables() {
        let _turn = LENDING.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let lent = SearchTables::lend(Arc::new(tables()));
        let lent = Some(&lent);
        // Five pieces, so the host would search: Qxd5 leaves KQPvK, which the tables
        // call won; shown as the host shows its own verdict, 20000 less the plies.
        let (score, tbhits) = search_with_lent_tables(lent, "7k/8/8/3r4/8/8/6P1/K2Q4 w - - 0 1", 4);
        assert_eq!((score.kind, score.value), (api::ScoreKind::Centipawns, WIN_SCORE - 1));
        assert!(tbhits > 0);
        // KRvKR: Rxa8+ leaves KRvK, lost for Black.
        let (score, tbhits) = search_with_lent_tables(lent, "r6k/8/8/8/8/8/8/R3K3 w - - 0 1", 3);
        assert_eq!(score.value, WIN_SCORE - 1);
        assert!(tbhits > 0);
        // A drawn KRvKR: every capture the search looks at ends in a table draw.
        let (score, tbhits) = search_with_lent_tables(lent, "8/8/3k4/8/8/2r5/8/R3K3 w - - 0 1", 5);
        assert!(score.value.abs() < 1_000, "{score:?}");
        assert!(tbhits > 0);
        // Without tables, no hits, and an ordinary evaluation.
        let (score, tbhits) = search_with_lent_tables(None, "7k/8/8/3r4/8/8/6P1/K2Q4 w - - 0 1", 4);
        assert_eq!(tbhits, 0);
        assert!(score.value < 5_000, "{score:?}");
    }
}
