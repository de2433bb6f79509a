//! The transposition table, and the one that lives on between searches.
//!
//! Slots come in buckets of two sharing a cache line: a new position replaces
//! the less valuable of the two, an empty slot first, then the one from the
//! oldest search, then the shallower, so deep results of the current search
//! survive the flood of shallow ones.
//!
//! Every thread of a search shares one table without a lock. Each slot is two
//! atomic words, the packed entry and the position's key XOR that entry, so a
//! slot half overwritten by another thread fails the key check (bar a 2^-64
//! chance) and reads as a miss instead of handing out one position's score for
//! another.

use std::sync::{
    Mutex, TryLockError,
    atomic::{AtomicU32, AtomicU64, Ordering},
};

use cozy_chess::{Move, Piece, Square};
use plugboard_plugin_api::Bound;

use crate::score::{MATE, MAX_PLY, TABLEBASE_BOUND};

/// One stored search result; 16 bytes, so four to a cache line.
#[derive(Default)]
struct Slot {
    /// The position's key XOR `data`.
    check: AtomicU64,
    /// A [`Packed`] entry.
    data: AtomicU64,
}

/// A slot's contents, unpacked from its 64-bit `data` word.
#[derive(Clone, Copy)]
struct Packed {
    mv: u16,
    score: i16,
    depth: u8,
    /// Bound in the low two bits, search generation above; 0 is an empty slot.
    flags: u8,
    /// The position's static evaluation, or [`NO_EVAL`].
    eval: i16,
}

/// No static evaluation stored (the side to move was in check).
const NO_EVAL: i16 = i16::MIN;
/// The largest table [`TranspositionTable::clear`] zeroes in place.
const ZERO_IN_PLACE_MB: u32 = 256;
const GENERATIONS: u8 = 0x3F;

impl Packed {
    fn from_bits(bits: u64) -> Packed {
        Packed {
            mv: bits as u16,
            score: (bits >> 16) as u16 as i16,
            depth: (bits >> 32) as u8,
            flags: (bits >> 40) as u8,
            eval: (bits >> 48) as u16 as i16,
        }
    }

    fn generation(self) -> u8 {
        self.flags >> 2
    }

    fn to_bits(self) -> u64 {
        u64::from(self.mv)
            | (u64::from(self.score as u16) << 16)
            | (u64::from(self.depth) << 32)
            | (u64::from(self.flags) << 40)
            | (u64::from(self.eval as u16) << 48)
    }
}

/// `len` empty slots in memory the system hands out already zeroed (and, for
/// large tables, only touches when used), or `None` if it cannot be had.
fn zeroed_slots(len: usize) -> Option<Vec<Slot>> {
    let layout = std::alloc::Layout::array::<Slot>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout is non-zero-sized. A Slot is two AtomicU64, which have
    // the layout of u64 and for which all zero bits is a valid value, exactly
    // `Slot::default()`; so the zeroed memory holds `len` valid slots. Vec takes
    // ownership of an allocation made with the same layout.
    unsafe {
        let memory = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        (!memory.is_null()).then(|| Vec::from_raw_parts(memory, len, len))
    }
}

/// A move as the table keeps it: in 16 bits, 0 for none. Each game's search
/// brings its own moves (cozy-chess's for chess, the xiangqi crate's).
pub trait TtMove: Copy {
    fn pack(self) -> u16;
    fn unpack(packed: u16) -> Option<Self>;
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry<M = Move> {
    pub mv: Option<M>,
    /// Already converted back from "mate from here" to "mate from the root".
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The static evaluation of the position, when it was not in check.
    pub eval: Option<i32>,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    size_mb: u32,
    generation: u8,
}

impl TranspositionTable {
    /// A table of `size_mb` MiB, or of the largest half, quarter, … that can be
    /// allocated: a failed allocation would abort the whole engine.
    pub fn new(size_mb: u32) -> TranspositionTable {
        let mut attempt_mb = size_mb;
        loop {
            let bytes = (attempt_mb as usize).saturating_mul(1 << 20);
            let len = (bytes / size_of::<Slot>()).max(1024) & !1;
            if let Some(slots) = zeroed_slots(len) {
                return TranspositionTable { slots, size_mb, generation: 0 };
            }
            if attempt_mb == 0 {
                // Not even the smallest table: nothing left to do but what Vec does.
                let slots = std::iter::repeat_with(Slot::default).take(len).collect();
                return TranspositionTable { slots, size_mb, generation: 0 };
            }
            attempt_mb /= 2;
        }
    }

