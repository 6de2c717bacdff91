#!/usr/bin/env bash
# The editor dock in the real Godot 4.6 editor, headless: links the built addon into
# test/godot-editor/ (a project with the Maul3D plugin and a test-only plugin enabled),
# puts test/demo.m3replay there with what `m3replay hashes` and `m3replay diff` say about
# it, and starts `godot --headless --editor` with `-- --dock-test`. The test plugin
# (test/godot-editor/dock_test/) finds the "Maul3D Replay" dock, opens the replay, moves
# the timeline, steps, picks a body, verifies and diffs, checks what the dock shows, and
# quits with its verdict. Fails when Godot exits non-zero, prints no
# `dock test: N passed, 0 failed` line, or prints a deprecation warning or a script error.
# Then the same project without the library: the plugin must warn (naming the platform
# and the file maul3d.gdextension gives it) and the dock show that message.
#
# Needs the built extension (debug profile; test/godot.sh builds it) and m3replay.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

eval "$(bash test/godot-setup.sh --env)"
target=${CARGO_TARGET_DIR:-$repo/target}
lib=$target/debug/libmaul3d_godot.so
[[ -f $lib ]] || cargo build -p maul3d-godot

project=$repo/test/godot-editor
bash test/godot-prepare-editor.sh "$project" "$lib"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
timeout 300 "${GODOT[@]}" --headless --editor --path "$project" -- --dock-test >"$log" 2>&1 || status=$?
grep -E '^(ok|FAIL) |^dock test:' "$log" || true
if [[ $status != 0 ]] || ! grep -Eq '^dock test: [0-9]+ passed, 0 failed$' "$log"; then
  echo "godot-editor: the dock test failed (Godot exit $status):" >&2
  cat "$log" >&2
  exit 1
fi
if grep -Eiq 'deprecat|^SCRIPT ERROR|^ERROR' "$log"; then
  echo "godot-editor: Godot printed a deprecation warning or an error:" >&2
  grep -Ei -A2 'deprecat|^SCRIPT ERROR|^ERROR' "$log" >&2
  exit 1
fi

# Without the library: a copy of the project with the library's link removed. The plugin
# must warn, naming the platform and the file, and the dock show that message.
bare=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$bare"' EXIT
cp -r "$project"/project.godot "$project"/dock_test "$project"/addons "$project"/replays "$bare/"
mkdir -p "$bare/.godot"
cp "$project/.godot/extension_list.cfg" "$bare/.godot/"
file=$(sed -n 's|^linux\.x86_64 *= *"res://\(.*\)"|\1|p' "$project/addons/maul3d/maul3d.gdextension")
rm -f "$bare/$file"
status=0
timeout 300 "${GODOT[@]}" --headless --editor --path "$bare" -- --dock-test=missing >"$log" 2>&1 || status=$?
grep -E '^(ok|FAIL) |^dock test:' "$log" || true
if [[ $status != 0 ]] || ! grep -Eq '^dock test: [0-9]+ passed, 0 failed$' "$log"; then
  echo "godot-editor: the missing-library test failed (Godot exit $status):" >&2
  cat "$log" >&2
  exit 1
fi
if ! grep -q "^WARNING: Maul3D: the native library did not load on $(uname -s) .*$file" "$log"; then
  echo "godot-editor: no editor warning naming the platform and $file:" >&2
  cat "$log" >&2
  exit 1
fi
echo "godot-editor: ok"
