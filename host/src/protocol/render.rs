//! How the core's notes and refusals read in CECP: thinking lines, scores, the
//! analysis status, chess-server commands, and `Error (...)` lines.

use plugboard_plugin_api::{Bound, Score, ScoreKind};

use super::{
    Reply,
    reply::{Stat01, Thinking},
};
use crate::{
    core::{
        Refusal,
        note::{Known, Status, Thought},
    },
    game::Game,
    ics::Talk,
};

/// A search's line: `DEPTH SCORE TIME NODES SELDEPTH NPS TBHITS<Tab>PV`.
pub fn thinking(thought: &Thought, game: &Game) -> Thinking {
    let pv: Vec<String> = thought.pv.iter().map(|&m| game.move_text(m)).collect();
    Thinking {
        depth: thought.depth,
        score: xboard_score(thought.score),
        centiseconds: thought.time_ms / 10,
        nodes: thought.nodes,
        seldepth: thought.seldepth,
        nps: thought.nodes.saturating_mul(1000) / thought.time_ms.max(1),
        tbhits: thought.tbhits,
        pv: pv.join(" "),
        // The session sets it from `Extended thinking` as the line goes out.
        extended: true,
    }
}

/// `++` or `--` before a line whose score is a bound: the search is failing
/// high or low, and the score is only as far as it has got.
pub fn failing(score: Score) -> Option<Reply> {
    match score.bound {
        Bound::Exact => None,
        Bound::Lower => Some(Reply::Failing { high: true }),
        Bound::Upper => Some(Reply::Failing { high: false }),
    }
}

/// The thinking line for a move known without search: the tables' move as good
/// as a search's (depth 1, a line a client can read, the verdict after it), the
/// book's as a note.
pub fn known_thinking(known: &Known, game: &Game) -> Thinking {
    let score = i64::from(known.score);
    if known.from_tables {
        // python-chess and lichess-bot read the move before the verdict.
        let pv = format!("{} {}", game.move_text(known.m), known.note);
        Thinking { depth: 1, score, tbhits: 1, pv, ..Thinking::default() }
    } else {
        Thinking { score, pv: known.note.clone(), ..Thinking::default() }
    }
}

/// Centipawns, or ±(100000 + moves) for mates, as xboard and python-chess read them.
pub fn xboard_score(score: Score) -> i64 {
    match score.kind {
        ScoreKind::Centipawns => i64::from(score.value),
        ScoreKind::Mate if score.value >= 0 => 100_000 + i64::from(score.value),
        ScoreKind::Mate => -100_000 + i64::from(score.value),
    }
}

/// The answer to `.` in analysis mode.
pub fn stat01(status: &Status, game: &Game) -> Stat01 {
    Stat01 {
        centiseconds: status.time_ms / 10,
        nodes: status.nodes,
        depth: status.depth,
        moves_left: status.moves_left,
        total_moves: status.total_moves,
        current_move: status.current.map(|m| game.move_text(m)).unwrap_or_default(),
    }
}

/// Words for the chess server, as xboard's Zippy mode passes them on.
pub fn talk(talk: Talk) -> Reply {
    // xboard sends these lines to the server without the `$` that stops a
    // lasker-lineage server from splitting a line into commands at each `;` (and
    // `tellics` also through the user's aliases): no `;` may reach it. A command
    // of ours goes as `tellicsnoalias`, which xboard sends with the `$`.
    let plain = |text: String| text.replace(';', ",");
    match talk {
        Talk::Command(text) | Talk::CommandNoAlias(text) => Reply::TellIcsNoAlias(plain(text)),
        Talk::All(text) => Reply::TellAll(plain(text)),
        Talk::Others(text) => Reply::TellOthers(plain(text)),
        Talk::Opponent(text) => Reply::TellOpponent(plain(text)),
    }
}

/// `Error (...)` for the command `line`, which the core refused.
pub fn refusal(line: &str, refusal: Refusal) -> Reply {
    let line = line.trim();
    let (kind, command) = match refusal {
        Refusal::NotLegalNow(None) => ("command not legal now", line.to_owned()),
        Refusal::NotLegalNow(Some(why)) => ("command not legal now", format!("{line} ({why})")),
        Refusal::BadParameter(why) => ("bad parameter", format!("{line} ({why})")),
        Refusal::UnknownOption => ("unknown option", line.to_owned()),
        Refusal::UnsupportedVariant => ("unsupported variant", line.to_owned()),
        Refusal::UnsupportedTables => ("unsupported tablebase type", line.to_owned()),
    };
    Reply::Error { kind, command }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_said_on_a_server_carries_a_command_separator() {
        let said = [
            talk(Talk::Command("ptell Q mates here; quit".into())),
            talk(Talk::CommandNoAlias("set 2 Search: evil; resign".into())),
            talk(Talk::All("Mate in 1!; abort".into())),
            talk(Talk::Others("d9 pv e4; e5".into())),
            talk(Talk::Opponent("Hello; resign".into())),
        ];
        let lines: Vec<String> = said.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "tellicsnoalias ptell Q mates here, quit",
                "tellicsnoalias set 2 Search: evil, resign",
                "tellall Mate in 1!, abort",
                "tellothers d9 pv e4, e5",
                "tellopponent Hello, resign",
            ]
        );
    }

    #[test]
    fn a_bound_is_marked_failing_high_or_low_and_an_exact_score_is_not() {
        let at = |bound| Score { bound, ..Score::centipawns(40) };
        assert_eq!(failing(at(Bound::Lower)).map(|reply| reply.to_string()).as_deref(), Some("++"));
        assert_eq!(failing(at(Bound::Upper)).map(|reply| reply.to_string()).as_deref(), Some("--"));
        assert_eq!(failing(at(Bound::Exact)), None);
    }
}
