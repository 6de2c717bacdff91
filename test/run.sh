#!/usr/bin/env bash
# The one test command: installs what the tests need (idempotent, quick when present)
# and runs every test suite of the workspace, formatting and lints. Prints the time of
# each stage so slow stages are seen.
set -euo pipefail
cd "$(dirname "$0")/.."

start_all=$(date +%s)
stage() {
  local name=$1
  shift
  local t0
  t0=$(date +%s)
  echo "==> $name"
  "$@"
  echo "<== $name: $(($(date +%s) - t0)) s"
}

ensure_components() {
  # rustfmt and clippy come with the toolchain on CI machines; add them if missing.
  if ! cargo fmt --version >/dev/null 2>&1; then rustup component add rustfmt; fi
  if ! cargo clippy --version >/dev/null 2>&1; then rustup component add clippy; fi
}

stage "toolchain components" ensure_components
stage "cargo fmt --check" cargo fmt --all -- --check
stage "cargo clippy" cargo clippy --workspace --all-targets -- -D warnings
# --no-fail-fast: one failing suite must not hide the results of the suites after it.
stage "cargo test (workspace)" cargo test --workspace --no-fail-fast
stage "C ABI (gcc/g++: seeds, scenes, C++ layer, errors, sanitizers)" bash test/c-abi.sh
stage "Unreal plugin core (g++/clang++ against the static library)" bash test/unreal.sh
stage "hash matrix (9 cells)" bash test/hash-matrix.sh
stage "fuzz (fixed runs, fixed seed)" bash test/fuzz.sh
stage "Godot 4.6 headless (Maul3D server)" bash test/godot.sh
echo "all tests passed in $(($(date +%s) - start_all)) s"
