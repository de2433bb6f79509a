//! What the engine knows without searching: the opening book of the `Book file`
//! option and the tablebases of `egtpath`. Both read files, so they are opened
//! and asked on threads of their own; what takes longer than its patience
//! arrives later, and only if nothing newer was asked for meanwhile.

use std::{
    path::Path,
    sync::{Arc, mpsc::Receiver},
    time::Duration,
};

use shakmaty::CastlingMode;

use crate::{
    book::Book,
    files,
    game::Game,
    known_moves::{self, Advice, BookUse},
    tablebases::{Problems, SearchTables, Tablebases},
};

/// How long opening a book may hold the engine before it goes on without it.
const BOOK_PATIENCE: Duration = Duration::from_millis(300);
/// How long opening the tablebases may hold the engine before it goes on without them.
const TABLES_PATIENCE: Duration = Duration::from_secs(1);
/// How long the book and the tablebases may take to answer (they read their
/// files to) before the engine searches, or lists, without them.
const ANSWER_PATIENCE: Duration = Duration::from_millis(500);

pub type BookResult = Result<Arc<Book>, String>;
pub type TablesResult = (Tablebases, Problems);

/// Work on files: done in time, or to be taken when it arrives.
pub enum Arrival<T> {
    Now(T),
    Later(Receiver<T>),
}

impl<T> From<Result<T, Receiver<T>>> for Arrival<T> {
    fn from(result: Result<T, Receiver<T>>) -> Arrival<T> {
        result.map_or_else(Arrival::Later, Arrival::Now)
    }
}

pub struct Knowledge {
    book: Option<Arc<Book>>,
    /// Counts the books asked for, so a book that opens late is taken only if
    /// it is still the one the option names.
    book_generation: u64,
    /// Counts the `egtpath`s, so tables that open late are taken only if no
    /// other path came after them.
    tables_generation: u64,
    tables: Option<SearchTables>,
    /// The state of the generator that picks weighted book moves.
    book_draws: u64,
}

impl Knowledge {
    /// `seed` varies the weighted book choice from one run to the next.
    pub fn new(seed: u64) -> Knowledge {
        Knowledge { book: None, book_generation: 0, tables_generation: 0, tables: None, book_draws: seed }
    }

    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// The tables, lent as searches take them.
    pub fn tables(&self) -> Option<&SearchTables> {
        self.tables.as_ref()
    }

    /// Opens the book in `file` (none when empty) in place of the one before.
    /// Returns the generation to hand back with the result to
    /// [`Knowledge::book_opened`], and the result or where it will arrive.
    pub fn open_book(&mut self, file: &str) -> Option<(u64, Arrival<BookResult>)> {
        let file = file.trim().to_owned();
        self.book = None;
        self.book_generation += 1;
        if file.is_empty() {
            return None;
        }
        let opening = files::off_thread("book", BOOK_PATIENCE, move || Book::open(Path::new(&file)).map(Arc::new));
        Some((self.book_generation, opening.into()))
    }

    /// Takes the book opened for `generation` if it is still the one wanted; the
    /// book, or why it did not open; `None` for a book no longer wanted.
    pub fn book_opened(&mut self, generation: u64, result: BookResult) -> Option<Result<&Book, String>> {
        if generation != self.book_generation {
            return None;
        }
        Some(match result {
            Ok(book) => Ok(self.book.insert(book)),
            Err(why) => Err(why),
        })
    }

    /// `egtpath syzygy PATHS`: opens the tables there in place of the ones before.
    pub fn open_tables(&mut self, paths: &str) -> (u64, Arrival<TablesResult>) {
        self.tables_generation += 1;
        let owned = paths.to_owned();
        let opening = files::off_thread("tablebases", TABLES_PATIENCE, move || Tablebases::load(&owned));
        (self.tables_generation, opening.into())
    }

    /// Takes tables opened for `generation` if no other path came after them;
    /// false for tables no longer wanted.
    pub fn tables_opened(&mut self, generation: u64, tables: Tablebases) -> bool {
        if generation != self.tables_generation {
            return false;
        }
        self.tables = (!tables.is_empty()).then(|| SearchTables::lend(Arc::new(tables)));
        true
    }

    /// What the book and the tables say of `game`, where we are to move, and why
    /// a table failed if one did. Books on disk and tablebases read their files to
    /// answer: off the thread that answers the GUI, so a stalled disk costs the
    /// known move, not the game; without them nothing is read and no thread is needed.
    pub fn advise(&mut self, game: &Game, book_use: BookUse) -> (Advice, Option<String>) {
        let draw = self.next_book_draw();
        let advice = if self.reads_files() {
            let (game, book, tables) = (game.clone(), self.book.clone(), self.shared_tables());
            let asked = files::off_thread("known-moves", ANSWER_PATIENCE, move || {
                known_moves::advise(&game, book.as_deref(), book_use, tables.as_deref(), draw)
            });
            asked.unwrap_or_else(|_| {
                tracing::warn!("the book and the tablebases did not answer in time; searching without them");
                Advice::Search
            })
        } else {
            known_moves::advise(game, self.book.as_deref(), book_use, None, draw)
        };
        let failure = self.tables.as_ref().and_then(|lent| lent.tables().take_failure());
        (advice, failure)
    }

    /// `bk`: the book's moves in `game`'s position, else the tablebases' verdict on every move.
    pub fn listing(&self, game: &Game) -> Vec<String> {
        // Polyglot books and Syzygy tables are chess; a game on another board has neither.
        if !game.variant().is_8x8() {
            return vec![format!("There is no opening book or tablebase for {}.", game.cecp_name())];
        }
        let position = game.orthodox_position().cloned();
        let standard = game.castling_mode() == Some(CastlingMode::Standard);
        let (book, tables) = (self.book.clone(), self.shared_tables());
        let listed = files::off_thread("bk", ANSWER_PATIENCE, move || {
            known_moves::listing(position.as_ref(), book.as_deref().filter(|_| standard), tables.as_deref())
        });
        let mut rows =
            listed.unwrap_or_else(|_| vec!["The book and the tablebases did not answer in time.".to_owned()]);
        if rows.is_empty() {
            rows.push(match (&self.book, &self.tables) {
                (None, None) => "No opening book is loaded.".to_owned(),
                _ => "No book or tablebase moves in this position.".to_owned(),
            });
        }
        rows
    }

    fn shared_tables(&self) -> Option<Arc<Tablebases>> {
        self.tables.as_ref().map(|lent| lent.tables().clone())
    }

    /// Whether the book or the tablebases read files to answer.
    fn reads_files(&self) -> bool {
        self.tables.is_some() || self.book.as_ref().is_some_and(|book| book.is_on_disk())
    }

    /// A number in 0..1 for the weighted book choice (splitmix64: varied, not secret).
    fn next_book_draw(&mut self) -> f64 {
        self.book_draws = self.book_draws.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.book_draws;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}
