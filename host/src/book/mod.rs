//! Opening books in the Polyglot format: reading a book, choosing a move from it,
//! and the text of `bk`.

pub mod maker;
pub mod polyglot;

use std::{
    fs::File,
    path::{Path, PathBuf},
};

use shakmaty::{Chess, Move, san::SanPlus};

use polyglot::{ENTRY_SIZE, Entry};

/// How a move is chosen among the book's moves for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Choice {
    /// The move with the highest weight.
    Best,
    /// A move drawn at random, in proportion to its weight.
    #[default]
    WeightedRandom,
}

impl Choice {
    pub const NAMES: [&'static str; 2] = ["weighted random", "best"];

    pub fn name(self) -> &'static str {
        match self {
            Choice::Best => "best",
            Choice::WeightedRandom => "weighted random",
        }
    }

    pub fn from_name(name: &str) -> Option<Choice> {
        match name {
            "best" => Some(Choice::Best),
            "weighted random" => Some(Choice::WeightedRandom),
            _ => None,
        }
    }
}

/// A book move for one position, with its weight: the sum of its entries'
/// weights, which may pass what 16 bits hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub m: Move,
    pub weight: u64,
}

/// Books up to this size are read into memory (and sorted if they are not);
/// bigger ones, up to the gigabytes some books have, are probed on disk.
pub const IN_MEMORY_BYTES: u64 = 32 << 20;

/// An opened book.
#[derive(Debug)]
pub struct Book {
    path: PathBuf,
    entries: Entries,
}

#[derive(Debug)]
enum Entries {
    Memory(Vec<Entry>),
    /// A Polyglot book is sorted by key: a binary search reads a few entries.
    Disk {
        file: File,
        count: u64,
    },
}

