//! Keeps the API layer's rules, by reading the crate's own sources: no core file outside
//! the API layer (`api/`) and the journal (`journal/`) names the journal or records, and
//! every public method that takes a world mutably lives here (or is on the short list of
//! calls that are not recorded, with the reason).

use std::path::Path;
use std::string::String;
use std::vec::Vec;

/// Public `&mut self` methods of `World` outside `api/` on purpose: file, name, why.
const NOT_IN_THE_API_LAYER: &[(&str, &str, &str)] = &[
    (
        "journal/mod.rs",
        "start_journal",
        "starts the tape (not state)",
    ),
    (
        "journal/mod.rs",
        "stop_journal",
        "stops the tape (not state)",
    ),
    (
        "journal/mod.rs",
        "replay_journal",
        "makes the recorded calls again through this layer",
    ),
    (
        "presolve.rs",
        "set_pre_solve",
        "a host callback (not state); a step records what it decided",
    ),
    (
        "world.rs",
        "set_solve_one_at_a_time",
        "a test switch: the same bits either way",
    ),
    (
        "world.rs",
        "set_solver_lanes",
        "a speed choice (not state): every lane path gives the same bits",
    ),
];

/// The code of a Rust source: comments and the insides of string and character literals
/// blanked, so that only identifiers and punctuation are left to search.
fn code_of(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    // A string may go on over lines.
    let mut in_str = false;
    for line in src.lines() {
        let c: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < c.len() {
            if in_str {
                match c[i] {
                    '\\' => i += 1,
                    '"' => {
                        in_str = false;
                        out.push('"');
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            match c[i] {
                '/' if c.get(i + 1) == Some(&'/') => break,
                '"' => in_str = true,
                // A character literal ('x', '\n'); a lifetime ('a) has no closing quote.
                '\'' if c.get(i + 1) == Some(&'\\') && c.get(i + 3) == Some(&'\'') => {
                    out.push_str("' '");
                    i += 4;
                    continue;
                }
                '\'' if c.get(i + 2) == Some(&'\'') => {
                    out.push_str("' '");
                    i += 3;
                    continue;
                }
                _ => {}
            }
            out.push(c[i]);
            i += 1;
        }
        out.push('\n');
    }
    out
}

/// Every `.rs` file under `dir`, as (path relative to `src/` with `/`, code).
fn sources(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("core sources readable")
        .map(|e| e.expect("core sources readable").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src");
            let rel = rel.to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(&path).expect("core sources readable");
            out.push((rel, code_of(&text)));
        }
    }
}

/// The core's sources outside the API layer, the journal and the crate root (which
/// declares the modules and re-exports the journal's public types).
fn subsystem_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    sources(&root, &root, &mut all);
    assert!(all.len() > 50, "found the core's sources");
    all.retain(|(rel, _)| {
        !(rel.starts_with("api/") || rel.starts_with("journal/") || rel == "lib.rs")
    });
    all
}

#[test]
fn no_core_file_outside_the_api_layer_and_the_journal_names_the_journal() {
    let mut found = Vec::new();
    for (rel, code) in subsystem_sources() {
        for (n, line) in code.lines().enumerate() {
            let lower = line.to_ascii_lowercase();
            // `.recorder`: the world's journal, reached without naming it.
            if lower.contains("journal")
                || line.contains(".rec(")
                || line.contains("record_step")
                || line.contains(".recorder")
            {
                found.push(std::format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "only api/ records and only api/ and journal/ name the journal:\n{}",
        found.join("\n")
    );
}

/// The public methods taking `&mut self` in the `impl World` blocks of `code`.
fn public_mut_methods(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut world_block = None;
    let mut rest = code;
    while let Some(i) = rest.find(['{', '}', 'p', 'i']) {
        let tail = &rest[i..];
        let at_word_start = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        if tail.starts_with('{') {
            depth += 1;
        } else if tail.starts_with('}') {
            depth -= 1;
            if world_block == Some(depth) {
                world_block = None;
            }
        } else if at_word_start && depth == 0 && tail.starts_with("impl World {") {
            world_block = Some(0);
        } else if at_word_start
            && world_block.is_some()
            && depth == 1
            && tail.starts_with("pub fn ")
        {
            let sig = &tail[..tail.find('{').unwrap_or(tail.len())];
            if sig.contains("&mut self") {
                let name = &sig["pub fn ".len()..];
                let end = name.find(['(', '<']).unwrap_or(name.len());
                names.push(String::from(&name[..end]));
            }
        }
        rest = &rest[i + 1..];
    }
    names
}

#[test]
fn every_public_call_that_takes_a_world_mutably_is_in_the_api_layer() {
    let mut found = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    sources(&root, &root, &mut all);
    for (rel, code) in all.iter().filter(|(rel, _)| !rel.starts_with("api/")) {
        for name in public_mut_methods(code) {
            let listed = NOT_IN_THE_API_LAYER
                .iter()
                .any(|&(f, n, _)| f == rel && n == name);
            if !listed {
                found.push(std::format!("{rel}: World::{name}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "public calls that change a world belong in api/ (validate → apply → record), or \
         on NOT_IN_THE_API_LAYER with the reason they are not recorded:\n{}",
        found.join("\n")
    );
    // The list names only calls that exist where it says.
    for &(file, name, _) in NOT_IN_THE_API_LAYER {
        let code = &all
            .iter()
            .find(|(rel, _)| rel == file)
            .expect("listed file")
            .1;
        assert!(
            public_mut_methods(code).iter().any(|n| n == name),
            "{file} has no public World::{name} taking &mut self"
        );
    }
}

#[test]
fn the_api_layer_itself_holds_the_recorded_calls() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    sources(&root, &root.join("api"), &mut all);
    let names: Vec<String> = all
        .iter()
        .flat_map(|(_, code)| public_mut_methods(code))
        .collect();
    for expected in [
        "create_body",
        "create_sphere_shape",
        "create_mesh",
        "step",
        "create_joint",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "the scan finds World::{expected} in api/"
        );
    }
}
