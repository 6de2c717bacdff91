#!/usr/bin/env bash
# The report table: the same stack/pile scene (test/godot/bench.gd) under Godot Physics,
# Jolt Physics (both built into Godot 4.6) and Maul3D (release build), one Godot run per
# engine, each printing time per physics tick and whether the stacks stand; then the
# scenes of test/godot/bench_scenes.gd (contacts, islands, create, capacity) the same way,
# with the `physics/maul3d/*` capacities each needs.
#
# Usage: bash test/godot/bench.sh [stack|contacts|islands|create|capacity ...]
# (every scene when none is named)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
eval "$(bash test/godot-setup.sh --env)"
cargo build --release -p maul3d-godot
target=${CARGO_TARGET_DIR:-$repo/target}
project=$repo/test/godot
restore_debug() {
  rm -f "$project/override.cfg"
  bash test/godot-link-addon.sh "$project" "$target/debug/libmaul3d_godot.so"
}
trap restore_debug EXIT
bash test/godot-link-addon.sh "$project" "$target/release/libmaul3d_godot.so"
echo "Godot $("${GODOT[@]}" --headless --version 2>/dev/null), $(nproc) cores; 600 ticks at 1/60 s"
scenes=("$@")
[[ ${#scenes[@]} -eq 0 ]] && scenes=(stack contacts islands create capacity)
# Capacities (physics/maul3d/*) a scene needs past the defaults, one `name=value` a line.
caps_for() {
  case $1 in
    contacts) printf 'maul3d/hull_capacity=1024\nmaul3d/contact_capacity=16384\nmaul3d/pair_capacity=16384\n' ;;
    islands) printf 'maul3d/body_capacity=8192\nmaul3d/shape_capacity=8192\nmaul3d/contact_capacity=32768\nmaul3d/pair_capacity=32768\n' ;;
    create) printf 'maul3d/body_capacity=16384\nmaul3d/shape_capacity=16384\nmaul3d/contact_capacity=65536\nmaul3d/pair_capacity=65536\n' ;;
    capacity16)
      # 16x every default (settings.rs CAPACITY_SETTINGS).
      printf 'maul3d/body_capacity=16384\nmaul3d/shape_capacity=32768\nmaul3d/contact_capacity=65536\nmaul3d/pair_capacity=65536\n'
      printf 'maul3d/hull_capacity=4096\nmaul3d/joint_capacity=8192\nmaul3d/event_capacity=16384\nmaul3d/sensor_capacity=8192\n'
      printf 'maul3d/mesh_capacity=16384\nmaul3d/content_capacity=4294967296\n'
      ;;
  esac
}
for scene in "${scenes[@]}"; do
  runs=("GodotPhysics3D" "Jolt Physics" "Maul3D" "Maul3D 1 thread")
  main=res://bench_scenes.tscn
  [[ $scene == stack ]] && main=res://bench.tscn
  [[ $scene == capacity ]] && runs=("GodotPhysics3D" "Jolt Physics" "Maul3D" "Maul3D 16x capacities")
  [[ $scene == create ]] && runs=("GodotPhysics3D" "Jolt Physics" "Maul3D")
  for run in "${runs[@]}"; do
    engine=${run% 1 thread}
    engine=${engine% 16x capacities}
    pool=true
    [[ $run == *"1 thread" ]] && pool=false
    caps=$scene
    [[ $run == *"16x capacities" ]] && caps=capacity16
    # override.cfg in the project folder overrides project.godot's settings.
    printf '[application]\nrun/main_scene="%s"\n\n[physics]\n3d/physics_engine="%s"\nmaul3d/use_worker_thread_pool=%s\n%s\n' \
      "$main" "$engine" "$pool" "$(caps_for "$caps")" >"$project/override.cfg"
    MAUL3D_BENCH_SCENE=$scene MAUL3D_BENCH_LABEL=$run timeout 600 "${GODOT[@]}" --headless --fixed-fps 60 --path "$project" 2>&1 |
      grep '^BENCH' || echo "BENCH | $scene | $run | failed"
  done
done
