#!/usr/bin/env bash
# The comparison pass: every case in test/godot/compare/ (cmp_*.gd) run under Godot
# Physics, Jolt Physics (both built into Godot 4.6) and Maul3D (the debug build
# test/godot.sh links), one Godot run per engine; the Maul3D run judges each case against
# what the other two measured and prints `N passed, M failed`. Called by test/godot.sh
# after the extension is built and linked; MAUL3D_GODOT_TEST=word runs only matching cases.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
eval "$(bash test/godot-setup.sh --env)"
project=$repo/test/godot
dir=$(mktemp -d)
trap 'rm -rf "$dir"; rm -f "$project/override.cfg"' EXIT
export MAUL3D_COMPARE_DIR=$dir
log=$dir/log
status=0
for engine in "GodotPhysics3D" "Jolt Physics" "Maul3D"; do
  # override.cfg in the project folder overrides project.godot's settings.
  printf '[application]\nrun/main_scene="res://compare.tscn"\n\n[physics]\n3d/physics_engine="%s"\n' "$engine" >"$project/override.cfg"
  timeout 300 "${GODOT[@]}" --headless --fixed-fps 60 --path "$project" 2>&1 | tee "$log" || status=$?
  if [[ ! -s "$dir/$engine.json" ]]; then
    echo "compare.sh: $engine wrote no values (Godot exit $status)" >&2
    exit 1
  fi
done
if ! grep -Eq '^[0-9]+ passed, [0-9]+ failed$' "$log"; then
  echo "compare.sh: the Maul3D pass printed no 'N passed, M failed' line (Godot exit $status)" >&2
  exit 1
fi
exit "$status"
