//! What the engine may use of the machine: memory for the hash, and threads.

use super::{Core, Note};
use crate::host_options;

/// What the engine uses besides its hash (code, plugins, table indexes, stacks):
/// 25 MiB resident with a 1 MiB hash, measured on Linux x86-64 with
/// `/usr/bin/time -v`, and the bundled search's continuation history (1.2 MiB)
/// twice, for a ponder miss's new search starting while the old one stops.
/// `memory N` leaves this much of N out of the hash.
const OWN_FOOTPRINT_MB: u32 = 27;
/// What each search thread beyond the first adds (its stack, its search's
/// tables, its evaluation's state): 0.17 MiB measured with `cores 64`, rounded
/// up, and the bundled search's continuation history (1.2 MiB) twice, as above.
const PER_EXTRA_THREAD_KB: u32 = 256 + 2 * 1200;

impl Core {
    /// `memory`: the engine's whole footprint, hash included.
    pub fn set_memory(&mut self, mb: u32) {
        self.apply_hash_mb(mb.saturating_sub(OWN_FOOTPRINT_MB).max(1));
        self.memory_mb = Some(mb);
    }

    /// The hash alone (cxboard's `Hash` option), at most half the machine's memory.
    pub fn set_hash_mb(&mut self, hash_mb: u32) {
        self.memory_mb = None;
        self.apply_hash_mb(hash_mb);
    }

    fn apply_hash_mb(&mut self, hash_mb: u32) {
        self.hash_mb = hash_mb.max(1).min(hash_ceiling_mb());
        if self.hash_mb < hash_mb {
            self.note(Note::Tell(format!("Hash limited to {} MB, half of this machine's memory", self.hash_mb)));
        }
    }

    /// The hash size searches get, in MiB.
    pub fn hash_mb(&self) -> u32 {
        self.hash_mb
    }

    /// The hash the next search gets: under `memory`, what the engine and the
    /// search's threads leave of it, however many threads were set, and when.
    pub(super) fn search_hash_mb(&self) -> u32 {
        let Some(memory_mb) = self.memory_mb else { return self.hash_mb };
        let extra_threads = self.options.host.threads.saturating_sub(1);
        let threads_mb = extra_threads.saturating_mul(PER_EXTRA_THREAD_KB).div_ceil(1024);
        self.hash_mb.min(memory_mb.saturating_sub(OWN_FOOTPRINT_MB.saturating_add(threads_mb)).max(1))
    }

    pub fn set_cores(&mut self, cores: u32) {
        self.options.host.threads = cores.clamp(1, host_options::MAX_THREADS);
    }
}

/// Half the machine's memory, so a mistyped `memory` cannot get the engine killed
/// for want of it; unbounded where the size cannot be read.
fn hash_ceiling_mb() -> u32 {
    let total_kb = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        text.lines()
            .find_map(|line| line.strip_prefix("MemTotal:")?.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
    });
    total_kb.map_or(u32::MAX, |kb| u32::try_from(kb / 1024 / 2).unwrap_or(u32::MAX).max(1))
}
