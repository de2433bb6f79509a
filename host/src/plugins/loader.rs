//! Loads one library file as a plugin, or says why it cannot.
//!
//! Every file is copied into the engine's private folder before it is loaded:
//! the loader caches libraries by path, so a changed file under the same name
//! would otherwise never be seen, a file overwritten in place while mapped would
//! crash us, and only a folder no one else can write keeps the copy we checked
//! the copy we map. Libraries are never unloaded.

use std::{
    fs,
    io::{Read, Seek, SeekFrom},
    path::Path,
};

use crate::{files, quote::quote};
use abi_stable::library::{LibraryError, lib_header_from_path};
use plugboard_plugin_api::{
    API_COMPATIBLE, API_VERSION, EVAL_MODULE_NAME, EvalModuleRef, PluginInfo, SEARCH_MODULE_NAME, SearchModuleRef,
};

pub enum Loaded {
    Search(SearchModuleRef, PluginInfo),
    Eval(EvalModuleRef, PluginInfo),
}

/// Larger than any plugin library we know of (a debug build with full symbols
/// is tens of megabytes); a bigger file is not read, let alone mapped.
pub const MAX_LIBRARY_BYTES: u64 = 512 << 20;

pub fn load(path: &Path) -> Result<Loaded, String> {
    let file = files::open_regular(path).map_err(|e| format!("cannot read: {e}"))?;
    let size = file.metadata().map_err(|e| format!("cannot read: {e}"))?.len();
    if size > MAX_LIBRARY_BYTES {
        return Err(format!("cannot read: it is {size} bytes, more than the {MAX_LIBRARY_BYTES} a library may have"));
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Streamed, never held whole: a library of megabytes read into memory once
    // stays in the process's resident memory, beyond what `memory` allows.
    let copy = files::private_copy(&mut file.take(MAX_LIBRARY_BYTES), &name)
        .map_err(|e| format!("cannot copy it to the engine's private folder: {e}"))?;
    // The copy is what is mapped: it is what is checked.
    if let Err(why) = check_library_file(&copy) {
        let _ = fs::remove_file(&copy);
        return Err(why);
    }
    let loaded = load_copy(&copy);
    // The mapping keeps the file alive on Unix; elsewhere removal fails harmlessly.
    let _ = fs::remove_file(&copy);
    loaded
}

fn load_copy(copy: &Path) -> Result<Loaded, String> {
    let header = lib_header_from_path(copy).map_err(|e| describe(&e, None))?;
    let kind = header.root_mod_consts().name().as_str().to_owned();
    let theirs = header.root_mod_consts().version_strings().version.as_str().to_owned();
    if kind == SEARCH_MODULE_NAME {
        let module = header.init_root_module::<SearchModuleRef>().map_err(|e| describe(&e, Some(&theirs)))?;
        let info = (module.info())().into_result().map_err(|e| format!("describing itself failed: {e}"))?;
        Ok(Loaded::Search(module, info))
    } else if kind == EVAL_MODULE_NAME {
        let module = header.init_root_module::<EvalModuleRef>().map_err(|e| describe(&e, Some(&theirs)))?;
        let info = (module.info())().into_result().map_err(|e| format!("describing itself failed: {e}"))?;
        Ok(Loaded::Eval(module, info))
    } else {
        Err(format!("not a Plugboard plugin: its root module is {kind:?}"))
    }
}

/// abi_stable's messages are long and multi-line (hundreds of lines for a
/// layout mismatch): the user is told the versions and the first type that
/// differs; the whole text goes to the log.
fn describe(error: &LibraryError, their_version: Option<&str>) -> String {
    let full = error.to_string();
    tracing::debug!(error = %full, "library error");
    let ours = format!("this engine speaks plugin API {API_COMPATIBLE}.x ({API_VERSION})");
    match error {
        LibraryError::IncompatibleVersionNumber { actual_version, .. } => {
            format!("built against plugin API {actual_version}; {ours}")
        }
        LibraryError::AbiInstability(_) => {
            let difference = first_difference(&full).map(|d| format!(": {d}")).unwrap_or_default();
            match their_version {
                Some(theirs) if theirs != API_VERSION => {
                    format!(
                        "built against plugin API {theirs}, whose types differ from this engine's{difference}; {ours}"
                    )
                }
                _ => format!(
                    "built against plugin API {API_VERSION} with types that differ from this engine's (a changed or \
                     patched plugboard-plugin-api){difference}"
                ),
            }
        }
        LibraryError::GetSymbolError { .. } => "not a Plugboard plugin: it exports no plugin root module".into(),
        LibraryError::OpenError { .. } => {
            format!("cannot be loaded as a library: {}", full.lines().map(str::trim).collect::<Vec<_>>().join(" "))
        }
        _ => full.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" "),
    }
}

