#!/usr/bin/env bash
# The C ABI stage: builds libmaul3d (release) and compiles, with gcc and g++, the C and
# C++ programs of test/c-abi against unreal-abi/include, then runs them:
#   seeds        the seeds' C snippets, verbatim (hash, compare; journal, replay)
#   scenes       the determinism scenes through the ABI: per-step hashes equal to
#                test/hashes.txt plain, with 4 pthread workers, with every call in
#                FE_UPWARD + FTZ/DAZ (mode checked unchanged), built -O2 -ffast-math,
#                and linked against the shared library
#   cpp_scenes   the same through maul3d.hpp and its job-system adapter (a thread pool),
#                -std=c++17 -fno-exceptions -fno-rtti -Wall -Werror
#   errors       every m3Result error code, busy from inside each hook, hashes unchanged
#   surface      events, queries, motion test, explosion, areas, every joint kind, debug
#                draw, counters, origin shift, host math, cylinders and planes, meshes
#                and height fields, against closed forms
#   threads      four worlds stepped on four threads at once; four threads reading one
#                world
#   rollback     rollback-aware journals: 50 random rollbacks of 1-8 steps while recording
#                leave the tape of the surviving calls, byte for byte, and it verifies;
#                snapshots from before the journal, another journal or a rewound branch
#                are m3_errorState
#   version      a header with a bumped ABI version is refused with m3_errorVersion
#   replay       the replay player (m3ReplayPlayer_*) on test/demo.m3replay: every step
#                seeked, stepped back and forward, scrambled seeks with other keyframes,
#                hashes equal to `m3replay hashes`; verify; bodies and debug draw at a
#                step; damaged copies are m3_errorFormat; bad arguments refused with the
#                player unchanged; diff against a seed-2 recording parts at the step and
#                with the body count `m3replay diff` prints
#   cpp_replay   the same (shorter) through maul3d.hpp's m3::ReplayPlayer
#   gameplay     characters (a walk up a 0.3 m step), vehicles (rest at m·g/4k, a drive),
#                water (a box of density 500 floats at half its height), refusals with
#                hashes unchanged, snapshot round trip with all three present
#   cpp_gameplay the same objects through maul3d.hpp
#   soft         soft bodies: a 16x16 cloth pinned at two corners hangs within its sag
#                bound and settles, position buffers equal the per-particle getters, a
#                volume and a pressure ball rest keeping their volume within 5 %, a cloth
#                corner holds a box, refusals with hashes unchanged, a cloth ignoring a
#                static box falls through it (one that does not rests on it), snapshot
#                round trip
#   cpp_soft     soft bodies through maul3d.hpp's m3::SoftBody
# and the C programs again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Idempotent: builds into a temporary folder, installs gcc/g++ only if missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v gcc >/dev/null || ! command -v g++ >/dev/null; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q gcc g++ >/dev/null
fi

cargo build -q --release -p maul3d-abi -p m3replay
lib=${CARGO_TARGET_DIR:-target}/release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
inc=(-Iunreal-abi/include -Itest/c-abi)
libs=("$lib/libmaul3d.a" -lpthread -ldl -lm)
strict=(-Wall -Wextra -Werror -ffp-contract=off)
# Every scene of test/hashes.txt: the C scenes (scenes.h) build all of them.
expected=test/hashes.txt

cc() { gcc -std=c11 -O2 "${strict[@]}" "${inc[@]}" "$@"; }

echo "compiling"
cc test/c-abi/seeds.c -o "$out/seeds" "${libs[@]}"
cc test/c-abi/errors.c -o "$out/errors" "${libs[@]}"
cc test/c-abi/surface.c -o "$out/surface" "${libs[@]}"
cc test/c-abi/threads.c -o "$out/threads" "${libs[@]}"
cc test/c-abi/rollback.c -o "$out/rollback" "${libs[@]}"
cc test/c-abi/scenes.c -o "$out/scenes" "${libs[@]}"
cc test/c-abi/version.c -o "$out/version" "${libs[@]}"
cc test/c-abi/replay.c -o "$out/replay" "${libs[@]}"
cc test/c-abi/gameplay.c -o "$out/gameplay" "${libs[@]}"
cc test/c-abi/soft.c -o "$out/soft" "${libs[@]}"
gcc -std=c11 -O2 -ffast-math "${inc[@]}" test/c-abi/scenes.c -o "$out/scenes-fast" "${libs[@]}"
gcc -std=c11 -O2 "${strict[@]}" "${inc[@]}" test/c-abi/scenes.c -o "$out/scenes-shared" \
  -L"$lib" -lmaul3d -Wl,-rpath,"$(cd "$lib" && pwd)" -lpthread -lm
g++ -std=c++17 -O2 -fno-exceptions -fno-rtti -Wall -Wextra -Werror -ffp-contract=off "${inc[@]}" \
  test/c-abi/cpp_scenes.cpp -o "$out/cpp_scenes" "${libs[@]}"
g++ -std=c++17 -O2 -fno-exceptions -fno-rtti -Wall -Wextra -Werror -ffp-contract=off "${inc[@]}" \
  test/c-abi/cpp_replay.cpp -o "$out/cpp_replay" "${libs[@]}"
