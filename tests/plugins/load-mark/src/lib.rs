//! A library that is no plugin (it exports no plugin entry point) but whose
//! load-time code leaves a mark: a file created where `PLUGBOARD_TEST_MARK`
//! says. Dropped in a plugin folder, it must never be mapped, not by the engine
//! and not by the child that examines unknown files, so the mark never appears.

extern "C" fn leave_a_mark() {
    if let Some(path) = std::env::var_os("PLUGBOARD_TEST_MARK") {
        let _ = std::fs::write(path, b"mapped");
    }
}

// Run by the dynamic loader as soon as the library is mapped.
#[used]
#[unsafe(link_section = ".init_array")]
static AT_LOAD: extern "C" fn() = leave_a_mark;

/// Something to export, as any library does.
#[unsafe(no_mangle)]
pub extern "C" fn faulty_load_mark_version() -> u32 {
    1
}
