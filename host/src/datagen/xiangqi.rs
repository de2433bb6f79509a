//! One game of xiangqi self-play for the training data, as `game` is for
//! chess: random moves from the opening position, then both sides played by
//! the chosen search and evaluation at a fixed node count
//! ([`super::selfplay`] runs the game), judged by
//! `plugboard-xiangqi`'s rules (a side with no move loses; a repetition is
//! decided by xboard's perpetual-check and chase rules), and the quiet
//! positions kept with the search's score and the game's result.

use super::selfplay::{LastLabel, SelfPlay, Verdict, balanced_opening, play_out, play_random};
use abi_stable::std_types::RSlice;
use plugboard_eval_nnue::{data::Outcome, random::SplitMix64, xiangqi::data::XiangqiRecord};
use plugboard_plugin_api::{
    self as api, BoardEvaluatorSource, BoardSearchRequest, NO_DEADLINE, Reporter, SearchControl, SearchInfo,
    SearchModuleRef,
};
use plugboard_xiangqi::{
    Color, Move, MoveList, Position,
    repetition::{self, Rule},
};

/// What a game needs besides its number.
pub struct Setup {
    pub search: SearchModuleRef,
    pub eval: BoardEvaluatorSource,
    pub random_plies: u32,
    pub nodes: u64,
    pub hash_mb: u32,
    pub seed: u64,
}

/// A finished game: the positions kept, and how it ended.
pub struct Played {
    pub records: Vec<XiangqiRecord>,
    pub outcome: Outcome,
    pub plies: usize,
}

/// A repetition ends a game the third time a position stands: xboard's own
/// default waits for the sixth, which self-play has no need of.
const REPETITION: Rule = Rule { occurrences: 3, first_position_counts: true };
/// Plies without a capture after which the game is drawn (xboard's 50 moves).
const QUIET_PLIES: u32 = 100;

struct Line<'s> {
    setup: &'s Setup,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl<'s> Line<'s> {
    fn new(setup: &'s Setup) -> Line<'s> {
        Line { setup, positions: vec![Position::start()], moves: Vec::new() }
    }

    fn position(&self) -> &Position {
        self.positions.last().expect("a line holds its start")
    }
}

impl SelfPlay for Line<'_> {
    type Move = Move;
    type Kept = api::BoardPosition;

    fn ended(&self) -> Option<Outcome> {
        let from_winner = |winner: Color| if winner == Color::Red { Outcome::WhiteWins } else { Outcome::BlackWins };
        if let Some(outcome) = self.position().outcome() {
            return Some(match outcome {
                plugboard_xiangqi::Outcome::Checkmate { winner } | plugboard_xiangqi::Outcome::Stalemate { winner } => {
                    from_winner(winner)
                }
            });
        }
        if let Some(verdict) = repetition::judge(&self.positions, &self.moves, REPETITION) {
            return Some(verdict.winner().map_or(Outcome::Draw, from_winner));
        }
        (self.position().halfmoves() >= QUIET_PLIES).then_some(Outcome::Draw)
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    fn first_player_to_move(&self) -> bool {
        self.position().turn() == Color::Red
    }

    fn play(&mut self, m: Move) {
        let next = self.position().after(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    fn random_move(&self, random: &mut SplitMix64) -> Move {
        let mut moves = MoveList::new();
        self.position().legal_moves(&mut moves);
        moves[random.below(moves.len())]
    }

    fn search(&self, clear_hash: bool) -> Result<(Move, Option<Verdict>), String> {
        let search_board = self.setup.search.search_board().ok_or("the search plays no xiangqi")?;
        let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
        let moves: Vec<api::Move> = self.moves.iter().map(|m| m.to_plugin()).collect();
        let request = BoardSearchRequest {
            game_start: self.positions[0].to_board_position(),
            moves: RSlice::from_slice(&moves),
            root: self.position().to_board_position(),
            root_moves: RSlice::from_slice(&[]),
            depth: 0,
            threads: 1,
            nodes: self.setup.nodes,
            hash_mb: self.setup.hash_mb,
            multipv: 1,
            preset_scores: RSlice::from_slice(&[]),
            eval_noise: 0,
            clear_hash,
            reserved8: [0; 3],
            noise_seed: 0,
            control: &control,
            reserved: [0; 4],
        };
        let last = LastLabel::default();
        let record = |info: &SearchInfo<'_>| last.note(info);
        let outcome = search_board(&request, self.setup.eval, Reporter::new(&record)).into_result()?;
        let best = outcome.best.into_option().ok_or("the search found no move in a position that has some")?;
        let best = Move::from_plugin(best);
        if !self.position().is_legal(best) {
            return Err("the search's move is not legal".into());
        }
        Ok((best, last.into_verdict()))
    }

    fn keep(&self, best: Move) -> Option<api::BoardPosition> {
        let position = self.position();
        (!position.is_check() && !position.is_capture(best)).then(|| position.to_board_position())
    }
}

/// Plays game number `game`.
pub fn play(setup: &Setup, game: u32) -> Result<Played, String> {
    let mut random = SplitMix64::for_item(setup.seed, game);
    let line = balanced_opening(|| {
        let mut line = Line::new(setup);
        play_random(&mut line, setup.random_plies, &mut random);
        Ok(line)
    })?;
    let finished = play_out(line)?;
    let records = finished
        .kept
        .iter()
        .map(|(position, score)| {
            XiangqiRecord::new(position, (*score).clamp(-20_000, 20_000) as i16, finished.outcome, game)
        })
        .collect();
    Ok(Played { records, outcome: finished.outcome, plies: finished.plies })
}
