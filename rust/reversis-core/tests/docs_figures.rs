//! The figures the documents quote about the core that only Rust can measure, held to the code
//! (the others are in `tests/test_docs_figures.py`): the size of a position, which is what a game
//! of the vector environment keeps (API-11 §History).

use std::fs;
use std::path::Path;

use reversis_core::Position;

/// Where a document states the size of a position: the file, and the text just before the number
/// (followed by " bytes").
const POSITION_SIZE: [(&str, &str); 3] = [
    ("README.md", "A game in the batch is its position alone, "),
    ("spec/api.md", "(the Rust engine's is "),
    ("python/reversis/vector.py", "position alone, "),
];

#[test]
fn the_documents_state_the_size_of_a_position() {
    let size = std::mem::size_of::<Position>();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut wrong = Vec::new();
    for (path, before) in POSITION_SIZE {
        let text = fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        // The text may wrap between the words: compare with runs of whitespace made one space.
        let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let at = flat
            .find(before)
            .unwrap_or_else(|| panic!("{path} no longer says {before:?}N bytes"));
        let rest = &flat[at + before.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        assert!(
            rest[digits.len()..].starts_with(" bytes"),
            "{path}: no size in bytes after {before:?}"
        );
        if digits != size.to_string() {
            let stated = format!("{digits} bytes");
            let line = text[..text.find(&stated).unwrap_or(0)]
                .lines()
                .count()
                .max(1);
            wrong.push(format!(
                "{path}:{line}: \"{before}{digits} bytes\" should read \"{before}{size} bytes\""
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "std::mem::size_of::<Position>() is {size}:\n{}",
        wrong.join("\n")
    );
}
