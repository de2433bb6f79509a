//! The README's plugin examples are the doctests of this crate's documentation,
//! less their hidden lines: the doctests prove that the examples compile and
//! work, and this test that the README still shows the code they prove.

use std::path::Path;

/// The bodies of the ```rust blocks in `markdown`, with rustdoc's hidden lines
/// (`# ...` and a lone `#`) left out.
fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in markdown.lines() {
        match block.as_mut() {
            None if line.trim_start().starts_with("```rust") => block = Some(String::new()),
            None => {}
            Some(_) if line.trim_start().starts_with("```") => blocks.extend(block.take()),
            Some(_) if line == "#" || line.starts_with("# ") => {}
            Some(text) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    blocks
}

/// The crate documentation of `lib.rs` as markdown.
fn crate_docs(source: &str) -> String {
    source
        .lines()
        .filter_map(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_readme_shows_the_doctested_plugins() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &Path| {
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
    };
    let readme = rust_blocks(&read(&crate_dir.join("../README.md")));
    let docs = rust_blocks(&crate_docs(&read(&crate_dir.join("src/lib.rs"))));
    assert_eq!(docs.len(), 3, "the crate docs show an evaluation, a search and a xiangqi evaluation plugin");
    for (index, doc) in docs.iter().enumerate() {
        assert!(
            readme.contains(doc),
            "the README does not show example {} of plugin-api's crate docs as it is there:\n{doc}",
            index + 1
        );
    }
    assert_eq!(readme.len(), docs.len(), "the README shows Rust code that no doctest compiles");
}