    pub fn size_mb(&self) -> u32 {
        self.size_mb
    }

    /// How full the table is in permille: the share of its first thousand
    /// slots that hold a result of the current search, as UCI's `hashfull`
    /// counts it (a sample: reading the whole table would cost a search).
    pub fn permille_full(&self) -> u32 {
        let sample = &self.slots[..self.slots.len().min(1000)];
        let current = sample
            .iter()
            .map(|slot| Packed::from_bits(slot.data.load(Ordering::Relaxed)))
            .filter(|packed| packed.flags & 3 != 0 && packed.generation() == self.generation)
            .count();
        (current * 1000 / sample.len().max(1)) as u32
    }

    /// Records how full the table is, for the host to ask with the line reported next.
    pub fn publish_fill(&self) {
        LAST_FILL.store(self.permille_full(), Ordering::Relaxed);
    }

    /// Empties the table. A table up to [`ZERO_IN_PLACE_MB`] is zeroed where it
    /// is, in a few milliseconds; a larger one is swapped for a fresh zeroed
    /// allocation, as writing gigabytes of zeros would eat the first move's time.
    /// (A fresh allocation is paid for later, a page fault at each first touch,
    /// and page faults of one process's threads queue on one another: two
    /// threads searching a fresh 64 MiB table spent more time in the kernel
    /// than in the search.)
    pub fn clear(&mut self) {
        let fresh = if self.size_mb > ZERO_IN_PLACE_MB { zeroed_slots(self.slots.len()) } else { None };
        match fresh {
            Some(slots) => self.slots = slots,
            None => self.slots.iter_mut().for_each(|slot| *slot = Slot::default()),
        }
        self.generation = 0;
    }

    /// Marks later stores as newer than everything already in the table.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATIONS;
    }

    /// The first slot of `key`'s bucket.
    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any number of buckets without a modulo.
        let buckets = self.slots.len() as u128 / 2;
        ((u128::from(key) * buckets) >> 64) as usize * 2
    }

    /// The slot of `key`'s bucket that holds it, with its contents.
    #[inline]
    fn find(&self, key: u64) -> Option<(usize, Packed)> {
        let index = self.index(key);
        (index..index + 2).find_map(|index| match self.read(index, key) {
            (packed, true) if packed.flags & 3 != 0 => Some((index, packed)),
            _ => None,
        })
    }

    /// How many searches ago `packed` was stored.
    fn age(&self, packed: Packed) -> i32 {
        i32::from(self.generation.wrapping_sub(packed.generation()) & GENERATIONS)
    }

    /// What slot `index` holds, and whether it is `key`'s.
    #[inline]
    fn read(&self, index: usize, key: u64) -> (Packed, bool) {
        let slot = &self.slots[index];
        // Relaxed is enough: the XOR check, not the memory order, tells a torn slot.
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        (Packed::from_bits(data), check ^ data == key)
    }

    pub fn probe<M: TtMove>(&self, key: u64, ply: usize) -> Option<TtEntry<M>> {
        let (_, slot) = self.find(key)?;
        let bound = match slot.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(TtEntry {
            mv: M::unpack(slot.mv),
            score: score_from_tt(i32::from(slot.score), ply),
            depth: i32::from(slot.depth),
            bound,
            eval: (slot.eval != NO_EVAL).then_some(i32::from(slot.eval)),
        })
    }

    /// Stores a search result for `key`, found at `ply` from the root, with the
    /// position's static evaluation if known.
    #[allow(clippy::too_many_arguments)]
    pub fn store<M: TtMove>(
        &self,
        key: u64,
        mv: Option<M>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
        eval: Option<i32>,
    ) {
        let (index, old, same) = match self.find(key) {
            Some((index, old)) => (index, old, true),
            None => {
                let first = self.index(key);
                let worth = |index: usize| {
                    let (packed, _) = self.read(index, key);
                    if packed.flags & 3 == 0 { i32::MIN } else { i32::from(packed.depth) - 8 * self.age(packed) }
                };
                let index = if worth(first) <= worth(first + 1) { first } else { first + 1 };
                (index, self.read(index, key).0, false)
            }
        };
        let depth = depth.clamp(0, 255) as u8;
        let stale = old.generation() != self.generation;
        // Keep a deeper result for the same position unless the new one is exact.
        if same && !stale && bound != Bound::Exact && u16::from(depth) + 3 < u16::from(old.depth) {
            return;
        }
        let packed = match mv {
            Some(mv) => mv.pack(),
            None if same => old.mv,
            None => 0,
        };
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let data = Packed {
            mv: packed,
            score: score_to_tt(score, ply) as i16,
            depth,
            flags: bound_bits | (self.generation << 2),
            eval: match eval {
                Some(eval) => eval.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
                None if same => old.eval,
                None => NO_EVAL,
            },
        }
        .to_bits();
        // Another thread may write the same slot between these two stores; the
        // mixed result fails the key check on every later read.
        let slot = &self.slots[index];
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }
}

