#!/usr/bin/env bash
# Runs every Godot example project in examples/godot/ headless for a few seconds with the
# built extension (godot-ext/, debug profile: run after test/godot.sh or
# `cargo build -p maul3d-godot`): links the addon into each project, runs it with a fixed
# 60 fps for 300 ticks (`-- --quit-after-ticks=300`, which each example honours by
# printing a summary and quitting with its verdict), and fails when Godot exits non-zero,
# times out, or prints an error.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

eval "$(bash test/godot-setup.sh --env)"
target=${CARGO_TARGET_DIR:-$repo/target}
lib=$target/debug/libmaul3d_godot.so
[[ -f $lib ]] || cargo build -p maul3d-godot

status=0
for project in "$repo"/examples/godot/*/; do
  project=${project%/}
  bash test/godot-link-addon.sh "$project" "$lib"
  log=$(mktemp)
  rc=0
  timeout 120 "${GODOT[@]}" --headless --fixed-fps 60 --path "$project" -- --quit-after-ticks=300 >"$log" 2>&1 || rc=$?
  name=$(basename "$project")
  if [[ $rc != 0 ]] || grep -Eq '^(ERROR|SCRIPT ERROR)' "$log"; then
    echo "godot-examples: $name failed (exit $rc):" >&2
    cat "$log" >&2
    status=1
  else
    echo "godot-examples: $name ok: $(grep -v '^\s*$' "$log" | tail -1)"
  fi
  rm -f "$log"
done
exit "$status"
