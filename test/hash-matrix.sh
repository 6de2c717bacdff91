#!/usr/bin/env bash
# The hash matrix: builds the determinism program (test/determinism) for every cell,
# runs it where it runs here, and checks every cell prints the per-step hashes committed
# in test/hashes.txt. Prints a table (cell × scene × final hash) and exits non-zero unless
# every cell matches. Cells: x86_64 release (the contact solver's lanes as dispatched: 8-wide
# AVX where the CPU has AVX2), the same binary forced to 4-wide and to scalar lanes
# (`--lanes 4`, `--lanes 1`), debug and -C target-cpu=x86-64-v3 (native),
# aarch64 (qemu-aarch64), i686 (qemu-i386), x86_64-pc-windows-gnu (mingw-w64, run under
# wine64 in a prefix of its own under ~/.cache/maul3d) and wasm32-wasip1 (Node's WASI).
#
# Regenerate test/hashes.txt (only when a change is meant to move results):
#   cargo run --release -p maul3d-determinism -- --write test/hashes.txt
set -euo pipefail
cd "$(dirname "$0")/.."

expected=test/hashes.txt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pkg=maul3d-determinism
bin=maul3d-hashes

ensure() {
  local missing=()
  for t in aarch64-unknown-linux-gnu i686-unknown-linux-gnu x86_64-pc-windows-gnu wasm32-wasip1; do
    rustup target list --installed | grep -qx "$t" || missing+=("$t")
  done
  if [ ${#missing[@]} -gt 0 ]; then rustup target add "${missing[@]}"; fi
  local pkgs=()
  command -v qemu-aarch64 >/dev/null || pkgs+=(qemu-user)
  command -v aarch64-linux-gnu-gcc >/dev/null || pkgs+=(gcc-aarch64-linux-gnu)
  command -v i686-linux-gnu-gcc >/dev/null || pkgs+=(gcc-i686-linux-gnu)
  [ -d /usr/i686-linux-gnu/lib ] || pkgs+=(libc6-dev-i386-cross)
  command -v node >/dev/null || pkgs+=(nodejs)
  # The Windows cell: one mingw-w64 compiler (the posix-threads one) and 64-bit wine, without
  # their recommends (fonts, GL, GStreamer...): a console program needs none of them.
  local lean=()
  command -v x86_64-w64-mingw32-gcc >/dev/null || lean+=(gcc-mingw-w64-x86-64-posix)
  [ -x /usr/lib/wine/wine64 ] && command -v wine >/dev/null || lean+=(wine wine64)
  if [ ${#pkgs[@]} -gt 0 ] || [ ${#lean[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -q >/dev/null
    export DEBIAN_FRONTEND=noninteractive
    if [ ${#pkgs[@]} -gt 0 ]; then $SUDO apt-get install -y -q "${pkgs[@]}" >/dev/null; fi
    if [ ${#lean[@]} -gt 0 ]; then
      $SUDO apt-get install -y -q --no-install-recommends "${lean[@]}" >/dev/null
    fi
  fi
}
ensure

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=i686-linux-gnu-gcc
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CC_i686_unknown_linux_gnu=i686-linux-gnu-gcc
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc

# Wine, headless and quiet: a 64-bit prefix of its own (made once, kept in the cache), no
# debug channels but the loader's errors (silent unless a DLL or import is missing), no
# display, and mscoree/mshtml off so that it never offers to install wine-mono or
# wine-gecko.
export WINEPREFIX="${XDG_CACHE_HOME:-$HOME/.cache}/maul3d/wine64"
export WINEARCH=win64 WINEDEBUG=-all,err+module WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY WAYLAND_DISPLAY
# Wine 8.0 has no bcryptprimitives.dll, which Rust's std imports (ProcessPrng): the prefix
# gets the stand-in from test/determinism/wine.
wine_prefix() {
  local t0 dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
  local src=test/determinism/wine/bcryptprimitives.c
  t0=$(date +%s)
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    mkdir -p "$(dirname "$WINEPREFIX")"
    if ! wine wineboot --init >"$out/wineboot.log" 2>&1; then
      echo "cell x86_64-windows: wineboot failed making $WINEPREFIX:" >&2
      tail -5 "$out/wineboot.log" >&2
      return 1
    fi
    wineserver -w
  fi
  if [ ! -f "$dll" ] || [ "$src" -nt "$dll" ]; then
    x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dll" "$src" -ladvapi32
  fi
  echo "wine prefix: $(($(date +%s) - t0)) s" >>"$out/times"
}

run_cell() {
  local cell=$1
  shift
  local t0
  t0=$(date +%s)
  local rc=0
  "$@" --fp-modes >"$out/$cell.raw" 2>"$out/$cell.err" || rc=$?
  if [ $rc -ne 0 ]; then
    echo "cell $cell: the program failed (exit status $rc):" >&2
    tail -5 "$out/$cell.err" >&2
    return 1
  fi
  # Windows' C runtime writes CR LF.
  sed -i 's/\r$//' "$out/$cell.raw"
  grep -v -e '^fp-mode' -e '^replay ' -e '^grown ' -e '^lanes ' "$out/$cell.raw" >"$out/$cell.txt" || true
  grep '^lanes ' "$out/$cell.raw" | awk '{print $2}' >"$out/$cell.lanes" || true
  grep '^grown ' "$out/$cell.raw" >"$out/$cell.grown" || true
  grep '^replay ' "$out/$cell.raw" >"$out/$cell.replay" || true
  grep '^fp-mode' "$out/$cell.raw" >"$out/$cell.fp" || true
  echo "$cell: $(($(date +%s) - t0)) s" >>"$out/times"
}

build() { cargo build -q "$@" -p $pkg; }
# Honour a target folder chosen by the caller (CARGO_TARGET_DIR), as cargo does.
t=${CARGO_TARGET_DIR:-target}

build --release
run_cell x86_64-release $t/release/$bin
run_cell x86_64-4wide $t/release/$bin --lanes 4
run_cell x86_64-scalar $t/release/$bin --lanes 1
build
run_cell x86_64-debug $t/debug/$bin
RUSTFLAGS="-C target-cpu=x86-64-v3" cargo build -q --release -p $pkg --target-dir $t/x86-64-v3
run_cell x86_64-v3 $t/x86-64-v3/release/$bin
# The two emulated cells run side by side (each is mostly one thread under qemu). The i686
# cell forces the 4-wide SSE lanes: qemu reports AVX2 but emulates it at a third of the
# speed, and the 8-wide kernel's instructions and bits are the x86_64 cells' already.
build --release --target aarch64-unknown-linux-gnu
build --release --target i686-unknown-linux-gnu
run_cell aarch64 qemu-aarch64 -L /usr/aarch64-linux-gnu $t/aarch64-unknown-linux-gnu/release/$bin &
emulated_a=$!
run_cell i686 qemu-i386 -L /usr/i686-linux-gnu $t/i686-unknown-linux-gnu/release/$bin --lanes 4 &
emulated_b=$!
wait $emulated_a
wait $emulated_b
build --release --target x86_64-pc-windows-gnu
wine_prefix
run_cell x86_64-windows wine $t/x86_64-pc-windows-gnu/release/$bin.exe
build --release --target wasm32-wasip1
run_cell wasm32 node --no-warnings test/determinism/run-wasi.mjs $t/wasm32-wasip1/release/$bin.wasm

cells="x86_64-release x86_64-4wide x86_64-scalar x86_64-debug x86_64-v3 aarch64 i686 x86_64-windows wasm32"
status=0
scenes=$(awk '{print $1}' "$expected" | uniq)
printf '%-16s %-8s' cell lanes
for s in $scenes; do printf ' %-18s' "$s"; done
printf ' %-18s %-22s %s\n' "demo.m3replay" "growth" "fp modes"
for cell in $cells; do
  printf '%-16s %-8s' "$cell" "$(cat "$out/$cell.lanes")"
  for s in $scenes; do
    last=$(awk -v s="$s" '$1==s {h=$3} END {print h}' "$out/$cell.txt")
    if diff -q <(awk -v s="$s" '$1==s' "$out/$cell.txt") <(awk -v s="$s" '$1==s' "$expected") >/dev/null; then
      printf ' %-18s' "$last"
    else
      printf ' %-18s' "DIFF:$last"
      status=1
    fi
  done
  if grep -q verified "$out/$cell.replay"; then
    printf ' %-18s' "$(awk '{print $3}' "$out/$cell.replay")"
  else
    printf ' %-18s' "NOT VERIFIED"
    status=1
  fi
  # Every scene again in a world grown as it fills (the program checks its hashes): the
  # growths must come before the same steps in every cell.
  if [ "$(grep -c 'every hash as made large' "$out/$cell.grown")" -ne "$(echo "$scenes" | wc -w)" ]; then
    printf ' %-22s' "MISSING"
    status=1
  elif cmp -s "$out/$cell.grown" "$out/x86_64-release.grown"; then
    printf ' %-22s' "same steps, same hashes"
  else
    printf ' %-22s' "DIFF"
    status=1
  fi
  if grep -q FAILED "$out/$cell.fp"; then
    printf ' FAILED\n'
    status=1
  elif grep -q 'same hashes' "$out/$cell.fp"; then
    printf ' %s cases kept\n' "$(grep -c 'same hashes' "$out/$cell.fp")"
  else
    printf ' n/a (no FP environment)\n'
  fi
done
cat "$out/times"
if [ $status -ne 0 ]; then
  echo "hash matrix: cells differ from $expected" >&2
  for cell in $cells; do
    diff "$out/$cell.txt" "$expected" | head -3 >&2 || true
  done
fi
exit $status
