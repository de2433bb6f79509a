//! The words the engine says on a chess server: its finger notes, the greeting,
//! the one-line summary of each move and mate announcements. Only our own text,
//! numbers, moves and validated handles go into them.

use plugboard_plugin_api::{Score, ScoreKind};

use super::handle::{plain_words, valid_handle};

/// `set 1 …`, `set 2 …`: the server's finger notes, as Crafty keeps them.
pub fn finger_notes(engine: &str, search: &str, eval: &str) -> [String; 2] {
    [
        format!("set 1 {}, a chess engine whose search and evaluation are plugins", plain_words(engine, 40)),
        format!("set 2 Search: {}, evaluation: {}", plain_words(search, 40), plain_words(eval, 40)),
    ]
}

/// The greeting with `{opponent}` replaced by the opponent's handle, when it is one.
pub fn greeting(template: &str, opponent: Option<&str>) -> Option<String> {
    let name = opponent.and_then(valid_handle).unwrap_or("there");
    let text = template.replace("{opponent}", name);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// What a search found, for the spectators.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub tbhits: u64,
    /// In SAN, from the position before our move.
    pub pv: String,
}

/// `d12 +0.35 n=1234567 2.1Mnps t=1.23s pv e4 e5 Nf3`
pub fn summary(s: &Summary) -> String {
    let nps = s.nodes.saturating_mul(1000) / s.time_ms.max(1);
    let mut text = format!(
        "d{} {} n={} {}nps t={:.2}s",
        s.depth,
        score_text(s.score),
        s.nodes,
        si(nps),
        s.time_ms as f64 / 1000.0
    );
    if s.tbhits > 0 {
        text += &format!(" tb={}", s.tbhits);
    }
    if !s.pv.is_empty() {
        text += &format!(" pv {}", s.pv);
    }
    text
}

/// A move made without a search: from the book, the tablebases, or the best
/// known when a search failed; `note` says which.
pub fn unsearched(move_san: &str, note: &str) -> String {
    format!("{move_san} ({note})")
}

pub fn mate_announcement(moves: i32) -> String {
    if moves == 1 { "Mate in 1!".to_owned() } else { format!("Mate in {moves}!") }
}

/// Centipawns as pawns with a sign, mates as `+M3`/`-M3`.
fn score_text(score: Score) -> String {
    match score.kind {
        ScoreKind::Centipawns => format!("{:+.2}", f64::from(score.value) / 100.0),
        ScoreKind::Mate if score.value >= 0 => format!("+M{}", score.value),
        ScoreKind::Mate => format!("-M{}", -score.value),
    }
}

fn si(number: u64) -> String {
    match number {
        0..1_000 => number.to_string(),
        1_000..1_000_000 => format!("{}k", number / 1000),
        _ => format!("{:.1}M", number as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_has_depth_score_nodes_speed_time_and_line() {
        let s = Summary {
            depth: 12,
            score: Score::centipawns(35),
            nodes: 2_345_678,
            time_ms: 1100,
            tbhits: 0,
            pv: "e4 e5 Nf3".into(),
        };
        assert_eq!(summary(&s), "d12 +0.35 n=2345678 2.1Mnps t=1.10s pv e4 e5 Nf3");
        let mated = Summary { score: Score::mate_in(-3), tbhits: 7, pv: String::new(), ..s.clone() };
        assert_eq!(summary(&mated), "d12 -M3 n=2345678 2.1Mnps t=1.10s tb=7");
        let slow = Summary { nodes: 900, time_ms: 0, score: Score::centipawns(-5), ..s };
        assert_eq!(summary(&slow), "d12 -0.05 n=900 900knps t=0.00s pv e4 e5 Nf3");
    }

    #[test]
    fn greeting_uses_only_valid_handles() {
        let template = "Hello {opponent}, good luck!";
        assert_eq!(greeting(template, Some("GuestABCD")).as_deref(), Some("Hello GuestABCD, good luck!"));
        assert_eq!(greeting(template, Some("x; tellics quit")).as_deref(), Some("Hello there, good luck!"));
        assert_eq!(greeting(template, None).as_deref(), Some("Hello there, good luck!"));
        assert_eq!(greeting("  ", Some("GuestABCD")), None);
    }

    #[test]
    fn finger_notes_carry_no_separators_from_plugin_names() {
        let [one, two] = finger_notes("Plugboard 0.1.0", "alphabeta 0.1.0", "evil\ntellics quit; x");
        assert_eq!(one, "set 1 Plugboard 0.1.0, a chess engine whose search and evaluation are plugins");
        assert_eq!(two, "set 2 Search: alphabeta 0.1.0, evaluation: evil tellics quit x");
    }
}