/// The first type abi_stable names in a layout mismatch, with what differs.
fn first_difference(full: &str) -> Option<String> {
    let mut lines = full.lines().map(str::trim).filter(|l| !l.is_empty());
    let error_at = lines.position(|l| l.starts_with("Error:"))?;
    let _ = error_at;
    let what = full.lines().map(str::trim).find(|l| l.starts_with("Error:"))?.trim_start_matches("Error:").trim();
    let mut rest = full.lines().map(str::trim).skip_while(|l| !l.starts_with("Error:")).skip(1);
    let expected = rest.find(|l| l.starts_with("Expected:")).map(|_| ()).and_then(|()| rest.next());
    let found = rest.find(|l| l.starts_with("Found:")).map(|_| ()).and_then(|()| rest.next());
    let mut text = what.to_owned();
    if let (Some(expected), Some(found)) = (expected, found) {
        text += &format!(" (this engine: {}; the plugin: {})", quote(expected), quote(found));
    }
    Some(quote(&text).into_owned())
}

/// Refuses files the system loader would map without complaint but then fault on:
/// a truncated ELF library is mapped past its end and crashes the process on
/// first touch. Only the headers are read.
fn check_library_file(path: &Path) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("cannot read: {e}");
    let mut file = fs::File::open(path).map_err(failed)?;
    let len = file.metadata().map_err(failed)?.len();
    // The ELF header, then as far as the program headers reach (a few hundred
    // bytes in every library; a claim of more is checked against the length).
    let mut start = Vec::new();
    (&mut file).take(64).read_to_end(&mut start).map_err(failed)?;
    let u_at = |at: usize, width: usize| {
        start.get(at..at + width).map(|b| b.iter().rev().fold(0u64, |acc, &byte| acc << 8 | u64::from(byte)))
    };
    let headers_end = match (u_at(0x20, 8), u_at(0x36, 2), u_at(0x38, 2)) {
        (Some(offset), Some(size), Some(count)) => offset.saturating_add(size * count).min(len),
        _ => 0,
    };
    if headers_end > start.len() as u64 {
        file.seek(SeekFrom::Start(0)).map_err(failed)?;
        start.clear();
        file.take(headers_end).read_to_end(&mut start).map_err(failed)?;
    }
    check_headers(&start, len)
}

/// `bytes`: the start of a file of `len` bytes, through its program headers.
fn check_headers(bytes: &[u8], len: u64) -> Result<(), String> {
    if !bytes.starts_with(b"\x7fELF") {
        return if cfg!(target_os = "linux") { Err("not a library: no ELF header".into()) } else { Ok(()) };
    }
    let truncated = || Err::<(), String>("truncated library: parts of it lie past the end of the file".into());
    let (Some(&2), Some(&1)) = (bytes.get(4), bytes.get(5)) else {
        return Err("not a 64-bit little-endian library".into());
    };
    let u16_at = |at: usize| bytes.get(at..at + 2).map(|b| u16::from_le_bytes([b[0], b[1]]) as u64);
    let u32_at = |at: usize| bytes.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let u64_at =
        |at: usize| bytes.get(at..at + 8).map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]));
    let (Some(ph_offset), Some(sh_offset), Some(ph_size), Some(ph_count), Some(sh_size), Some(sh_count)) =
        (u64_at(0x20), u64_at(0x28), u16_at(0x36), u16_at(0x38), u16_at(0x3a), u16_at(0x3c))
    else {
        return truncated();
    };
    let table_fits =
        |offset: u64, size: u64, count: u64| offset.checked_add(size * count).is_some_and(|end| end <= len);
    if !table_fits(ph_offset, ph_size, ph_count) || !table_fits(sh_offset, sh_size, sh_count) {
        return truncated();
    }
    for index in 0..ph_count {
        let header = (ph_offset + index * ph_size) as usize;
        const PT_LOAD: u32 = 1;
        if u32_at(header) != Some(PT_LOAD) {
            continue;
        }
        let (Some(offset), Some(file_size)) = (u64_at(header + 8), u64_at(header + 32)) else { return truncated() };
        if offset.checked_add(file_size).is_none_or(|end| end > len) {
            return truncated();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_object_file(bytes: &[u8]) -> Result<(), String> {
        check_headers(bytes, bytes.len() as u64)
    }

    #[test]
    fn text_and_short_files_are_refused_before_loading() {
        if cfg!(target_os = "linux") {
            assert!(check_object_file(b"hello").unwrap_err().contains("no ELF header"));
        }
        assert!(check_object_file(b"\x7fELF\x02\x01").unwrap_err().contains("truncated"));
    }

    #[test]
    fn a_real_library_passes_and_its_truncation_does_not() {
        let exe = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        if !exe.starts_with(b"\x7fELF") {
            return;
        }
        assert_eq!(check_object_file(&exe), Ok(()));
        assert!(check_object_file(&exe[..exe.len() / 2]).is_err());
    }
}
