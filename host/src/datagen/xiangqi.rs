//! One game of xiangqi self-play for the training data, as `game` is for
//! chess: random moves from the opening position, then both sides played by
//! the chosen search and evaluation at a fixed node count, judged by
//! `plugboard-xiangqi`'s rules (a side with no move loses; a repetition is
//! decided by xboard's perpetual-check and chase rules), and the quiet
//! positions kept with the search's score and the game's result.

use super::game::{Adjudicator, LastLabel, MAX_PLIES, OPENING_MARGIN, Verdict};
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

struct Line {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Line {
    fn new() -> Line {
        Line { positions: vec![Position::start()], moves: Vec::new() }
    }

    fn position(&self) -> &Position {
        self.positions.last().expect("a line holds its start")
    }

    fn play(&mut self, m: Move) {
        let next = self.position().after(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.position().legal_moves(&mut moves);
        moves
    }

    /// The result the rules give, if the game is over by them.
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
}

/// Plays game number `game`.
pub fn play(setup: &Setup, game: u32) -> Result<Played, String> {
    let mut random = SplitMix64::for_item(setup.seed, game);
    let mut line = opening(setup, &mut random)?;
    let first_kept = line.moves.len();
    let mut kept: Vec<(api::BoardPosition, i32)> = Vec::new();
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
        let red_to_move = line.position().turn() == Color::Red;
        let centipawns = match verdict {
            Some(Verdict::Mate(wins)) => {
                break if wins == red_to_move { Outcome::WhiteWins } else { Outcome::BlackWins };
            }
            Some(Verdict::Centipawns(score)) => score,
            None => {
                line.play(best);
                continue;
            }
        };
        let red_score = if red_to_move { centipawns } else { -centipawns };
        if let Some(outcome) = adjudicator.judge(red_score, line.moves.len()) {
            break outcome;
        }
        // As in chess: positions in check or whose best move captures are left out.
        if !line.position().is_check() && !line.position().is_capture(best) {
            kept.push((line.position().to_board_position(), red_score));
        }
        line.play(best);
    };
    let records = kept
        .iter()
        .map(|(position, score)| XiangqiRecord::new(position, (*score).clamp(-20_000, 20_000) as i16, outcome, game))
        .collect();
    Ok(Played { records, outcome, plies: line.moves.len() })
}

/// Random moves from the opening position, until a position neither side is far ahead in.
fn opening(setup: &Setup, random: &mut SplitMix64) -> Result<Line, String> {
    for _ in 0..1000 {
        let mut line = Line::new();
        for _ in 0..setup.random_plies {
            if line.ended().is_some() {
                break;
            }
            let moves = line.legal_moves();
            line.play(moves[random.below(moves.len())]);
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

/// The best move and its score, by a search of `setup.nodes` nodes.
fn search(setup: &Setup, line: &Line, clear_hash: bool) -> Result<(Move, Option<Verdict>), String> {
    let search_board = setup.search.search_board().ok_or("the search plays no xiangqi")?;
    let control = SearchControl::new(NO_DEADLINE, NO_DEADLINE, false);
    let moves: Vec<api::Move> = line.moves.iter().map(|m| m.to_plugin()).collect();
    let request = BoardSearchRequest {
        game_start: line.positions[0].to_board_position(),
        moves: RSlice::from_slice(&moves),
        root: line.position().to_board_position(),
        root_moves: RSlice::from_slice(&[]),
        depth: 0,
        threads: 1,
        nodes: setup.nodes,
        hash_mb: setup.hash_mb,
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
    let outcome = search_board(&request, setup.eval, Reporter::new(&record)).into_result()?;
    let best = outcome.best.into_option().ok_or("the search found no move in a position that has some")?;
    let best = Move::from_plugin(best);
    if !line.position().is_legal(best) {
        return Err("the search's move is not legal".into());
    }
    Ok((best, last.into_verdict()))
}
