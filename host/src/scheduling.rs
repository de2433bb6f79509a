//! How the engine's threads ask the scheduler for the CPU. The threads that
//! sleep until something happens (the stdin reader, the signal thread, the
//! loop that answers the GUI, the watchers of the clock, the exit watchdog) ask
//! for a short time slice; the search threads keep the default. On Linux 6.12
//! and later (EEVDF with custom slices) a woken thread with a short slice runs
//! at once instead of queueing behind every busy one, which matters when a
//! search runs hundreds of threads on a few cores: `quit`, SIGTERM and the hard
//! deadline are seen within a slice. Its share of the CPU stays the same, so
//! a search gives up nothing to another program. Elsewhere, and on older
//! kernels, both calls change nothing.

/// The slice the waiting threads ask for, in nanoseconds: shorter than a
/// search thread's, so a woken one goes first.
#[cfg(target_os = "linux")]
const SHORT_SLICE_NS: u64 = 300_000;

/// For a thread that mostly waits and must run as soon as it is woken.
pub fn prefer_latency() {
    #[cfg(target_os = "linux")]
    set_slice(SHORT_SLICE_NS);
}

/// For a thread that computes (a search, and every thread it starts): the
/// default slice, whatever the thread that started it asked for.
pub fn prefer_throughput() {
    #[cfg(target_os = "linux")]
    set_slice(0);
}

/// `sched_setattr`'s argument, as the kernel defines it (`SCHED_ATTR_SIZE_VER1`).
#[cfg(target_os = "linux")]
#[repr(C)]
struct SchedAttr {
    size: u32,
    sched_policy: u32,
    sched_flags: u64,
    sched_nice: i32,
    sched_priority: u32,
    /// For the normal policy, the slice asked for; 0 for the default.
    sched_runtime: u64,
    sched_deadline: u64,
    sched_period: u64,
    sched_util_min: u32,
    sched_util_max: u32,
}

/// Asks for `slice_ns` (0: the default) for the calling thread, keeping its
/// policy and nice value: the kernel would refuse a nice value below the
/// current one, and a user's `nice` must stand. Failures change nothing and are
/// only logged.
#[cfg(target_os = "linux")]
fn set_slice(slice_ns: u64) {
    // SAFETY: gettid and getpriority have no preconditions; errno is this thread's.
    let (tid, nice) = unsafe {
        let tid = libc::gettid();
        *libc::__errno_location() = 0;
        let nice = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
        (tid, nice)
    };
    // SAFETY: as above.
    if nice == -1 && unsafe { *libc::__errno_location() } != 0 {
        return;
    }
    // SAFETY: sched_getscheduler reads this thread's policy.
    let policy = unsafe { libc::sched_getscheduler(0) };
    if policy != libc::SCHED_OTHER && policy != libc::SCHED_BATCH {
        // Real-time or idle threads: someone chose that on purpose.
        return;
    }
    let attr = SchedAttr {
        size: size_of::<SchedAttr>() as u32,
        sched_policy: policy as u32,
        sched_flags: 0,
        sched_nice: nice,
        sched_priority: 0,
        sched_runtime: slice_ns,
        sched_deadline: 0,
        sched_period: 0,
        sched_util_min: 0,
        sched_util_max: 0,
    };
    // SAFETY: the attribute is a valid sched_attr of the size it states, for
    // this thread (0), with no flags.
    let result = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &raw const attr, 0) };
    if result != 0 {
        tracing::debug!(tid, slice_ns, error = %std::io::Error::last_os_error(), "time slice not set");
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The slice the scheduler reports for this thread, where it reports one.
    fn slice_ns() -> Option<u64> {
        // SAFETY: gettid has no preconditions.
        let tid = unsafe { libc::gettid() };
        let text = std::fs::read_to_string(format!("/proc/self/task/{tid}/sched")).ok()?;
        text.lines().find_map(|line| line.strip_prefix("se.slice")?.trim().strip_prefix(':')?.trim().parse().ok())
    }

    /// Linux 6.12 brought custom slices to the normal policy.
    fn kernel_has_custom_slices() -> bool {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let mut numbers = release.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse::<u32>().ok());
        (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) >= (6, 12)
    }

    #[test]
    fn a_waiting_thread_gets_a_shorter_slice_than_a_searching_one() {
        std::thread::spawn(|| {
            let default = slice_ns();
            prefer_latency();
            let short = slice_ns();
            prefer_throughput();
            assert_eq!(slice_ns(), default);
            if kernel_has_custom_slices() {
                assert_eq!(short, Some(SHORT_SLICE_NS), "the default is {default:?}");
            }
        })
        .join()
        .unwrap();
    }
}
