#!/usr/bin/env bash
# Fuzzes what Maul3D reads from outside (SPEC.md, "Errors and bad input"): replay
# containers, tapes and snapshots. Each target runs a fixed number of inputs with a fixed
# seed over its committed corpus (fuzz/corpus/<target>/), so a run is repeatable; new
# inputs the fuzzer finds go to a scratch folder, never into the committed corpus.
#
# Installs cargo-fuzz if missing (needs nightly Rust: `cargo +nightly`). Exits non-zero on
# any crash, hang (over 10 s on one input) or out-of-memory; the inputs that caused them
# are copied to fuzz/regressions/<target>/, which `cargo test` (core/tests/
# fuzz_regressions.rs) replays. Fix the bug, keep the file.
#
#   test/fuzz.sh                      all targets, FUZZ_RUNS inputs each (default 100000)
#   FUZZ_RUNS=500000 test/fuzz.sh restore
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${FUZZ_RUNS:-100000}
SEED=${FUZZ_SEED:-1}
if [ $# -gt 0 ]; then TARGETS=("$@"); else TARGETS=(decode_replay replay_journal restore); fi

start_all=$(date +%s)
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "==> installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

# -a: debug assertions and overflow checks on, as in the test profile.
# -use_cmp=0 below: libFuzzer's compare tracing also records values compared inside the
# engine's profile timers (std::time, inlined), so with it two runs of one seed diverge.
echo "==> cargo +nightly fuzz build -a"
t0=$(date +%s)
cargo +nightly fuzz build -a
echo "<== build: $(($(date +%s) - t0)) s"

# One target's fixed run; its report goes to $2 (the targets run side by side, each
# libFuzzer process on one thread, and their reports are printed in order after).
fuzz_target() {
  local t=$1 report=$2 scratch log t0
  scratch=$(mktemp -d)
  log=$(mktemp)
  rm -rf "fuzz/artifacts/$t"
  {
    echo "==> $t: $RUNS runs, seed $SEED"
    t0=$(date +%s)
    if cargo +nightly fuzz run -a "$t" "$scratch" "fuzz/corpus/$t" -- \
      -runs="$RUNS" -seed="$SEED" -use_cmp=0 -timeout=10 -rss_limit_mb=2048 >"$log" 2>&1; then
      grep -E '^Done|^#[0-9]+[[:space:]]+DONE' "$log" || true
      echo "<== $t: ok, $(($(date +%s) - t0)) s"
    else
      grep -E '^#[0-9]+' "$log" | tail -n 1 || true
      grep -E -A 3 'panicked at|ERROR: libFuzzer' "$log" || tail -n 40 "$log"
      mkdir -p "fuzz/regressions/$t"
      for f in "fuzz/artifacts/$t"/*; do
        [ -f "$f" ] || continue
        cp "$f" "fuzz/regressions/$t/"
        echo "kept fuzz/regressions/$t/$(basename "$f")"
      done
      echo "<== $t: FAILED after $(($(date +%s) - t0)) s"
      rm -rf "$scratch" "$log"
      return 1
    fi
  } >"$report"
  rm -rf "$scratch" "$log"
}

status=0
reports=()
pids=()
for t in "${TARGETS[@]}"; do
  r=$(mktemp)
  reports+=("$r")
  fuzz_target "$t" "$r" &
  pids+=($!)
done
for k in "${!pids[@]}"; do
  wait "${pids[$k]}" || status=1
  cat "${reports[$k]}"
  rm -f "${reports[$k]}"
done
echo "fuzzing done in $(($(date +%s) - start_all)) s"
exit $status
