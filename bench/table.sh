#!/usr/bin/env bash
# The README's performance table, from the bench's output: every scene of
# ../shared/BENCH_SCENES.md on Maul3D (one and two threads) and Rapier (one thread), and,
# given the path of a Box3D checkout, Box3D's `benchmark` on the scenes it has (one and
# two workers; built as bench/box3d-compare.sh builds it). ROUNDS rounds (default 2), each
# engine right after the other on the same scene; a cell shows the rounds' range in
# ms/step. In each round every engine and thread count runs RUNS times (default 3) and
# its fastest run counts, as Box3D's `benchmark` counts the fastest of its `-r` runs
# (Maul3D's bench alternates its one- and two-thread runs, `--runs`): a run during which
# the host lent the second core elsewhere does not decide a round. Not part of the test command: wall-clock figures, for a quiet machine
# (`uptime` is printed first).
#
#   bash bench/table.sh                         # Maul3D and Rapier
#   bash bench/table.sh ~/src/box3d             # and Box3D
#   ROUNDS=1 SCENES="large_pyramid rain" bash bench/table.sh ~/src/box3d
set -euo pipefail
box3d=${1:-}
[ -n "$box3d" ] && box3d=$(cd "$box3d" && pwd)
cd "$(dirname "$0")/.."
build=${BOX3D_BUILD:-${TMPDIR:-/tmp}/maul3d-box3d-build}
scenes=${SCENES:-large_pyramid many_pyramids joint_grid convex_pile washer rain convex_vs_mesh voxels fast_capsules sleeping_crowd vehicles characters}
rounds=${ROUNDS:-2}
runs=${RUNS:-3}
box3d_scenes=" large_pyramid many_pyramids joint_grid convex_pile washer rain "

if [ -n "$box3d" ]; then
  command -v cmake >/dev/null || { echo "table: needs cmake for Box3D" >&2; exit 1; }
  cmake -S "$box3d" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBOX3D_SAMPLES=OFF \
    -DBOX3D_UNIT_TESTS=OFF -DBOX3D_BENCHMARKS=ON -DBOX3D_VALIDATE=OFF >/dev/null
  cmake --build "$build" --target benchmark -j "$(nproc)" >/dev/null
fi
cargo build -q --release -p maul3d-bench --bin maul3d-bench
target=${CARGO_TARGET_DIR:-$PWD/target}

# Run in its build folder: the benchmark writes SCENE.csv where it runs.
box3d_ms() {
  (cd "$build" && ./bin/benchmark -t=2 -w="$2" -b="$1" -r="$runs") |
    awk '/steps = /{split($0, a, "steps = "); n = a[2] + 0}
         /^run [0-9]+ :/{ms = $4 / n; if (best == "" || ms < best) best = ms}
         END {print best}'
}

# Lowest and highest of the numbers on stdin as "a–b" (one number: itself).
range() {
  sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {
    if (NR == 0) print "–"; else if (lo == hi) printf "%.2f\n", lo; else printf "%.2f–%.2f\n", lo, hi }'
}

echo "machine: $(nproc) cores; $(uptime)"
echo "fastest of $runs runs per engine and thread count, $rounds rounds"
lanes=$("$target/release/maul3d-bench" --scene rain --steps 2 --engine maul3d | sed -n 's/^maul3d lanes: //p')
echo "Maul3D solver lanes: $lanes"
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for round in $(seq "$rounds"); do
  for scene in $scenes; do
    if [ -n "$box3d" ] && [[ $box3d_scenes == *" $scene "* ]]; then
      echo "$scene box3d1 $(box3d_ms "$scene" 1)" >>"$raw"
      echo "$scene box3d2 $(box3d_ms "$scene" 2)" >>"$raw"
    fi
    out=$("$target/release/maul3d-bench" --scene "$scene" --engine both --threads 2 --runs "$runs")
    sed -n "s/^$scene maul3d=\([0-9.]*\) ms\/step rapier=\([0-9.]*\) ms\/step.*/$scene maul3d1 \1\n$scene rapier \2/p" <<<"$out" >>"$raw"
    sed -n "s/^$scene maul3d threads=2 \([0-9.]*\) ms\/step.*/$scene maul3d2 \1/p" <<<"$out" >>"$raw"
    echo "round $round: $scene done" >&2
  done
done
cell() { awk -v s="$1" -v k="$2" '$1 == s && $2 == k {print $3}' "$raw" | range; }
# Per round: Maul3D one thread over the faster of Rapier and Box3D (one worker), and the
# two-thread speed-up.
ratio() {
  awk -v s="$1" '$1 == s {v[$2, ++n[$2]] = $3}
    END {
      for (r = 1; r <= n["maul3d1"]; r++) {
        best = v["rapier", r]
        if (("box3d1", r) in v && v["box3d1", r] < best) best = v["box3d1", r]
        print v["maul3d1", r] / best
      }
    }' "$raw" | range
}
speedup() {
  awk -v s="$1" -v a="$2" -v b="$3" '$1 == s {v[$2, ++n[$2]] = $3}
    END { for (r = 1; r <= n[a]; r++) if ((b, r) in v) print v[a, r] / v[b, r] }' "$raw" | range
}
echo
echo "| scene | Maul3D 1 thread | Maul3D 2 threads | speed-up | Rapier | Box3D 1 worker | Box3D 2 workers | Box3D speed-up | Maul3D / best 1 |"
echo "|---|---|---|---|---|---|---|---|---|"
for scene in $scenes; do
  echo "| $scene | $(cell "$scene" maul3d1) | $(cell "$scene" maul3d2) | $(speedup "$scene" maul3d1 maul3d2) | $(cell "$scene" rapier) | $(cell "$scene" box3d1) | $(cell "$scene" box3d2) | $(speedup "$scene" box3d1 box3d2) | $(ratio "$scene") |"
done
