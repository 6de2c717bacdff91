#!/usr/bin/env bash
# Builds the Godot extension (godot-ext/, debug profile: the profile `cargo clippy` and
# the workspace build already keep warm), links it into the test project's addon folder,
# and runs the tests in test/godot/ in headless Godot 4.6 with Maul3D as the physics
# server. The runner prints one line per test and `N passed, M failed`; this script
# fails when Godot exits non-zero or prints no such line, or when a replay file a test
# saved from Godot does not verify with `m3replay verify`; then the comparison pass
# (test/godot/compare.sh: the cases of test/godot/compare/ under Godot Physics, Jolt and
# Maul3D, judged against each other); then, without a test filter, the example projects
# (test/godot-examples.sh).
#
# MAUL3D_GODOT_TEST=word runs only the tests whose name contains it.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

eval "$(bash test/godot-setup.sh --env)"

cargo build -p maul3d-godot
target=${CARGO_TARGET_DIR:-$repo/target}
lib=$target/debug/libmaul3d_godot.so

project=$repo/test/godot
bash test/godot-link-addon.sh "$project" "$lib"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
timeout 300 "${GODOT[@]}" --headless --path "$project" 2>&1 | tee "$log" || status=$?
if ! grep -Eq '^[0-9]+ passed, [0-9]+ failed$' "$log"; then
  echo "godot.sh: the runner printed no 'N passed, M failed' line (Godot exit $status)" >&2
  exit 1
fi
# Every replay a test recorded in Godot must verify in the replay tool.
if [[ $status == 0 ]]; then
  while IFS= read -r replay; do
    cargo run -q -p m3replay -- verify "$replay" </dev/null
  done < <(sed -n 's/^replay: //p' "$log")
fi
# The comparison pass: the same scenes under Godot Physics, Jolt and Maul3D.
if [[ $status == 0 ]]; then
  bash test/godot/compare.sh || status=$?
fi
# The example projects (examples/godot/*/), headless for a few seconds each.
if [[ $status == 0 && -z ${MAUL3D_GODOT_TEST:-} ]]; then
  bash test/godot-examples.sh || status=$?
fi
exit "$status"
