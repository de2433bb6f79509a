//! One game of self-play for the training data: an opening drawn from the book
//! and random moves, then both sides played by the chosen search and evaluation
//! at a fixed node count, and the positions worth learning from kept with the
//! search's score and, once it is known, the game's result.

use abi_stable::std_types::RSlice;
use plugboard_eval_nnue::{
    data::{Outcome, Record},
    random::SplitMix64,
};
use plugboard_plugin_api::{
    self as api, Bound, EvaluatorSource, InfoKind, NO_DEADLINE, Reporter, ScoreKind, SearchControl, SearchInfo,
    SearchModuleRef, SearchRequest,
};
use plugboard_shakmaty::{from_plugin_move, to_plugin_move, to_plugin_position};
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, zobrist::Zobrist64};
use std::sync::Mutex;

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

/// An opening is searched once and dropped if one side is already this far ahead.
pub(super) const OPENING_MARGIN: i32 = 300;
/// A side this far ahead for `WIN_PLIES` plies in a row has won.
const WIN_SCORE: i32 = 1500;
const WIN_PLIES: u32 = 4;
/// After `DRAW_FROM_PLY`, a score this close to level for `DRAW_PLIES` plies in a row is a draw.
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 12;
const DRAW_FROM_PLY: usize = 80;
/// A game longer than this is a draw; no opening is longer either.
pub const MAX_PLIES: usize = 400;

/// The score of a search, from the side to move's view: centipawns, or a mate.
#[derive(Clone, Copy)]
pub(super) enum Verdict {
    Centipawns(i32),
    /// The side to move mates (true) or is mated (false).
    Mate(bool),
}

pub(super) struct Line {
    start: Chess,
    pub(super) position: Chess,
    moves: Vec<api::Move>,
    hashes: Vec<u64>,
}

impl Line {
    fn from(start: Chess) -> Line {
        let hashes = vec![hash(&start)];
        Line { position: start.clone(), start, moves: Vec::new(), hashes }
    }

    fn play(&mut self, m: &Move) {
        self.position.play_unchecked(*m);
        self.moves.push(to_plugin_move(*m));
        self.hashes.push(hash(&self.position));
    }

    /// The result the rules give, if the game is over by them.
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
}

