#!/usr/bin/env bash
# Maul3D against Box3D on the scenes both benchmarks have, on one and two workers,
# alternately on the same machine (issue 19). Box3D is not part of the repository: give
# the path of a Box3D checkout (github.com/erincatto/box3d); its `benchmark` app is built
# in Release in a scratch folder outside the repository, then for each round and scene
# Box3D runs (`benchmark -t=2 -w=1|2 -b=SCENE -r=1`), then Maul3D's bench
# (`maul3d-bench --scene SCENE --engine maul3d --threads 2`, one and two threads). Prints
# one line per scene and round with ms/step and the ratios. Not part of the test command:
# wall-clock figures; run it on a quiet machine (`uptime` is printed first).
#
#   bash bench/box3d-compare.sh ~/src/box3d                 # ROUNDS=2 by default
#   ROUNDS=3 SCENES="large_pyramid joint_grid" bash bench/box3d-compare.sh ~/src/box3d
#   BOX3D_BUILD=/tmp/b3 bash bench/box3d-compare.sh ~/src/box3d   # where Box3D builds
#   STAGES=1 bash bench/box3d-compare.sh ~/src/box3d   # and each engine's stages, one worker
#
# With STAGES=1, each scene and round also prints Box3D's stage times on one worker
# (`benchmark ... -s` writes SCENE_t1.dat, one line per step: step, pairs, collide,
# constraints, transforms, refit, sleep; averaged here) and Maul3D's profile line.
set -euo pipefail
box3d=${1:?usage: bash bench/box3d-compare.sh <path of a Box3D checkout>}
box3d=$(cd "$box3d" && pwd)
cd "$(dirname "$0")/.."
build=${BOX3D_BUILD:-${TMPDIR:-/tmp}/maul3d-box3d-build}
scenes=${SCENES:-large_pyramid many_pyramids joint_grid convex_pile washer rain}
rounds=${ROUNDS:-2}

if ! command -v cmake >/dev/null; then
  echo "box3d-compare: needs cmake (Debian: apt-get install cmake)" >&2
  exit 1
fi
cmake -S "$box3d" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBOX3D_SAMPLES=OFF \
  -DBOX3D_UNIT_TESTS=OFF -DBOX3D_BENCHMARKS=ON -DBOX3D_VALIDATE=OFF >/dev/null
cmake --build "$build" --target benchmark -j "$(nproc)" >/dev/null
cargo build --release -p maul3d-bench --bin maul3d-bench
target=${CARGO_TARGET_DIR:-$PWD/target}

# Box3D's ms/step: its one run's total over its step count.
# Run in its build folder: the benchmark writes SCENE.csv where it runs.
box3d_ms() {
  (cd "$build" && ./bin/benchmark -t=2 -w="$2" -b="$1" -r=1) |
    awk '/steps = /{split($0, a, "steps = "); n = a[2] + 0}
         /^run 0 :/{print $4 / n}'
}

# Box3D's stage times on one worker, averaged over its steps (ms).
box3d_stages() {
  (cd "$build" && rm -f "$1_t1.dat" && ./bin/benchmark -t=2 -w=1 -b="$1" -r=1 -s >/dev/null &&
    awk '{for (i = 1; i <= NF; i++) t[i] += $i; n++}
      END {printf "step %.2f = pairs %.2f + collide %.2f + constraints %.2f + transforms %.2f + refit %.2f + sleep %.2f ms\n",
        t[1] / n, t[2] / n, t[3] / n, t[4] / n, t[5] / n, t[6] / n, t[7] / n}' "$1_t1.dat")
}

echo "machine: $(nproc) cores; $(uptime)"
for round in $(seq "$rounds"); do
  for scene in $scenes; do
    if [ "${STAGES:-0}" = 1 ]; then
      echo "$scene round $round box3d stages: $(box3d_stages "$scene")"
      "$target/release/maul3d-bench" --scene "$scene" --engine maul3d |
        sed -n "s/^$scene maul3d profile: /$scene round $round maul3d stages: /p"
    fi
    b1=$(box3d_ms "$scene" 1)
    b2=$(box3d_ms "$scene" 2)
    out=$("$target/release/maul3d-bench" --scene "$scene" --engine maul3d --threads 2)
    m1=$(sed -n "s/^$scene maul3d=\([0-9.]*\) ms\/step.*/\1/p" <<<"$out")
    m2=$(sed -n "s/^$scene maul3d threads=2 \([0-9.]*\) ms\/step.*/\1/p" <<<"$out")
    awk -v s="$scene" -v r="$round" -v b1="$b1" -v b2="$b2" -v m1="$m1" -v m2="$m2" 'BEGIN {
      printf "%s round %d: box3d 1w %.2f 2w %.2f (x%.2f) | maul3d 1t %.2f 2t %.2f (x%.2f) | maul3d/box3d 1: %.2f 2: %.2f\n",
        s, r, b1, b2, b1 / b2, m1, m2, m1 / m2, m1 / b1, m2 / b2 }'
  done
done
