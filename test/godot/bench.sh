#!/usr/bin/env bash
# The report table: the same stack/pile scene (test/godot/bench.gd) under Godot Physics,
# Jolt Physics (both built into Godot 4.6) and Maul3D (release build), one Godot run per
# engine, each printing time per physics tick and whether the stacks stand.
#
# Usage: bash test/godot/bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
eval "$(bash test/godot-setup.sh --env)"
cargo build --release -p maul3d-godot
target=${CARGO_TARGET_DIR:-$repo/target}
project=$repo/test/godot
addon=$project/addons/maul3d
mkdir -p "$addon/bin" "$project/.godot"
cp "$repo"/addons/maul3d/maul3d.gdextension "$repo"/addons/maul3d/plugin.cfg "$repo"/addons/maul3d/plugin.gd "$addon/"
echo "res://addons/maul3d/maul3d.gdextension" >"$project/.godot/extension_list.cfg"
restore_debug() {
  rm -f "$project/override.cfg"
  ln -sf "$target/debug/libmaul3d_godot.so" "$addon/bin/libmaul3d_godot.so"
}
trap restore_debug EXIT
ln -sf "$target/release/libmaul3d_godot.so" "$addon/bin/libmaul3d_godot.so"
echo "Godot $("${GODOT[@]}" --headless --version 2>/dev/null), $(nproc) cores; 600 ticks at 1/60 s"
for run in "GodotPhysics3D" "Jolt Physics" "Maul3D" "Maul3D 1 thread"; do
  engine=${run% 1 thread}
  pool=true
  [[ $run == *"1 thread" ]] && pool=false
  # override.cfg in the project folder overrides project.godot's settings.
  printf '[application]\nrun/main_scene="res://bench.tscn"\n\n[physics]\n3d/physics_engine="%s"\nmaul3d/use_worker_thread_pool=%s\n' "$engine" "$pool" >"$project/override.cfg"
  MAUL3D_BENCH_LABEL=$run timeout 600 "${GODOT[@]}" --headless --fixed-fps 60 --path "$project" 2>&1 | grep '^BENCH' || echo "BENCH | $run | failed"
done
