//! What the tables make of each legal move at the root, and of the root itself.
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

use std::cmp::Reverse;

use shakmaty::{Chess, Move, san::SanPlus};
use shakmaty_syzygy::AmbiguousWdl;

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
pub(super) enum Rank {
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
    pub(super) fn outcome(self) -> Outcome {
        match self {
            Rank::Win | Rank::MaybeWin => Outcome::Win,
            Rank::Draw | Rank::MaybeLoss => Outcome::Draw,
            Rank::Loss => Outcome::Loss,
        }
    }

    /// How a move serves us when the opponent's tables then say `theirs`.
    pub(super) fn of_reply(theirs: AmbiguousWdl) -> Rank {
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
pub(super) struct Judged {
    pub(super) m: Move,
    pub(super) rank: Rank,
    /// The opponent's result after the move; `None` when the move ends the game.
    pub(super) theirs: Option<AmbiguousWdl>,
    /// Mates at once.
    pub(super) mates: bool,
    pub(super) zeroing: bool,
    /// DTZ of the position after the move, from our view (positive when we win).
    pub(super) dtz: i32,
}

impl Judged {
    /// Orders moves best first: by rank, then as the module documentation says.
    pub(super) fn preference(&self) -> (Reverse<Rank>, bool, bool, i32) {
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
    pub(super) fn row(&self, position: &Chess) -> String {
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

#[cfg(test)]
mod tests {
    use shakmaty::{Move, Position};
    use shakmaty_syzygy::AmbiguousWdl;

    use super::{super::test_tables::*, *};
    use crate::tablebases::Tablebases;

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
}
