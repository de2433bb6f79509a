//! One game of chess self-play for the training data: an opening drawn from
//! the book and random moves, then both sides played by the chosen search and
//! evaluation at a fixed node count ([`super::selfplay`] runs the game), and the
//! positions worth learning from kept with the search's score and, once it is
//! known, the game's result.

use abi_stable::std_types::RSlice;
use plugboard_eval_nnue::{
    data::{Outcome, Record},
    random::SplitMix64,
};
use plugboard_plugin_api::{
    self as api, EvaluatorSource, NO_DEADLINE, Reporter, SearchControl, SearchInfo, SearchModuleRef, SearchRequest,
};
use plugboard_shakmaty::{from_plugin_move, to_plugin_move, to_plugin_position};
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, zobrist::Zobrist64};

use super::selfplay::{LastLabel, SelfPlay, Verdict, balanced_opening, play_out, play_random};
use crate::book::{Book, Choice};

/// What a game needs besides its number.
pub struct Setup<'a> {
    pub search: SearchModuleRef,
    pub eval: EvaluatorSource,
    pub book: Option<&'a Book>,
    /// Positions an opening may start from, one drawn at random; none: the
    /// standard start.
    pub starts: &'a [Chess],
    pub book_plies: u32,
    pub random_plies: u32,
    pub nodes: u64,
    pub hash_mb: u32,
    pub seed: u64,
}

/// A finished game: the positions kept, and how it ended.
pub struct Played {
    pub records: Vec<Record>,
    pub outcome: Outcome,
    pub plies: usize,
}

pub(super) struct Line<'s> {
    setup: &'s Setup<'s>,
    start: Chess,
    pub(super) position: Chess,
    moves: Vec<api::Move>,
    hashes: Vec<u64>,
}

impl<'s> Line<'s> {
    fn from(setup: &'s Setup<'s>, start: Chess) -> Line<'s> {
        let hashes = vec![hash(&start)];
        Line { setup, position: start.clone(), start, moves: Vec::new(), hashes }
    }
}

impl SelfPlay for Line<'_> {
    type Move = Move;
    type Kept = api::Position;

    fn ended(&self) -> Option<Outcome> {
        let position = &self.position;
        if position.legal_moves().is_empty() {
            return Some(if !position.is_check() {
                Outcome::Draw
            } else if position.turn() == Color::White {
                Outcome::BlackWins
            } else {
                Outcome::WhiteWins
            });
        }
        let now = self.hashes[self.hashes.len() - 1];
        let repeated = self.hashes.iter().filter(|&&h| h == now).count() >= 3;
        (position.is_insufficient_material() || position.halfmoves() >= 100 || repeated).then_some(Outcome::Draw)
    }

    fn plies(&self) -> usize {
        self.moves.len()
    }

    fn first_player_to_move(&self) -> bool {
        self.position.turn() == Color::White
    }

    fn play(&mut self, m: Move) {
        self.position.play_unchecked(m);
        self.moves.push(to_plugin_move(m));
        self.hashes.push(hash(&self.position));
    }

    fn random_move(&self, random: &mut SplitMix64) -> Move {
        let moves = self.position.legal_moves();
        moves[random.below(moves.len())]
    }

    fn search(&self, clear_hash: bool) -> Result<(Move, Option<Verdict>), String> {
        let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
        let request = SearchRequest {
            game_start: to_plugin_position(&self.start, api::Variant::CHESS),
            moves: RSlice::from_slice(&self.moves),
            root: to_plugin_position(&self.position, api::Variant::CHESS),
            root_moves: RSlice::from_slice(&[]),
            depth: 0,
            nodes: self.setup.nodes,
            threads: 1,
            hash_mb: self.setup.hash_mb,
            multipv: 1,
            clear_hash,
            preset_scores: RSlice::from_slice(&[]),
            eval_noise: 0,
            noise_seed: 0,
            control: &control,
        };
        let last = LastLabel::default();
        let record = |info: &SearchInfo<'_>| last.note(info);
        let outcome = (self.setup.search.search())(&request, self.setup.eval, Reporter::new(&record)).into_result()?;
        let best = outcome.best.into_option().ok_or("the search found no move in a position that has some")?;
        let best = from_plugin_move(&self.position, best).ok_or("the search's move is not legal")?;
        Ok((best, last.into_verdict()))
    }

    fn keep(&self, best: Move) -> Option<api::Position> {
        (!self.position.is_check() && !best.is_capture() && !best.is_promotion())
            .then(|| to_plugin_position(&self.position, api::Variant::CHESS))
    }
}

fn hash(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Plays game number `game`.
pub fn play(setup: &Setup<'_>, game: u32) -> Result<Played, String> {
    let mut random = SplitMix64::for_item(setup.seed, game);
    let line = opening(setup, &mut random)?;
    let finished = play_out(line)?;
    let records = finished
        .kept
        .iter()
        .map(|(position, score)| Record::new(position, (*score).clamp(-20_000, 20_000) as i16, finished.outcome, game))
        .collect();
    Ok(Played { records, outcome: finished.outcome, plies: finished.plies })
}

/// Book moves, then random moves, until a position neither side is far ahead in.
pub(super) fn opening<'s>(setup: &'s Setup<'s>, random: &mut SplitMix64) -> Result<Line<'s>, String> {
    balanced_opening(|| {
        let start = match setup.starts.len() {
            0 => Chess::default(),
            count => setup.starts[random.below(count)].clone(),
        };
        let mut line = Line::from(setup, start);
        if let Some(book) = setup.book {
            for _ in 0..setup.book_plies {
                if line.ended().is_some() {
                    break;
                }
                match book.choose(&line.position, Choice::WeightedRandom, random.unit()) {
                    Some(chosen) => line.play(chosen.m),
                    None => break,
                }
            }
        }
        play_random(&mut line, setup.random_plies, random);
        Ok(line)
    })
}
