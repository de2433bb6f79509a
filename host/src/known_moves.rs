//! Moves the engine knows without searching: the opening book's and, in endgames
//! the tables cover, the tablebases'. The core asks before each search.

use shakmaty::{CastlingMode, Chess, Move, Position, san::SanPlus};

use crate::{
    book::{self, Book},
    game::{Game, GameMove},
    tablebases::{Outcome, Tablebases},
};

/// How the opening book is to be used.
#[derive(Debug, Clone, Copy)]
pub struct BookUse {
    pub enabled: bool,
    /// The last move number at which the book is asked.
    pub depth: u32,
    pub choice: book::Choice,
}

/// A move to play at once, and what to say about it.
#[derive(Debug, Clone)]
pub struct KnownMove {
    pub m: GameMove,
    /// For the thinking output: starts with `(`, as the protocol asks of lines
    /// that are no search result.
    pub thinking: String,
    /// In centipawns for the side to move, for the thinking output.
    pub score: i32,
    /// How the move was found, for the commentary on a chess server.
    pub note: String,
    /// The reply we expect, for `hint` and pondering.
    pub expected_reply: Option<GameMove>,
    /// The tablebases' move: as good as a search's, so shown as one (depth 1,
    /// a principal variation a client can read) with the tables' verdict after it.
    pub from_tables: bool,
}

#[derive(Debug, Clone)]
pub enum Advice {
    Play(KnownMove),
    /// A drawn tablebase position: search, but only among the moves that keep the draw.
    SearchAmong(Vec<GameMove>),
    Search,
}

/// The rows of `bk` for `position`: the book's moves, else the tablebases'
/// verdict on every move; none when neither knows the position.
pub fn listing(position: Option<&Chess>, book: Option<&Book>, tablebases: Option<&Tablebases>) -> Vec<String> {
    let Some(position) = position else { return Vec::new() };
    let rows = book.map(|book| book::listing(position, &book.moves(position))).unwrap_or_default();
    if !rows.is_empty() {
        return rows;
    }
    tablebases
        .and_then(|tb| tb.listing(position))
        .map(|lines| lines.iter().map(|line| line.trim_start().to_owned()).collect())
        .unwrap_or_default()
}

