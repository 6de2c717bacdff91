#!/usr/bin/env bash
# Prepares the editor test project (test/godot-editor.sh, test/godot-picture.sh): the
# addon linked in, and under replays/ the demo replay, its hashes as `m3replay hashes`
# prints them, a second recording (another seed) and the step where `m3replay diff`
# finds the two part.
#
# Usage: bash test/godot-prepare-editor.sh <project dir> <built libmaul3d_godot.so>
set -euo pipefail
cd "$(dirname "$0")/.."
project=$1
lib=$2
bash test/godot-link-addon.sh "$project" "$lib"
replays=$project/replays
mkdir -p "$replays"
cp test/demo.m3replay "$replays/demo.m3replay"
m3replay() { cargo run -q -p m3replay -- "$@" </dev/null; }
m3replay hashes "$replays/demo.m3replay" >"$replays/demo.hashes"
rm -f "$replays/other.m3replay"
m3replay record --seed 2 --out "$replays/other.m3replay" >/dev/null
# `m3replay diff` exits 1 when the sessions part, as they do here.
step=$( (m3replay diff "$replays/demo.m3replay" "$replays/other.m3replay" || true) | sed -n 's/^the sessions part at step \([0-9]*\):.*/\1/p')
if [[ -z $step ]]; then
  echo "godot-prepare-editor: m3replay diff found no parting step" >&2
  exit 1
fi
echo "$step" >"$replays/diff.txt"