/// Mate scores, and tablebase scores just below them, are stored relative to the
/// node, so a mate or a tablebase win found through a transposition at another
/// ply still counts its distance correctly.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= TABLEBASE_BOUND {
        score + ply
    } else if score <= -TABLEBASE_BOUND {
        score - ply
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= TABLEBASE_BOUND {
        score - ply
    } else if score <= -TABLEBASE_BOUND {
        score + ply
    } else {
        score
    }
}

const PROMOTIONS: [Option<Piece>; 5] =
    [None, Some(Piece::Knight), Some(Piece::Bishop), Some(Piece::Rook), Some(Piece::Queen)];

impl TtMove for Move {
    fn pack(self) -> u16 {
        let promotion = PROMOTIONS.iter().position(|&p| p == self.promotion).unwrap_or(0) as u16;
        (self.from as u16) | ((self.to as u16) << 6) | (promotion << 12)
    }

    fn unpack(packed: u16) -> Option<Move> {
        if packed == 0 {
            return None;
        }
        Some(Move {
            from: Square::index(usize::from(packed & 63)),
            to: Square::index(usize::from((packed >> 6) & 63)),
            promotion: PROMOTIONS.get(usize::from((packed >> 12) & 7)).copied().flatten(),
        })
    }
}

/// The table kept between searches, so later moves of a game reuse what earlier searches learnt.
static SHARED: Mutex<Option<TranspositionTable>> = Mutex::new(None);

/// How full the table of the latest search was at its latest line; `u32::MAX`
/// when that search keeps no such table.
static LAST_FILL: AtomicU32 = AtomicU32::new(u32::MAX);

/// What [`TranspositionTable::publish_fill`] last recorded.
pub fn last_fill() -> Option<u32> {
    let permille = LAST_FILL.load(Ordering::Relaxed);
    (permille <= 1000).then_some(permille)
}

/// A search whose table is of another kind says nothing of its fill.
pub fn forget_fill() {
    LAST_FILL.store(u32::MAX, Ordering::Relaxed);
}

/// The table a search gets while another holds the shared one: small, since
/// the other's table is alive too and the host counted only one against `memory`.
const PRIVATE_MB: u32 = 1;