/// What to do in the current position of `game`; `draw` in 0..1 picks a weighted book move.
pub fn advise(
    game: &Game,
    book: Option<&Book>,
    book_use: BookUse,
    tablebases: Option<&Tablebases>,
    draw: f64,
) -> Advice {
    let Some(position) = game.orthodox_position() else { return Advice::Search };
    // Polyglot books are keyed by standard chess positions and castling.
    if let Some(book) = book.filter(|_| book_use.enabled && game.castling_mode() == Some(CastlingMode::Standard))
        && position.fullmoves().get() <= book_use.depth
        && let Some(chosen) = book.choose(position, book_use.choice, draw)
    {
        let moves = book.moves(position);
        let total: u64 = moves.iter().map(|b| b.weight).sum::<u64>().max(1);
        let share = |weight: u64| (u128::from(weight) * 100 / u128::from(total)) as u64;
        let san = |m: Move| SanPlus::from_move(position.clone(), m).to_string();
        let listed: Vec<String> = moves.iter().take(6).map(|b| format!("{} {}%", san(b.m), share(b.weight))).collect();
        let mut after = position.clone();
        after.play_unchecked(chosen.m);
        let expected_reply = book.moves(&after).first().map(|b| b.m.into());
        return Advice::Play(KnownMove {
            m: chosen.m.into(),
            thinking: format!("(book {}: {})", san(chosen.m), listed.join(", ")),
            score: 0,
            note: format!("book {}%", share(chosen.weight)),
            expected_reply,
            from_tables: false,
        });
    }
    let Some(verdict) = tablebases.and_then(|tb| tb.root(position)) else { return Advice::Search };
    if verdict.outcome == Outcome::Draw && verdict.keeping.len() > 1 {
        return Advice::SearchAmong(verdict.keeping.into_iter().map(GameMove::from).collect());
    }
    let result = match verdict.outcome {
        Outcome::Win => format!("win, DTZ {}", verdict.dtz.abs()),
        Outcome::Draw => "draw".to_owned(),
        Outcome::Loss => format!("loss, DTZ {}", verdict.dtz.abs()),
    };
    let san = SanPlus::from_move(position.clone(), verdict.best).to_string();
    Advice::Play(KnownMove {
        m: verdict.best.into(),
        thinking: format!("(tablebase {san}: {result})"),
        score: verdict.score,
        note: format!("tablebase {result}"),
        expected_reply: None,
        from_tables: true,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn data(folder: &str) -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data").join(folder)
    }

    fn gm2001() -> Book {
        Book::open(&data("books").join("gm2001.bin")).unwrap()
    }

    const BEST: BookUse = BookUse { enabled: true, depth: 256, choice: book::Choice::Best };

    #[test]
    fn a_book_move_comes_with_its_shares_and_the_expected_reply() {
        let game = Game::default();
        let Advice::Play(known) = advise(&game, Some(&gm2001()), BEST, None, 0.5) else { panic!("no book move") };
        assert_eq!(game.move_text(known.m), "e2e4");
        assert!(known.thinking.starts_with("(book e4: e4 42%, d4 41%, Nf3 8%"), "{}", known.thinking);
        assert_eq!(known.note, "book 42%");
        // The book's favourite answer to 1.e4 in gm2001 is 1...c5.
        let mut after = game.clone();
        after.play(known.m);
        assert_eq!(after.move_text(known.expected_reply.unwrap()), "c7c5");
    }

    #[test]
    fn the_book_is_left_when_off_too_deep_or_in_chess960() {
        let book = gm2001();
        let game = Game::default();
        let off = BookUse { enabled: false, ..BEST };
        assert!(matches!(advise(&game, Some(&book), off, None, 0.5), Advice::Search));
        let mut deep = Game::default();
        for text in ["e2e4", "c7c5", "g1f3", "d7d6"] {
            let m = deep.parse_move(text).unwrap();
            deep.play(m);
        }
        let shallow = BookUse { depth: 2, ..BEST };
        assert!(matches!(advise(&deep, Some(&book), shallow, None, 0.5), Advice::Search));
        assert!(matches!(advise(&deep, Some(&book), BookUse { depth: 3, ..BEST }, None, 0.5), Advice::Play(_)));
        let chess960 = Game::new(plugboard_plugin_api::Variant::CHESS, CastlingMode::Chess960);
        assert!(matches!(advise(&chess960, Some(&book), BEST, None, 0.5), Advice::Search));
    }

    #[test]
    fn tablebases_decide_won_and_drawn_endgames() {
        let (tables, problems) = Tablebases::load(&data("syzygy").display().to_string());
        assert!(problems.broken.is_empty(), "{problems:?}");
        let won = Game::from_fen("k7/8/8/8/8/8/8/KQ6 w - - 0 1").unwrap();
        let Advice::Play(known) = advise(&won, None, BEST, Some(&tables), 0.5) else { panic!("no tablebase move") };
        assert!(known.thinking.starts_with("(tablebase Q"), "{}", known.thinking);
        assert!(known.note.starts_with("tablebase win, DTZ "), "{}", known.note);
        assert!(known.score > 10_000);
        let drawn = Game::from_fen("8/8/3k4/8/8/2r5/8/R3K3 w - - 0 1").unwrap();
        let Advice::SearchAmong(moves) = advise(&drawn, None, BEST, Some(&tables), 0.5) else { panic!("no draw") };
        assert!(!moves.is_empty());
        assert!(matches!(advise(&Game::default(), None, BEST, Some(&tables), 0.5), Advice::Search));
    }
}
