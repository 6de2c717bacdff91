#!/usr/bin/env bash
# The Unreal plugin core stage: builds libmaul3d (release, static) and m3replay, compiles
# the engine-free core (Plugins/Maul3D/Source/Maul3D/{Public,Private}/Core) with
# test/unreal/core_tests.cpp against it with g++ (and clang++ where installed) at
# -std=c++20 -fno-exceptions -fno-rtti -Wall -Wextra -Werror, and once more with
# -O2 -ffast-math -mfma (Unreal's float settings): conversions, the accumulator, the
# scrubber's hashes and the task router's hashes must not change. Then runs the glue
# checks (test/unreal/glue_check.sh) when they exist.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v g++ >/dev/null; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q g++ >/dev/null
fi

cargo build -q --release -p maul3d-abi -p m3replay
lib=${CARGO_TARGET_DIR:-target}/release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
core=Plugins/Maul3D/Source/Maul3D
src=("$core"/Private/Core/*.cpp test/unreal/core_tests.cpp)
inc=(-Iunreal-abi/include -I"$core"/Public)
libs=("$lib/libmaul3d.a" -lpthread -ldl -lm)
strict=(-std=c++20 -fno-exceptions -fno-rtti -Wall -Wextra -Werror)

# What the scrubber must agree with: m3replay's per-step hashes of the demo ("STEP HASH",
# step 0 included) and the step where it says the demo and a seed-2 recording part.
"$lib/m3replay" hashes test/demo.m3replay --out "$out/h.txt"
"$lib/m3replay" record --seed 2 --out "$out/b.m3replay" >/dev/null
"$lib/m3replay" diff test/demo.m3replay "$out/b.m3replay" >"$out/diff.txt" || true
part_step=$(sed -n 's/^the sessions part at step \([0-9]*\):.*/\1/p' "$out/diff.txt")
if [ -z "$part_step" ]; then
  echo "m3replay diff did not print a parting step:" >&2
  cat "$out/diff.txt" >&2
  exit 1
fi
args=(test/demo.m3replay "$out/h.txt" "$out/b.m3replay" "$part_step")

compilers=(g++)
if command -v clang++ >/dev/null; then compilers+=(clang++); fi
for cxx in "${compilers[@]}"; do
  echo "compiling the core with $cxx"
  "$cxx" "${strict[@]}" -O1 "${inc[@]}" "${src[@]}" -o "$out/core_tests-$cxx" "${libs[@]}"
  "$cxx" "${strict[@]}" -O2 -ffast-math -mfma "${inc[@]}" "${src[@]}" -o "$out/core_tests-$cxx-fast" "${libs[@]}"
  echo "$cxx:"
  "$out/core_tests-$cxx" "${args[@]}" | tee "$out/plain.txt"
  echo "$cxx -O2 -ffast-math -mfma:"
  "$out/core_tests-$cxx-fast" "${args[@]}" | tee "$out/fast.txt"
  # The same hashes, heights and counts under fast-math.
  if ! cmp -s "$out/plain.txt" "$out/fast.txt"; then
    echo "$cxx: the -ffast-math -mfma build printed other results:" >&2
    diff "$out/plain.txt" "$out/fast.txt" >&2 || true
    exit 1
  fi
done

if [ -f test/unreal/glue_check.sh ]; then
  bash test/unreal/glue_check.sh
else
  echo "test/unreal/glue_check.sh not present: the glue checks did not run"
fi