/// Runs `f` with the shared table, resized to `size_mb` if that changed and
/// cleared if asked. If another search still holds it (one stopped that has
/// not yet returned, two engines in one process, parallel tests) `f` gets a
/// small private table instead of waiting. The threads of one search share
/// what `f` gets: it needs no lock.
pub fn with_shared_table<R>(size_mb: u32, clear: bool, f: impl FnOnce(&TranspositionTable) -> R) -> R {
    let mut guard = match SHARED.try_lock() {
        Ok(guard) => guard,
        Err(TryLockError::Poisoned(poisoned)) => {
            // A search panicked while it held the table; start afresh rather than trust it.
            let mut guard = poisoned.into_inner();
            *guard = None;
            guard
        }
        Err(TryLockError::WouldBlock) => return f(&TranspositionTable::new(size_mb.min(PRIVATE_MB))),
    };
    let table = match guard.take() {
        Some(mut table) if table.size_mb() == size_mb => {
            if clear {
                table.clear();
            }
            table
        }
        _ => TranspositionTable::new(size_mb),
    };
    let table = guard.insert(table);
    table.new_search();
    f(table)
}

/// Frees the shared table if no search holds it: a search with a table of
/// its own (the variants') must not keep the chess one alive beside it.
pub fn release_shared_table() {
    if let Ok(mut guard) = SHARED.try_lock() {
        *guard = None;
    }
}