g++ -std=c++17 -O2 -fno-exceptions -fno-rtti -Wall -Wextra -Werror -ffp-contract=off "${inc[@]}" \
  test/c-abi/cpp_gameplay.cpp -o "$out/cpp_gameplay" "${libs[@]}"
g++ -std=c++17 -O2 -fno-exceptions -fno-rtti -Wall -Wextra -Werror -ffp-contract=off "${inc[@]}" \
  test/c-abi/cpp_soft.cpp -o "$out/cpp_soft" "${libs[@]}"
mkdir -p "$out/bumped"
sed 's/^#define M3_ABI_VERSION_MINOR \([0-9]*\)$/echo "#define M3_ABI_VERSION_MINOR $((\1 + 1))"/e' \
  unreal-abi/include/maul3d.h >"$out/bumped/maul3d.h"
if cmp -s unreal-abi/include/maul3d.h "$out/bumped/maul3d.h"; then
  echo "could not bump M3_ABI_VERSION_MINOR in a copy of the header" >&2
  exit 1
fi
gcc -std=c11 -O2 "${strict[@]}" -DM3_BUMPED_HEADER -I"$out/bumped" test/c-abi/version.c \
  -o "$out/version-bumped" "${libs[@]}"
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1)
for p in seeds errors surface threads rollback scenes replay gameplay soft; do
  gcc -std=c11 "${san[@]}" "${strict[@]}" "${inc[@]}" "test/c-abi/$p.c" -o "$out/$p-asan" "${libs[@]}"
done

hashes() {
  local name=$1
  shift
  if ! "$@" >"$out/run.txt" 2>"$out/run.err"; then
    echo "$name: the program failed:" >&2
    tail -5 "$out/run.err" >&2
    exit 1
  fi
  if ! cmp -s "$out/run.txt" "$expected"; then
    echo "$name: per-step hashes differ from $expected:" >&2
    diff "$out/run.txt" "$expected" | head -5 >&2
    exit 1
  fi
  echo "$name: $(wc -l <"$out/run.txt") per-step hashes equal to $expected $(cat "$out/run.err")"
}

"$out/seeds"
"$out/errors" >"$out/errors.txt" || { cat "$out/errors.txt"; exit 1; }
tail -1 "$out/errors.txt"
"$out/surface"
"$out/threads"
"$out/rollback"
"$out/version"
"$out/version-bumped"
"$out/gameplay"
"$out/cpp_gameplay"
"$out/soft"
"$out/cpp_soft"
# What the replay player must agree with: m3replay's per-step hashes of the demo, and
# where it says the demo and a seed-2 recording part.
m3replay=${CARGO_TARGET_DIR:-target}/release/m3replay
"$m3replay" hashes test/demo.m3replay --out "$out/demo_hashes.txt"
"$m3replay" record --seed 2 --steps 300 --out "$out/b.m3replay" >/dev/null
"$m3replay" diff test/demo.m3replay "$out/b.m3replay" >"$out/diff.txt" || true
part_step=$(sed -n 's/^the sessions part at step \([0-9]*\):.*/\1/p' "$out/diff.txt")
part_bodies=$(sed -n 's/^\([0-9]*\) bod\(y\|ies\) differ.*/\1/p' "$out/diff.txt")
if [ -z "$part_step" ] || [ -z "$part_bodies" ]; then
  echo "m3replay diff did not print a parting step and body count:" >&2
  cat "$out/diff.txt" >&2
  exit 1
fi
replay_args=(test/demo.m3replay "$out/demo_hashes.txt" "$out/b.m3replay" "$part_step" "$part_bodies")
"$out/replay" "${replay_args[@]}"
"$out/cpp_replay" "${replay_args[@]:0:4}"
hashes "scenes (1 thread)" "$out/scenes"
hashes "scenes (4 pthread workers)" "$out/scenes" --workers 4
hashes "scenes (FE_UPWARD + FTZ/DAZ, 4 workers)" "$out/scenes" --workers 4 --odd-fp
hashes "scenes (-O2 -ffast-math)" "$out/scenes-fast"
hashes "scenes (-O2 -ffast-math, FE_UPWARD + FTZ/DAZ)" "$out/scenes-fast" --odd-fp
hashes "scenes (shared library)" "$out/scenes-shared" --workers 4
hashes "cpp_scenes (maul3d.hpp, job adapter)" "$out/cpp_scenes"
hashes "cpp_scenes (FE_UPWARD + FTZ/DAZ)" "$out/cpp_scenes" --odd-fp
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$out/seeds-asan" >/dev/null
"$out/errors-asan" >/dev/null
"$out/surface-asan" >/dev/null
"$out/threads-asan" >/dev/null
"$out/rollback-asan" >/dev/null
"$out/replay-asan" "${replay_args[@]}" >/dev/null
"$out/gameplay-asan" >/dev/null
"$out/soft-asan" >/dev/null
hashes "scenes (ASan + UBSan, 4 workers)" "$out/scenes-asan" --workers 4
echo "sanitizers: seeds, errors, surface, threads, rollback, replay, gameplay, soft and scenes ran clean under ASan + UBSan"
