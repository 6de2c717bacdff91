#!/usr/bin/env bash
# The cloth bench in Godot 4.6 headless, the same scene under Jolt Physics (built into
# Godot) and Maul3D (the release build of the extension): test/godot/bench/bench_cloth.gd
# (16 cloths of 32 × 32 over spheres, as `cargo run --release -p maul3d-bench --bin
# cloth`). Runs each engine `ROUNDS` times (default 2), alternating, and prints one line
# per run. Not part of the test command: wall-clock figures to read.
#
#   bash bench/godot-cloth.sh            # ROUNDS=3 bash bench/godot-cloth.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
eval "$(bash test/godot-setup.sh --env)"
cargo build --release -p maul3d-godot
target=${CARGO_TARGET_DIR:-$repo/target}
project=$repo/test/godot
bash test/godot-link-addon.sh "$project" "$target/release/libmaul3d_godot.so"
trap 'rm -f "$project/override.cfg"; bash test/godot-link-addon.sh "$project" "$target/debug/libmaul3d_godot.so" >/dev/null 2>&1 || true' EXIT
for round in $(seq "${ROUNDS:-2}"); do
  for engine in "Jolt Physics" "Maul3D"; do
    printf '[application]\nrun/main_scene="res://bench/bench_cloth.tscn"\n\n[physics]\n3d/physics_engine="%s"\n' "$engine" >"$project/override.cfg"
    timeout 600 "${GODOT[@]}" --headless --fixed-fps 60 --path "$project" 2>&1 | grep '^bench_cloth' || true
  done
done
