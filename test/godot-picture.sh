#!/usr/bin/env bash
# The dock's real picture: the Godot 4.6 editor under Xvfb with the OpenGL renderer
# (Mesa's llvmpipe, Debian's software rasteriser) opens test/godot-editor/ and its test
# plugin (`-- --dock-test=picture:<dir>`) drives the "Maul3D Replay" dock as
# test/godot-editor.sh does, then renders the dock's 3D view at steps 40 and 200 of
# test/demo.m3replay and checks that the pictures differ (more than 500 pixels), that
# the differing pixels lie where bodies moved, and that an empty corner is the same
# background in both. The pictures stay in test/godot-editor/shots/ (step-40.png,
# step-200.png, dock.png: the whole dock).
#
# Installs xvfb and libgl1-mesa-dri with apt-get when they are missing (as root, or
# through sudo). `--update-docs` also copies dock.png to docs/replay-dock.png.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
update_docs=0
[[ ${1:-} == --update-docs ]] && update_docs=1

missing=()
command -v xvfb-run >/dev/null || missing+=(xvfb xauth)
dpkg -s libgl1-mesa-dri >/dev/null 2>&1 || missing+=(libgl1-mesa-dri)
if ((${#missing[@]})); then
  sudo=()
  [[ $(id -u) == 0 ]] || sudo=(sudo)
  echo "godot-picture: installing ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

eval "$(bash test/godot-setup.sh --env)"
target=${CARGO_TARGET_DIR:-$repo/target}
lib=$target/debug/libmaul3d_godot.so
[[ -f $lib ]] || cargo build -p maul3d-godot

project=$repo/test/godot-editor
bash test/godot-prepare-editor.sh "$project" "$lib"
shots=$project/shots
rm -rf "$shots"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
timeout 300 xvfb-run -a -s "-screen 0 1920x1080x24" \
  "${GODOT[@]}" --editor --rendering-driver opengl3 --audio-driver Dummy --resolution 1920x1080 \
  --path "$project" -- "--dock-test=picture:$shots" >"$log" 2>&1 || status=$?
grep -E '^(ok|FAIL) |^dock test:|^picture:|OpenGL API' "$log" || true
if [[ $status != 0 ]] || ! grep -Eq '^dock test: [0-9]+ passed, 0 failed$' "$log"; then
  echo "godot-picture: the picture test failed (Godot exit $status):" >&2
  cat "$log" >&2
  exit 1
fi
if grep -Eq '^SCRIPT ERROR' "$log"; then
  echo "godot-picture: Godot printed a script error:" >&2
  grep -E -A2 '^SCRIPT ERROR' "$log" >&2
  exit 1
fi
for f in step-40.png step-200.png dock.png; do
  [[ -s $shots/$f ]] || { echo "godot-picture: $shots/$f was not written" >&2; exit 1; }
done
if ((update_docs)); then
  mkdir -p docs
  cp "$shots/dock.png" docs/replay-dock.png
  echo "godot-picture: docs/replay-dock.png updated"
fi
echo "godot-picture: ok ($shots)"