// Mate scores must fit the i16 slot.
const _: () = assert!(MATE < i16::MAX as i32 && MAX_PLY < 256);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1);
        let mv = Move { from: Square::E7, to: Square::E8, promotion: Some(Piece::Knight) };
        tt.store::<Move>(42, Some(mv), 17, 5, Bound::Lower, 3, Some(-40));
        let entry = tt.probe::<Move>(42, 3).unwrap();
        assert_eq!(entry.mv, Some(mv));
        assert_eq!((entry.score, entry.depth, entry.bound, entry.eval), (17, 5, Bound::Lower, Some(-40)));
        assert!(tt.probe::<Move>(43, 3).is_none());
    }

    #[test]
    fn clearing_forgets_every_entry_in_small_and_large_tables() {
        // One table zeroed in place, one swapped for a fresh allocation (which
        // the system hands out untouched, so the large one costs no real memory).
        for size_mb in [1, ZERO_IN_PLACE_MB + 1] {
            let mut tt = TranspositionTable::new(size_mb);
            let keys: Vec<u64> = (1..=64u64).map(|n| n.wrapping_mul(0x9E37_79B9_7F4A_7C15)).collect();
            for &key in &keys {
                tt.store::<Move>(key, None, 5, 3, Bound::Exact, 0, Some(5));
            }
            assert!(keys.iter().any(|&key| tt.probe::<Move>(key, 0).is_some()), "{size_mb} MiB: nothing stored");
            tt.clear();
            assert!(keys.iter().all(|&key| tt.probe::<Move>(key, 0).is_none()), "{size_mb} MiB: an entry survived");
            assert_eq!(tt.size_mb(), size_mb);
        }
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 2: 3 plies from the node.
        tt.store::<Move>(7, None, MATE - 5, 9, Bound::Exact, 2, None);
        // Reached again at ply 4, it is 7 plies from the root.
        assert_eq!(tt.probe::<Move>(7, 4).unwrap().score, MATE - 7);
    }

    #[test]
    fn tablebase_scores_are_relative_to_the_node() {
        use crate::score::TABLEBASE_WIN;
        let tt = TranspositionTable::new(1);
        // A won ending 6 plies from the root, stored at ply 2 and met again at ply 5.
        tt.store::<Move>(9, None, TABLEBASE_WIN - 6, 200, Bound::Exact, 2, None);
        assert_eq!(tt.probe::<Move>(9, 5).unwrap().score, TABLEBASE_WIN - 9);
        tt.store::<Move>(10, None, -TABLEBASE_WIN + 6, 200, Bound::Exact, 2, None);
        assert_eq!(tt.probe::<Move>(10, 5).unwrap().score, -TABLEBASE_WIN + 9);
        // Evaluations are left alone, however large.
        tt.store::<Move>(11, None, plugboard_plugin_api::EVAL_LIMIT, 3, Bound::Lower, 2, None);
        assert_eq!(tt.probe::<Move>(11, 5).unwrap().score, plugboard_plugin_api::EVAL_LIMIT);
    }

    /// Keys that all fall into bucket `bucket` of a 1024-slot table.
    fn colliding_key(bucket: u64, variant: u64) -> u64 {
        (bucket << 55) | (variant * 0x1_0001)
    }

    fn words(tt: &TranspositionTable, key: u64) -> (u64, u64) {
        let (index, _) = tt.find(key).expect("stored");
        let slot = &tt.slots[index];
        (slot.check.load(Ordering::Relaxed), slot.data.load(Ordering::Relaxed))
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        // Two threads storing into one slot at once can leave one store's check
        // word beside the other's data word; neither position may see the result.
        let tt = TranspositionTable::new(0);
        let (a, b) = (colliding_key(3, 1), colliding_key(3, 2));
        assert_eq!(tt.index(a), tt.index(b));
        tt.store::<Move>(a, None, 100, 4, Bound::Exact, 0, None);
        tt.store::<Move>(b, None, -200, 7, Bound::Lower, 0, None);
        assert_eq!(tt.probe::<Move>(a, 0).map(|entry| entry.score), Some(100));
        assert_eq!(tt.probe::<Move>(b, 0).map(|entry| entry.score), Some(-200));
        let (a_words, b_words) = (words(&tt, a), words(&tt, b));
        let bucket = tt.index(a);
        for (check, data) in [(a_words.0, b_words.1), (b_words.0, a_words.1)] {
            for slot in &tt.slots[bucket..bucket + 2] {
                slot.check.store(check, Ordering::Relaxed);
                slot.data.store(data, Ordering::Relaxed);
            }
            assert!(tt.probe::<Move>(a, 0).is_none() && tt.probe::<Move>(b, 0).is_none());
        }
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_or_oldest_entry() {
        let mut tt = TranspositionTable::new(0);
        let [deep, shallow, newcomer, later] = [1, 2, 3, 4].map(|variant| colliding_key(5, variant));
        tt.store::<Move>(deep, None, 1, 12, Bound::Exact, 0, None);
        tt.store::<Move>(shallow, None, 2, 3, Bound::Exact, 0, None);
        tt.store::<Move>(newcomer, None, 3, 1, Bound::Exact, 0, None);
        assert!(tt.probe::<Move>(deep, 0).is_some(), "the deep result stays");
        assert!(tt.probe::<Move>(shallow, 0).is_none(), "the shallow one makes room");
        assert!(tt.probe::<Move>(newcomer, 0).is_some());
        // Two searches later the deep entry is stale and goes before a fresh shallow one.
        tt.new_search();
        tt.new_search();
        tt.store::<Move>(newcomer, None, 3, 1, Bound::Exact, 0, None);
        tt.store::<Move>(later, None, 4, 1, Bound::Exact, 0, None);
        assert!(
            tt.probe::<Move>(deep, 0).is_none()
                && tt.probe::<Move>(newcomer, 0).is_some()
                && tt.probe::<Move>(later, 0).is_some()
        );
    }

    #[test]
    fn threads_racing_on_slots_never_mix_entries() {
        // Each entry's score and depth are functions of its key. Two threads keep
        // overwriting the same few slots and check every entry they find.
        let tt = TranspositionTable::new(0);
        assert_eq!(tt.slots.len(), 1024);
        let score_of = |key: u64| (key % 2000) as i32 - 1000;
        let depth_of = |key: u64| (key % 200) as i32;
        let keys: Vec<u64> =
            (0..2).flat_map(|bucket| (1..=8).map(move |variant| colliding_key(bucket, variant))).collect();
        let hits: usize = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..2)
                .map(|thread| {
                    let (tt, keys) = (&tt, &keys);
                    scope.spawn(move || {
                        let mut hits = 0;
                        for round in 0..500_000 {
                            let key = keys[(round * 7 + thread * 3) % keys.len()];
                            tt.store::<Move>(key, None, score_of(key), depth_of(key), Bound::Exact, 0, None);
                            let key = keys[(round * 5 + thread) % keys.len()];
                            if let Some(entry) = tt.probe::<Move>(key, 0) {
                                assert_eq!((entry.score, entry.depth), (score_of(key), depth_of(key)), "{key:#x}");
                                hits += 1;
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|worker| worker.join().unwrap()).sum()
        });
        assert!(hits > 0, "no thread ever found an entry");
    }
}
