//! What the engine may use of the machine: memory for the hash, and threads.

use super::{Core, Note};
use crate::host_options;

/// What the engine uses besides its hash (code, plugins, table indexes, stacks):
/// 25 MiB resident with a 1 MiB hash, measured on Linux x86-64 with
/// `/usr/bin/time -v`. `memory N` leaves this much of N out of the hash.
const OWN_FOOTPRINT_MB: u32 = 24;

impl Core {
    /// `memory`: the engine's whole footprint, hash included.
    pub fn set_memory(&mut self, mb: u32) {
        self.set_hash_mb(mb.saturating_sub(OWN_FOOTPRINT_MB).max(1));
    }

    /// The hash alone (cxboard's `Hash` option), at most half the machine's memory.
    pub fn set_hash_mb(&mut self, hash_mb: u32) {
        self.hash_mb = hash_mb.max(1).min(hash_ceiling_mb());
        if self.hash_mb < hash_mb {
            self.note(Note::Tell(format!("Hash limited to {} MB, half of this machine's memory", self.hash_mb)));
        }
    }

    /// The hash size searches get, in MiB.
    pub fn hash_mb(&self) -> u32 {
        self.hash_mb
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