impl Book {
    /// Opens a book. A file that is no Polyglot book (not a regular file, a size
    /// that is not a whole number of entries, or nothing in it) is refused with
    /// the reason.
    pub fn open(path: &Path) -> Result<Book, String> {
        let cannot = |why: std::io::Error| format!("cannot read {}: {why}", path.display());
        let file = crate::files::open_regular(path).map_err(cannot)?;
        let size = file.metadata().map_err(cannot)?.len();
        check_size(path, size)?;
        if size > IN_MEMORY_BYTES {
            tracing::info!(path = %path.display(), size, "a big book: probed on disk");
            return Ok(Book {
                path: path.to_owned(),
                entries: Entries::Disk { file, count: size / ENTRY_SIZE as u64 },
            });
        }
        let bytes = crate::files::read_bounded(path, IN_MEMORY_BYTES).map_err(cannot)?;
        Book::from_bytes(path, &bytes)
    }

    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Book, String> {
        check_size(path, bytes.len() as u64)?;
        let mut entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_SIZE)
            .map(|chunk| Entry::from_bytes(chunk.try_into().expect("chunks are whole entries")))
            .collect();
        // Lookups are binary searches; a book written out of order would hide moves.
        if !entries.is_sorted_by_key(|e| e.key) {
            tracing::warn!(path = %path.display(), "book entries are not sorted by key; sorting them");
            entries.sort_by_key(|e| e.key);
        }
        Ok(Book { path: path.to_owned(), entries: Entries::Memory(entries) })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn len(&self) -> usize {
        match &self.entries {
            Entries::Memory(entries) => entries.len(),
            Entries::Disk { count, .. } => *count as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether answering reads the file (a book too big to hold in memory).
    pub fn is_on_disk(&self) -> bool {
        matches!(self.entries, Entries::Disk { .. })
    }

    /// The entries for `key`, in the book's order.
    fn entries_for(&self, key: u64) -> Vec<Entry> {
        match &self.entries {
            Entries::Memory(entries) => {
                let start = entries.partition_point(|e| e.key < key);
                entries[start..].iter().take_while(|e| e.key == key).copied().collect()
            }
            Entries::Disk { file, count } => match disk_entries(file, *count, key) {
                Ok(found) => found,
                Err(why) => {
                    tracing::warn!(path = %self.path.display(), %why, "book not read");
                    Vec::new()
                }
            },
        }
    }

    /// The book's legal moves for `position`, heaviest first; a move listed twice
    /// has its weights added, and entries that decode to no legal move are skipped.
    pub fn moves(&self, position: &Chess) -> Vec<BookMove> {
        let key = polyglot::key(position);
        let mut moves: Vec<BookMove> = Vec::new();
        for entry in self.entries_for(key) {
            let Some(m) = polyglot::decode_move(position, entry.raw_move) else {
                tracing::debug!(key = format!("{key:016x}"), raw = entry.raw_move, "book entry with no legal move");
                continue;
            };
            match moves.iter_mut().find(|b| b.m == m) {
                Some(known) => known.weight += u64::from(entry.weight),
                None => moves.push(BookMove { m, weight: u64::from(entry.weight) }),
            }
        }
        // Stable, so equal weights keep the book's order.
        moves.sort_by_key(|b| std::cmp::Reverse(b.weight));
        moves
    }

    /// The move to play, if the book has one with any weight. `draw` is a number
    /// in 0..1 used for the weighted choice.
    pub fn choose(&self, position: &Chess, choice: Choice, draw: f64) -> Option<BookMove> {
        let moves: Vec<BookMove> = self.moves(position).into_iter().filter(|b| b.weight > 0).collect();
        match choice {
            Choice::Best => moves.into_iter().next(),
            Choice::WeightedRandom => {
                let total: u64 = moves.iter().map(|b| b.weight).sum();
                let mut target = (draw.clamp(0.0, 1.0) * total as f64) as u64;
                for b in &moves {
                    if target < b.weight {
                        return Some(b.clone());
                    }
                    target -= b.weight;
                }
                moves.last().cloned()
            }
        }
    }
}

fn check_size(path: &Path, size: u64) -> Result<(), String> {
    if size == 0 {
        return Err(format!("{} is empty", path.display()));
    }
    if !size.is_multiple_of(ENTRY_SIZE as u64) {
        return Err(format!(
            "{} is no Polyglot book: {size} bytes is not a whole number of {ENTRY_SIZE}-byte entries",
            path.display(),
        ));
    }
    Ok(())
}

/// Entries of one position read from disk at once, once the run is found.
const DISK_CHUNK: u64 = 4096;
/// A position has a few dozen moves, each in one entry in a book made by a
/// Polyglot maker; books merged by hand may list a move many times. A run
/// longer than this (16 MiB of entries) is a damaged book, not a reason to read
/// gigabytes at move time.
const MAX_RUN: u64 = 1 << 20;

/// The entries for `key` of a sorted book on disk: a binary search, then the
/// run read in chunks.
fn disk_entries(file: &File, count: u64, key: u64) -> std::io::Result<Vec<Entry>> {
    let read = |index: u64| -> std::io::Result<Entry> {
        let mut bytes = [0; ENTRY_SIZE];
        read_exact_at(file, &mut bytes, index * ENTRY_SIZE as u64)?;
        Ok(Entry::from_bytes(&bytes))
    };
    // The first entry whose key is not below `key`.
    let (mut low, mut high) = (0, count);
    while low < high {
        let middle = low + (high - low) / 2;
        if read(middle)?.key < key {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    let mut found = Vec::new();
    let end = count.min(low.saturating_add(MAX_RUN));
    let mut chunk = vec![0; DISK_CHUNK as usize * ENTRY_SIZE];
    let mut index = low;
    while index < end {
        let entries = (end - index).min(DISK_CHUNK);
        let bytes = &mut chunk[..entries as usize * ENTRY_SIZE];
        read_exact_at(file, bytes, index * ENTRY_SIZE as u64)?;
        for raw in bytes.chunks_exact(ENTRY_SIZE) {
            let entry = Entry::from_bytes(raw.try_into().expect("a whole entry"));
            if entry.key != key {
                return Ok(found);
            }
            found.push(entry);
        }
        index += entries;
    }
    if index == low.saturating_add(MAX_RUN) && index < count && read(index)?.key == key {
        tracing::warn!(key = format!("{key:016x}"), "a book position with over {MAX_RUN} entries: the rest unread");
    }
    Ok(found)
}

#[cfg(unix)]
fn read_exact_at(file: &File, buffer: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buffer: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buffer.is_empty() {
        match file.seek_read(buffer, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            read => {
                buffer = &mut buffer[read..];
                offset += read as u64;
            }
        }
    }
    Ok(())
}

/// The rows of `bk` for the book's moves: SAN, the share of the total weight and
/// the raw weight (the reply adds the leading blank and the closing empty line).
pub fn listing(position: &Chess, moves: &[BookMove]) -> Vec<String> {
    let total: u64 = moves.iter().map(|b| b.weight).sum();
    moves
        .iter()
        .map(|b| {
            let share = if total == 0 { 0.0 } else { 100.0 * b.weight as f64 / total as f64 };
            let san = SanPlus::from_move(position.clone(), b.m).to_string();
            format!("{san:<7} {share:5.1}%  ({})", b.weight)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Position, san::San, uci::UciMove};

    fn data(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/books").join(name)
    }

    fn play(moves: &[&str]) -> Chess {
        let mut position = Chess::default();
        for text in moves {
            let m = text.parse::<San>().unwrap().to_move(&position).unwrap();
            position.play_unchecked(m);
        }
        position
    }

    fn sans(position: &Chess, moves: &[BookMove]) -> Vec<(String, u64)> {
        moves.iter().map(|b| (SanPlus::from_move(position.clone(), b.m).to_string(), b.weight)).collect()
    }

    // Figures from python-chess's reader on the same files (tests/data/books/MANIFEST.md).
    #[test]
    fn reads_the_moves_python_chess_reads() {
        let book = Book::open(&data("gm2001.bin")).unwrap();
        assert_eq!(book.len(), 30416);
        let start = Chess::default();
        let top: Vec<(String, u64)> = sans(&start, &book.moves(&start)).into_iter().take(6).collect();
        let expected = [("e4", 10439), ("d4", 10366), ("Nf3", 2146), ("c4", 1645), ("g3", 102), ("b3", 32)];
        assert_eq!(top, expected.map(|(s, w)| (s.to_owned(), w)));

        let sicilian = play(&["e4", "c5", "Nf3"]);
        let replies = sans(&sicilian, &book.moves(&sicilian));
        assert_eq!(&replies[..3], &[("d6".into(), 3938), ("Nc6".into(), 2301), ("e6".into(), 2045)]);
    }

    #[test]
    fn castling_and_underpromotion_entries_decode() {
        let trap = Book::open(&data("lasker-trap.bin")).unwrap();
        let position =
            play(&["d4", "d5", "c4", "e5", "dxe5", "d4", "e3", "Bb4+", "Bd2", "dxe3", "Bxb4", "exf2+", "Ke2"]);
        let moves = trap.moves(&position);
        assert_eq!(sans(&position, &moves)[0].0, "fxg1=N+");

        let performance = Book::open(&data("performance.bin")).unwrap();
        let sozin = play(&[
            "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "Nc6", "Bc4", "e6", "Be3", "a6", "Bb3", "Qc7",
            "f4", "Be7", "Qf3", "O-O",
        ]);
        let castles: Vec<String> = sans(&sozin, &performance.moves(&sozin)).into_iter().map(|(s, _)| s).collect();
        assert!(castles.contains(&"O-O".to_owned()) && castles.contains(&"O-O-O".to_owned()), "{castles:?}");
        let short = performance.moves(&sozin).into_iter().find(|b| b.m.is_castle()).unwrap();
        assert!(UciMove::from_standard(short.m).to_string().starts_with("e1"));
    }

    #[test]
    fn choice_follows_the_weights() {
        let book = Book::open(&data("gm2001.bin")).unwrap();
        let start = Chess::default();
        let best = book.choose(&start, Choice::Best, 0.99).unwrap();
        assert_eq!(San::from_move(&start, best.m).to_string(), "e4");
        // e4 holds the first 10439 of the weights, d4 the next 10366.
        let total = 10439 + 10366 + 2146 + 1645 + 102 + 32 + 5 + 3;
        let d4 = book.choose(&start, Choice::WeightedRandom, 10500.0 / total as f64).unwrap();
        assert_eq!(San::from_move(&start, d4.m).to_string(), "d4");
        let first = book.choose(&start, Choice::WeightedRandom, 0.0).unwrap();
        assert_eq!(San::from_move(&start, first.m).to_string(), "e4");
        assert!(book.choose(&play(&["a4", "h5", "Ra3", "Rh6"]), Choice::Best, 0.5).is_none());
    }

    #[test]
    fn files_that_are_no_books_are_refused() {
        let path = Path::new("x.bin");
        assert!(Book::from_bytes(path, &[]).unwrap_err().contains("empty"));
        assert!(Book::from_bytes(path, &[0; 17]).unwrap_err().contains("whole number"));
        assert!(Book::open(Path::new("/nonexistent/book.bin")).unwrap_err().contains("cannot read"));
        #[cfg(unix)]
        {
            assert!(Book::open(Path::new("/dev/zero")).unwrap_err().contains("a device"));
            assert!(Book::open(Path::new("/dev/urandom")).unwrap_err().contains("a device"));
        }
    }

    /// Entries for one position: `count` of e2e4 with `weight` each, then one d2d4.
    fn heavy_book(key: u64, count: usize, weight: u16, d4_weight: u16) -> Vec<u8> {
        let e4 = Entry { key, raw_move: (12 << 6) | 28, weight, learn: 0 };
        let d4 = Entry { key, raw_move: (11 << 6) | 27, weight: d4_weight, learn: 0 };
        let mut bytes: Vec<u8> = std::iter::repeat_n(e4, count).flat_map(|e| e.to_bytes()).collect();
        bytes.extend(d4.to_bytes());
        bytes
    }

    /// 65,538 entries of e4 at full weight: a sum that 16 bits wrap to 65,534,
    /// below d4's single 65,535.
    fn assert_heavy_moves_add_up(book: &Book) {
        let start = Chess::default();
        let moves = sans(&start, &book.moves(&start));
        assert_eq!(moves, [("e4".to_owned(), 65_538 * 65_535), ("d4".to_owned(), 65_535)]);
        assert_eq!(San::from_move(&start, book.choose(&start, Choice::Best, 0.5).unwrap().m).to_string(), "e4");
        let rows = listing(&start, &book.moves(&start));
        assert_eq!(rows, ["e4      100.0%  (4295032830)", "d4        0.0%  (65535)"]);
    }

    #[test]
    fn weights_of_many_entries_add_up_without_wrapping() {
        let bytes = heavy_book(polyglot::start_key(), 65_538, u16::MAX, u16::MAX);
        assert_heavy_moves_add_up(&Book::from_bytes(Path::new("heavy.bin"), &bytes).unwrap());
    }

    #[test]
    fn big_books_are_probed_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.bin");
        // Past the in-memory size, sorted: filler keys on both sides of the start position's.
        let key = polyglot::start_key();
        let filler = |k: u64| Entry { key: k, raw_move: 1, weight: 1, learn: 0 }.to_bytes();
        let per_side = (IN_MEMORY_BYTES as usize / ENTRY_SIZE) / 2 + 10;
        let mut bytes = Vec::with_capacity((2 * per_side + 2) * ENTRY_SIZE);
        for k in 0..per_side as u64 {
            bytes.extend(filler(k));
        }
        bytes.extend(heavy_book(key, 1, 7, 1000));
        for k in 0..per_side as u64 {
            bytes.extend(filler(u64::MAX - per_side as u64 + k));
        }
        std::fs::write(&path, &bytes).unwrap();
        let book = Book::open(&path).unwrap();
        assert!(matches!(book.entries, Entries::Disk { .. }));
        assert_eq!(book.len(), 2 * per_side + 2);
        let start = Chess::default();
        assert_eq!(sans(&start, &book.moves(&start)), [("d4".to_owned(), 1000), ("e4".to_owned(), 7)]);
        assert!(book.moves(&play(&["e4"])).is_empty());
    }

    #[test]
    fn many_entries_of_a_big_book_on_disk_add_up() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big-heavy.bin");
        let key = polyglot::start_key();
        let filler = |k: u64| Entry { key: k, raw_move: 1, weight: 1, learn: 0 }.to_bytes();
        let mut bytes: Vec<u8> = (0..(IN_MEMORY_BYTES as usize / ENTRY_SIZE) as u64).flat_map(filler).collect();
        bytes.extend(heavy_book(key, 65_538, u16::MAX, u16::MAX));
        bytes.extend(filler(u64::MAX));
        std::fs::write(&path, &bytes).unwrap();
        let book = Book::open(&path).unwrap();
        assert!(matches!(book.entries, Entries::Disk { .. }));
        assert_heavy_moves_add_up(&book);
    }

    #[test]
    fn bk_rows_give_shares_and_weights() {
        let start = Chess::default();
        let e4 = "e4".parse::<San>().unwrap().to_move(&start).unwrap();
        let d4 = "d4".parse::<San>().unwrap().to_move(&start).unwrap();
        let lines = listing(&start, &[BookMove { m: e4, weight: 3 }, BookMove { m: d4, weight: 1 }]);
        assert_eq!(lines, ["e4       75.0%  (3)", "d4       25.0%  (1)"]);
    }
}
