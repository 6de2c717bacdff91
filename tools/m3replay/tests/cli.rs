//! The `m3replay` binary as a user runs it: on files it writes, damaged copies of them,
//! and the committed `test/demo.m3replay`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_m3replay");

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("m3replay-tests")
        .join(test);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("the tool exits, it is not killed")
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Records the demo into `dir/name` and returns its path.
fn record(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let file = dir.join(name);
    let mut args = vec!["record", "--out", path_str(&file)];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert_eq!(
        code(&o),
        0,
        "record failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    file
}

/// FNV-1a 64, as the container's checksum: lets a test forge a file that is whole but
/// says something else (another version, another final hash).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for part in parts {
        for &b in *part {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Rewrites header bytes `at..at+new.len()` and seals the container again.
fn forge(bytes: &mut [u8], at: usize, new: &[u8]) {
    bytes[at..at + new.len()].copy_from_slice(new);
    let sum = fnv1a(&[&bytes[..56], &bytes[64..]]);
    bytes[56..64].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn recorded_demo_verifies() {
    let dir = scratch("recorded_demo_verifies");
    let file = record(&dir, "demo.m3replay", &[]);
    let o = run(&["verify", path_str(&file)]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("verified: final hash "));
}

#[test]
fn info_reports_the_recorded_session() {
    let dir = scratch("info_reports_the_recorded_session");
    let file = record(&dir, "s.m3replay", &["--steps", "90"]);
    let o = run(&["info", path_str(&file)]);
    assert_eq!(code(&o), 0);
    let text = stdout(&o);
    assert!(text.contains("steps        90\n"), "{text}");
    assert!(text.contains("bodies       22 at start"), "{text}");
    let hashes = stdout(&run(&["hashes", path_str(&file)]));
    let last = hashes.lines().last().unwrap().split(' ').nth(1).unwrap();
    // No call follows the last step, so the final hash is the last step's hash.
    assert!(text.contains(&format!("final hash   {last}\n")), "{text}");
}

#[test]
fn a_flipped_byte_is_a_damaged_file() {
    let dir = scratch("a_flipped_byte_is_a_damaged_file");
    let file = record(&dir, "s.m3replay", &["--steps", "60"]);
    let good = fs::read(&file).unwrap();
    // In the header, the snapshot, the tape and the last byte.
    for at in [3, 40, 200, good.len() / 2, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        let damaged = dir.join(format!("flipped-{at}.m3replay"));
        fs::write(&damaged, &bad).unwrap();
        let o = run(&["verify", path_str(&damaged)]);
        assert_eq!(
            code(&o),
            2,
            "byte {at}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(String::from_utf8_lossy(&o.stderr).contains("damaged data"));
    }
    let cut = dir.join("cut.m3replay");
    fs::write(&cut, &good[..good.len() - 10]).unwrap();
    assert_eq!(code(&run(&["verify", path_str(&cut)])), 2);
}

#[test]
fn another_format_version_exits_3() {
    let dir = scratch("another_format_version_exits_3");
    let file = record(&dir, "s.m3replay", &["--steps", "30"]);
    let mut bytes = fs::read(&file).unwrap();
    let revision = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    forge(&mut bytes, 8, &(revision + 1).to_le_bytes());
    let other = dir.join("other.m3replay");
    fs::write(&other, &bytes).unwrap();
    let o = run(&["verify", path_str(&other)]);
    assert_eq!(code(&o), 3, "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_wrong_final_hash_is_a_mismatch_with_both_hashes() {
    let dir = scratch("a_wrong_final_hash_is_a_mismatch_with_both_hashes");
    let file = record(&dir, "s.m3replay", &["--steps", "30"]);
    let mut bytes = fs::read(&file).unwrap();
    let recorded = u64::from_le_bytes(bytes[32..40].try_into().unwrap());
    let claimed = recorded ^ 1;
    forge(&mut bytes, 32, &claimed.to_le_bytes());
    let wrong = dir.join("wrong.m3replay");
    fs::write(&wrong, &bytes).unwrap();
    let o = run(&["verify", path_str(&wrong)]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    assert!(
        text.contains(&format!("recorded hash {claimed:016x}")),
        "{text}"
    );
    assert!(
        text.contains(&format!("replayed hash {recorded:016x}")),
        "{text}"
    );
}

#[test]
fn hashes_are_the_same_bytes_on_every_run() {
    let dir = scratch("hashes_are_the_same_bytes_on_every_run");
    let file = record(&dir, "s.m3replay", &["--steps", "120"]);
    let out = dir.join("hashes.txt");
    let first = run(&["hashes", path_str(&file)]);
    assert_eq!(code(&first), 0);
    assert_eq!(
        code(&run(&["hashes", path_str(&file), "--out", path_str(&out)])),
        0
    );
    assert_eq!(first.stdout, fs::read(&out).unwrap());
    // A second recording of the same session gives the same lines.
    let again = record(&dir, "again.m3replay", &["--steps", "120"]);
    assert_eq!(first.stdout, run(&["hashes", path_str(&again)]).stdout);

    let text = stdout(&first);
    let lines: Vec<&str> = text.lines().collect();
    // Step 0 (the starting snapshot) and every step after it.
    assert_eq!(lines.len(), 121);
    for (i, line) in lines.iter().enumerate() {
        let (step, hash) = line.split_once(' ').unwrap();
        assert_eq!(step, i.to_string());
        assert_eq!(hash.len(), 16);
        assert!(
            hash.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
    }
}

/// The hash `hashes` prints for `step`.
fn hash_at(hashes: &str, step: usize) -> &str {
    let line = hashes.lines().nth(step).unwrap();
    let (s, hash) = line.split_once(' ').unwrap();
    assert_eq!(s, step.to_string());
    hash
}

#[test]
fn seeking_equals_replaying_to_the_step_directly() {
    let dir = scratch("seeking_equals_replaying_to_the_step_directly");
    let file = record(&dir, "s.m3replay", &["--steps", "200"]);
    let f = path_str(&file);
    let hashes = stdout(&run(&["hashes", f]));
    // Before the first keyframe, on keyframes, between them, and across creates and
    // destroys (steps 31, 91, 101, 151); in every format.
    for step in [0, 1, 29, 30, 31, 47, 60, 95, 101, 150, 151, 179, 200] {
        let s = step.to_string();
        for format in ["text", "csv", "json"] {
            let seek = run(&["seek", f, &s, "--format", format]);
            let direct = run(&["seek", f, &s, "--direct", "--format", format]);
            assert_eq!(code(&seek), 0);
            assert_eq!(code(&direct), 0);
            assert_eq!(stdout(&seek), stdout(&direct), "step {step} {format}");
        }
        let seek = stdout(&run(&["seek", f, &s]));
        let hash = hash_at(&hashes, step);
        assert!(seek.starts_with(&format!("step {step}  hash {hash}  bodies ")));
    }
}

#[test]
fn play_prints_the_summary_line_of_each_step() {
    let dir = scratch("play_prints_the_summary_line_of_each_step");
    let file = record(&dir, "s.m3replay", &["--steps", "120"]);
    let f = path_str(&file);
    let play = run(&["play", f, "--from", "45", "--to", "47"]);
    assert_eq!(code(&play), 0);
    let firsts: Vec<String> = ["45", "46", "47"]
        .iter()
        .map(|s| {
            stdout(&run(&["seek", f, s]))
                .lines()
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(stdout(&play), firsts.join("\n") + "\n");
    // The whole session: one line per step, 0 to the end, each with the step's hash.
    let hashes = stdout(&run(&["hashes", f]));
    let all = stdout(&run(&["play", f]));
    assert_eq!(all.lines().count(), 121);
    for (step, line) in all.lines().enumerate() {
        let want = format!("step {step}  hash {}  bodies ", hash_at(&hashes, step));
        assert!(line.starts_with(&want), "{line}");
        assert!(
            line.contains("  awake ") && line.contains("  fastest "),
            "{line}"
        );
    }
}

/// Splits CSV output into its header and rows, checking every row has the header's width.
fn csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    for r in &rows {
        assert_eq!(r.len(), header.len(), "{r:?}");
    }
    (header, rows)
}

#[test]
fn play_follows_one_body_in_every_format() {
    let dir = scratch("play_follows_one_body_in_every_format");
    let file = record(&dir, "s.m3replay", &["--steps", "60"]);
    let f = path_str(&file);
    let hashes = stdout(&run(&["hashes", f]));
    // Slot 22 is the projectile, created before step 31; slot 5 lives throughout.
    let o = run(&["play", f, "--from", "28", "--to", "33", "--body", "22"]);
    assert_eq!(code(&o), 0);
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 7, "{text}");
    assert!(
        lines[0].trim_start().starts_with("step  slot  type"),
        "{text}"
    );
    assert!(lines[1].ends_with("28  slot 22 holds no body"), "{text}");
    assert!(
        lines[4].trim_start().starts_with("31    22  dynamic"),
        "{text}"
    );

    let o = run(&["play", f, "--body", "5", "--format", "csv"]);
    assert_eq!(code(&o), 0);
    let (header, rows) = csv(&stdout(&o));
    assert_eq!(header[..4], ["step", "hash", "slot", "type"]);
    assert_eq!(rows.len(), 61);
    for (step, r) in rows.iter().enumerate() {
        assert_eq!(r[0], step.to_string());
        assert_eq!(r[1], hash_at(&hashes, step));
        assert_eq!(r[2], "5");
        // Full precision: every coordinate reads back as a number.
        for v in &r[4..17] {
            v.parse::<f64>().unwrap();
        }
    }
    // Every body at one step: one row each, as many as the summary line counts.
    let o = run(&["seek", f, "40", "--format", "csv"]);
    let (_, rows) = csv(&stdout(&o));
    let summary = stdout(&run(&["seek", f, "40"]));
    assert!(
        summary.contains(&format!("  bodies {}  ", rows.len())),
        "{summary}"
    );

    let o = run(&[
        "play", f, "--from", "29", "--to", "32", "--body", "22", "--format", "json",
    ]);
    assert_eq!(code(&o), 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let steps = v.as_array().unwrap();
    assert_eq!(steps.len(), 4);
    for (i, s) in steps.iter().enumerate() {
        let step = 29 + i;
        assert_eq!(s["step"], step);
        assert_eq!(s["hash"], hash_at(&hashes, step));
        let bodies = s["bodies"].as_array().unwrap();
        // The projectile exists from step 31.
        assert_eq!(bodies.len(), usize::from(step >= 31), "{s}");
        if let Some(b) = bodies.first() {
            assert_eq!(b["slot"], 22);
            assert_eq!(b["position"].as_array().unwrap().len(), 3);
            assert_eq!(b["rotation"].as_array().unwrap().len(), 4);
        }
    }
    let o = run(&["seek", f, "40", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["bodies"].as_array().unwrap().len(), rows.len());
    assert_eq!(v["body_count"], rows.len());
}

#[test]
fn a_step_past_the_end_is_a_usage_error() {
    let dir = scratch("a_step_past_the_end_is_a_usage_error");
    let file = record(&dir, "s.m3replay", &["--steps", "20"]);
    let f = path_str(&file);
    for args in [
        &["seek", f, "21"][..],
        &["play", f, "--to", "21"],
        &["play", f, "--from", "10", "--to", "5"],
        &["seek", f, "3", "--body", "128"],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 64, "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).starts_with("m3replay: "));
    }
    // A missing file is not a usage error.
    assert_eq!(code(&run(&["verify", path_str(&dir.join("missing"))])), 4);
}

#[test]
fn usage_errors_exit_64_not_the_damaged_file_code() {
    for args in [
        &["seek"][..],
        &["seek", "x.m3replay", "not-a-step"],
        &["play", "x.m3replay", "--format", "xml"],
        &["verify", "x.m3replay", "--no-such-flag"],
        &["no-such-command"],
        &[],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 64, "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
    // Help is not an error; it documents the codes.
    let o = run(&["--help"]);
    assert_eq!(code(&o), 0);
    let help = stdout(&o);
    for line in ["  2   a damaged replay file", "  64  a usage error"] {
        assert!(help.contains(line), "{help}");
    }
}

#[test]
fn record_refuses_to_overwrite_without_force() {
    let dir = scratch("record_refuses_to_overwrite_without_force");
    let file = record(&dir, "s.m3replay", &["--steps", "10"]);
    let before = fs::read(&file).unwrap();
    let f = path_str(&file);
    let o = run(&["record", "--out", f, "--steps", "20"]);
    assert_eq!(code(&o), 64);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(f) && err.contains("--force"), "{err}");
    assert_eq!(fs::read(&file).unwrap(), before, "the file is untouched");
    let o = run(&["demo", "--steps", "20", "--out", f]);
    assert_eq!(code(&o), 64);
    assert_eq!(fs::read(&file).unwrap(), before, "the file is untouched");

    let o = run(&["record", "--out", f, "--steps", "20", "--force"]);
    assert_eq!(code(&o), 0);
    let info = stdout(&run(&["info", f]));
    assert!(info.contains("steps        20\n"), "{info}");
}

#[test]
fn a_session_agrees_with_itself() {
    let dir = scratch("a_session_agrees_with_itself");
    let file = record(&dir, "s.m3replay", &["--steps", "120"]);
    let o = run(&["diff", path_str(&file), path_str(&file)]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("the sessions agree"));
}

#[test]
fn diff_finds_the_step_where_two_recordings_part() {
    let dir = scratch("diff_finds_the_step_where_two_recordings_part");
    let a = record(&dir, "a.m3replay", &["--steps", "120", "--seed", "1"]);
    let b = record(&dir, "b.m3replay", &["--steps", "120", "--seed", "2"]);
    let o = run(&["diff", path_str(&a), path_str(&b)]);
    assert_eq!(code(&o), 1);
    let text = stdout(&o);
    let step: u64 = text
        .strip_prefix("the sessions part at step ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no parting step in: {text}"));
    // The seeds change the projectile fired before step 31, and nothing earlier.
    assert_eq!(step, 31, "{text}");
    assert!(text.contains("worst first"), "{text}");

    // The hashes agree up to that step and differ at it.
    let ha = stdout(&run(&["hashes", path_str(&a)]));
    let hb = stdout(&run(&["hashes", path_str(&b)]));
    let (la, lb): (Vec<&str>, Vec<&str>) = (ha.lines().collect(), hb.lines().collect());
    // (Lines are steps 0, 1, ...: step 31 is line 31.)
    assert_eq!(la[..31], lb[..31]);
    assert_ne!(la[31], lb[31]);
}

#[test]
fn demo_records_verifies_and_exits_zero() {
    let o = run(&["demo"]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let text = stdout(&o);
    assert!(text.contains("verification   verified"), "{text}");
    assert!(text.contains("steps          300"), "{text}");
}

#[test]
fn the_committed_demo_file_verifies() {
    // Regenerate with `cargo run --release -p m3replay -- record --out test/demo.m3replay --force`
    // from the repository root when a change moves results.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/demo.m3replay");
    let o = run(&["verify", path_str(&file)]);
    assert_eq!(
        code(&o),
        0,
        "{}{}",
        stdout(&o),
        String::from_utf8_lossy(&o.stderr)
    );
}
