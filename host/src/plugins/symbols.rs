//! What a library exports, read from its dynamic symbol table as data, without
//! mapping it: mapping runs the library's load-time code with the user's rights,
//! so a file that does not even export the plugin entry point is never mapped,
//! not by the engine and not by the child that examines unknown files.

use std::{
    panic::{self, AssertUnwindSafe},
    path::Path,
};

use object::{
    Endianness, FileKind, Object, ReadRef,
    elf::{self, FileHeader32, FileHeader64},
    read::{
        ReadCache,
        elf::{FileHeader, Sym},
    },
};

use crate::files;

/// The symbol every plugin exports: the entry point `abi_stable` loads it by
/// (its name carries `abi_stable`'s version).
fn entry_point() -> &'static str {
    abi_stable::library::ROOT_MODULE_LOADER_NAME
}

/// Whether the library at `path` exports the plugin entry point; `Err` with
/// why it cannot be told (not a library this reader knows, unreadable).
pub fn exports_entry_point(path: &Path) -> Result<bool, String> {
    let file = files::open_regular(path).map_err(|e| format!("it cannot be read: {e}"))?;
    // Only what is looked at is read, however big the file.
    let data = ReadCache::new(file);
    // The reader is made for damaged files and returns errors for them; this is
    // a second line, as the file may be anyone's.
    panic::catch_unwind(AssertUnwindSafe(|| {
        let wanted = entry_point().as_bytes();
        let kind = FileKind::parse(&data).map_err(|e| format!("it is not a library ({e})"))?;
        let exported = match kind {
            FileKind::Elf64 => elf_exports::<FileHeader64<Endianness>, _>(&data, wanted),
            FileKind::Elf32 => elf_exports::<FileHeader32<Endianness>, _>(&data, wanted),
            _ => other_exports(&data, wanted),
        };
        exported.map_err(|e| format!("its exported symbols cannot be read ({e})"))
    }))
    .unwrap_or_else(|_| Err("its symbol table could not be read".into()))
}

/// ELF: only the section headers and the dynamic symbol table are read (the
/// full symbol table of a library with debug symbols runs to megabytes).
fn elf_exports<'data, Elf, R>(data: R, wanted: &[u8]) -> object::Result<bool>
where
    Elf: FileHeader<Endian = Endianness>,
    R: ReadRef<'data>,
{
    let header = Elf::parse(data)?;
    let endian = header.endian()?;
    let sections = header.sections(endian, data)?;
    let symbols = sections.symbols(endian, data, elf::SHT_DYNSYM)?;
    for symbol in symbols.iter() {
        let global = matches!(symbol.st_bind(), elf::STB_GLOBAL | elf::STB_WEAK);
        if global && !symbol.is_undefined(endian) && symbols.symbol_name(endian, symbol)? == wanted {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Mach-O and PE, by their export tables; Mach-O spells C symbols with a
/// leading underscore.
fn other_exports<'data, R: ReadRef<'data>>(data: R, wanted: &[u8]) -> object::Result<bool> {
    let library = object::File::parse(data)?;
    let exports = library.exports()?;
    Ok(exports.iter().any(|export| export.name() == wanted || export.name().strip_prefix(b"_") == Some(wanted)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_are_no_libraries_are_told_apart() {
        let folder = tempfile::tempdir().unwrap();
        let text = folder.path().join("notes.so");
        std::fs::write(&text, "not a library at all").unwrap();
        assert!(exports_entry_point(&text).is_err());
        // The test binary is an executable, and exports no plugin entry point.
        let this = std::env::current_exe().unwrap();
        assert_eq!(exports_entry_point(&this), Ok(false));
    }
}
