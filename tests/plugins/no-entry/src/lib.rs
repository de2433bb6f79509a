//! A shared library that is not a plugin: it exports no root module.

#[unsafe(no_mangle)]
pub extern "C" fn faulty_no_entry_answer() -> i32 {
    42
}
