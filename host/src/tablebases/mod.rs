//! Syzygy endgame tablebases: the tables `egtpath syzygy` names, the move to play
//! at the root of a position they cover (see [`verdict`] for how moves are
//! judged), the rows of `bk` there, and the probe lent to search plugins for
//! positions inside their search (see [`lend`]).

mod lend;
pub mod verdict;

use std::{
    path::{Path, PathBuf},
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use shakmaty::{Chess, Position};
use shakmaty_syzygy::{SyzygyError, Tablebase, Wdl};

use self::verdict::{Judged, Rank};
pub use self::{
    lend::SearchTables,
    verdict::{Outcome, RootVerdict, WIN_SCORE},
};

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

#[cfg(test)]
pub(crate) mod test_tables {
    use shakmaty::{CastlingMode, Chess, Move, fen::Fen, uci::UciMove};

    use super::Tablebases;

    pub fn folder() -> String {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/syzygy").display().to_string()
    }

    /// The 3- and 4-piece tables in the repository.
    pub fn tables() -> Tablebases {
        let (tables, problems) = Tablebases::load(&folder());
        assert!(problems.broken.is_empty() && problems.absent.is_empty(), "{problems:?}");
        tables
    }

    pub fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    pub fn uci(m: Move) -> String {
        UciMove::from_standard(m).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::{test_tables::*, *};

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
}
