//! The outputs the READMEs quote are the tool's real outputs.
//!
//! A quoted output is a fenced block right after a line `<!-- output of: m3replay ARGS -->`.
//! The test runs `m3replay ARGS` from the repository root and checks that every non-blank
//! line of the block is a line of the real output, in the order quoted (a block may quote
//! a few lines of a long output). `…` in a quoted line stands for any text (times).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_m3replay");
const MARK: &str = "<!-- output of: m3replay ";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A quoted output: the command's arguments and the quoted lines.
struct Quote {
    line: usize,
    args: Vec<String>,
    lines: Vec<String>,
}

fn quotes(text: &str) -> Vec<Quote> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(args) = line.trim().strip_prefix(MARK) else {
            continue;
        };
        let args = args.strip_suffix("-->").expect("the mark ends with -->");
        assert!(
            lines.get(i + 1).is_some_and(|l| l.starts_with("```")),
            "line {}: a fenced block must follow the mark",
            i + 1
        );
        let body: Vec<String> = lines[i + 2..]
            .iter()
            .take_while(|l| !l.starts_with("```"))
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim_end().to_string())
            .collect();
        assert!(!body.is_empty(), "line {}: an empty quoted output", i + 1);
        out.push(Quote {
            line: i + 1,
            args: args.split_whitespace().map(String::from).collect(),
            lines: body,
        });
    }
    out
}

/// `quoted` equals `real`, `…` matching any text.
fn matches(quoted: &str, real: &str) -> bool {
    let mut parts = quoted.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = real.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Checks every quote of one README; returns how many it checked.
fn check(readme: &Path) -> usize {
    let text = fs::read_to_string(readme).unwrap();
    let quotes = quotes(&text);
    for q in &quotes {
        let o = Command::new(BIN)
            .args(&q.args)
            .current_dir(repo_root())
            .output()
            .unwrap();
        let real = String::from_utf8(o.stdout).unwrap();
        let real: Vec<&str> = real.lines().map(str::trim_end).collect();
        let mut from = 0;
        for want in &q.lines {
            match real[from..].iter().position(|l| matches(want, l)) {
                Some(at) => from += at + 1,
                None => panic!(
                    "{}:{}: `m3replay {}` does not print, in this order,\n{want}\nIt prints:\n{}",
                    readme.display(),
                    q.line,
                    q.args.join(" "),
                    real.join("\n")
                ),
            }
        }
    }
    quotes.len()
}

#[test]
fn the_outputs_the_readmes_quote_are_real() {
    let tool = check(&Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"));
    // The tool's README quotes the demo, info, hashes, seek, play, csv, diff and --help.
    assert!(
        tool >= 8,
        "only {tool} quoted outputs found in the tool's README"
    );
    // The root README may quote outputs the same way; none is required of it.
    check(&repo_root().join("README.md"));
}

#[test]
fn the_wildcard_matches_only_what_it_should() {
    assert!(matches("a … b … c", "a 1 b 2 c"));
    assert!(matches("plain", "plain"));
    assert!(!matches("plain", "plain and more"));
    assert!(!matches("a … c", "a 1 d"));
    assert!(!matches("x … c", "a 1 c"));
    assert!(matches("time … ms", "time 0.123 ms"));
}