fn hash(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Plays game number `game`.
pub fn play(setup: &Setup<'_>, game: u32) -> Result<Played, String> {
    let mut random = SplitMix64::for_item(setup.seed, game);
    let mut line = opening(setup, &mut random)?;
    let first_kept = line.moves.len();
    let mut kept: Vec<(api::Position, i32)> = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let outcome = loop {
        if let Some(outcome) = line.ended() {
            break outcome;
        }
        if line.moves.len() >= MAX_PLIES {
            break Outcome::Draw;
        }
        let fresh = line.moves.len() == first_kept;
        let (best, verdict) = search(setup, &line, fresh)?;
        let white_to_move = line.position.turn() == Color::White;
        let centipawns = match verdict {
            Some(Verdict::Mate(wins)) => {
                break if wins == white_to_move { Outcome::WhiteWins } else { Outcome::BlackWins };
            }
            Some(Verdict::Centipawns(score)) => score,
            None => {
                // The node limit ended the search before its first line: a move, but no label.
                line.play(&best);
                continue;
            }
        };
        let white_score = if white_to_move { centipawns } else { -centipawns };
        if let Some(outcome) = adjudicator.judge(white_score, line.moves.len()) {
            break outcome;
        }
        // Positions in check or whose best move captures or promotes are left
        // out: their score rests on the tactics, not on what the board shows.
        if !line.position.is_check() && !best.is_capture() && !best.is_promotion() {
            kept.push((to_plugin_position(&line.position, api::Variant::CHESS), white_score));
        }
        line.play(&best);
    };
    let records = kept
        .iter()
        .map(|(position, score)| Record::new(position, (*score).clamp(-20_000, 20_000) as i16, outcome, game))
        .collect();
    Ok(Played { records, outcome, plies: line.moves.len() })
}

/// Ends a game by its scores: won when one side has been far ahead for a few
/// plies, drawn when the score has stayed level for long after the opening.
#[derive(Default)]
pub(super) struct Adjudicator {
    /// Plies in a row with one side this far ahead: positive for the first player, negative for the second.
    winning: i32,
    level: u32,
}

impl Adjudicator {
    /// The search scored `first_player_score` (from White's or Red's side) at `ply`.
    pub(super) fn judge(&mut self, first_player_score: i32, ply: usize) -> Option<Outcome> {
        self.winning = match (first_player_score >= WIN_SCORE, first_player_score <= -WIN_SCORE) {
            (true, _) => self.winning.max(0) + 1,
            (_, true) => self.winning.min(0) - 1,
            _ => 0,
        };
        if self.winning.unsigned_abs() >= WIN_PLIES {
            return Some(if self.winning > 0 { Outcome::WhiteWins } else { Outcome::BlackWins });
        }
        let level = first_player_score.abs() <= DRAW_SCORE && ply >= DRAW_FROM_PLY;
        self.level = if level { self.level + 1 } else { 0 };
        (self.level >= DRAW_PLIES).then_some(Outcome::Draw)
    }
}

/// Book moves, then random moves, until a position neither side is far ahead in.
pub(super) fn opening(setup: &Setup<'_>, random: &mut SplitMix64) -> Result<Line, String> {
    for _ in 0..1000 {
        let start = match setup.starts.len() {
            0 => Chess::default(),
            count => setup.starts[random.below(count)].clone(),
        };
        let mut line = Line::from(start);
        if let Some(book) = setup.book {
            for _ in 0..setup.book_plies {
                if line.ended().is_some() {
                    break;
                }
                match book.choose(&line.position, Choice::WeightedRandom, random.unit()) {
                    Some(chosen) => line.play(&chosen.m),
                    None => break,
                }
            }
        }
        for _ in 0..setup.random_plies {
            // A game over by the rules (a repetition, bare kings) has legal
            // moves still: they would go on for as long as asked.
            if line.ended().is_some() {
                break;
            }
            let moves = line.position.legal_moves();
            line.play(&moves[random.below(moves.len())]);
        }
        if line.ended().is_some() {
            continue;
        }
        if let (_, Some(Verdict::Centipawns(score))) = search(setup, &line, true)?
            && score.abs() <= OPENING_MARGIN
        {
            return Ok(line);
        }
    }
    Err("no balanced opening in 1000 tries".into())
}

/// The best move and its score, by a search of `setup.nodes` nodes; no score
/// when the nodes ran out before the search's first line.
fn search(setup: &Setup<'_>, line: &Line, clear_hash: bool) -> Result<(Move, Option<Verdict>), String> {
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let request = SearchRequest {
        game_start: to_plugin_position(&line.start, api::Variant::CHESS),
        moves: RSlice::from_slice(&line.moves),
        root: to_plugin_position(&line.position, api::Variant::CHESS),
        root_moves: RSlice::from_slice(&[]),
        depth: 0,
        nodes: setup.nodes,
        threads: 1,
        hash_mb: setup.hash_mb,
        multipv: 1,
        clear_hash,
        preset_scores: RSlice::from_slice(&[]),
        eval_noise: 0,
        noise_seed: 0,
        control: &control,
    };
    let last = LastLabel::default();
    let record = |info: &SearchInfo<'_>| last.note(info);
    let outcome = (setup.search.search())(&request, setup.eval, Reporter::new(&record)).into_result()?;
    let best = outcome.best.into_option().ok_or("the search found no move in a position that has some")?;
    let best = from_plugin_move(&line.position, best).ok_or("the search's move is not legal")?;
    Ok((best, last.into_verdict()))
}

/// The last thing a search's lines said of the position with an exact score:
/// a bound is no label.
#[derive(Default)]
pub(super) struct LastLabel(Mutex<Option<Verdict>>);

impl LastLabel {
    pub(super) fn note(&self, info: &SearchInfo<'_>) {
        if info.kind != InfoKind::Line || info.score.bound != Bound::Exact {
            return;
        }
        let verdict = match info.score.kind {
            ScoreKind::Mate => Verdict::Mate(info.score.value > 0),
            ScoreKind::Centipawns => Verdict::Centipawns(info.score.value),
        };
        if let Ok(mut last) = self.0.lock() {
            *last = Some(verdict);
        }
    }

    pub(super) fn into_verdict(self) -> Option<Verdict> {
        self.0.into_inner().ok().flatten()
    }
}
