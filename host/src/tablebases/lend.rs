//! The tables as a search plugin reaches them: a probe that travels with each
//! search request.

use std::sync::{Arc, Weak};

use plugboard_plugin_api::{self as api, TablebaseProbe, TablebaseSource};
use shakmaty::variant::VariantPosition;
use shakmaty_syzygy::Wdl;

use super::Tablebases;

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
    use std::sync::Mutex;

    use super::{super::test_tables::*, *};
    use crate::tablebases::WIN_SCORE;

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
        let root = game.plugin_root().chess().unwrap();
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
