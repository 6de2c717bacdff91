#!/usr/bin/env bash
# Builds the Unreal plugin's prebuilt libraries and the plugin archive: the static library
# of the m3 C ABI (crate maul3d-abi, unreal-abi/) for Linux x86_64, Linux arm64 and Win64,
# with the `dist` profile (release code, no debug info); puts them with the headers
# (unreal-abi/include/maul3d.h, maul3d.hpp) into the ThirdParty module
# Plugins/Maul3D/Source/ThirdParty/Maul3DLibrary/ (include/, lib/<Platform>/, gitignored);
# writes <target>/maul3d-unreal-plugin-<version>.zip holding Plugins/Maul3D/ as it is
# (plus LICENSE and Docs/unreal.md; without Binaries/ and Intermediate/); then checks the zip.
#
# Only static libraries are built (`cargo rustc --crate-type staticlib`): no link step, so
# Win64 (x86_64-pc-windows-msvc) needs no link.exe. A static library keeps the debug info
# of the Rust standard library's objects (the profile's strip applies to linked files
# only) and their embedded LLVM bitcode (.llvmbc, read only by rustc's LTO); both are
# removed with llvm-objcopy --strip-debug --remove-section (member by member for Win64).
#
# The checks, per library (llvm tools, every format): every function maul3d.h declares is
# defined (m3World_CreateVersioned, which the header's inline m3World_Create calls, and
# m3ReplayPlayer_Open among them); every member has the platform's object format and
# machine; no debug sections; Linux: a C program using the header links against it and
# the system libraries that Maul3DLibrary.Build.cs names (with -nodefaultlibs, so that the
# list is what is tested), and on an x86_64 host runs (creates a world, steps it).
# Also: the zip's headers equal unreal-abi/include's, and it holds Maul3D.uplugin and
# Maul3DLibrary.Build.cs. They end in a table: platform, file, size, symbols, machine,
# debug info, links.
#
# Usage:
#   bash tools/package-unreal.sh                    build, fill the ThirdParty module, zip, check
#   bash tools/package-unreal.sh --check-only [ZIP] check an existing zip (default: the one
#                                                   this version writes)
#   --mac-lib FILE  put a universal libmaul3d.a built on a Mac (docs/unreal.md "Packaging")
#                   in lib/Mac/ (checked here: both architectures, the symbols)
#   --no-install    do not install missing rustup targets or Debian packages
#
# Installs what it needs when missing (rustup targets aarch64-unknown-linux-gnu,
# x86_64-pc-windows-msvc; rustup component llvm-tools; apt-get as root:
# gcc-aarch64-linux-gnu (the arm64 link check), gcc, zip, unzip, python3). The Mac check
# uses llvm-lipo (Debian package llvm) when there is one. Not part of test/run.sh: cold cross builds take minutes.
# <target> is $CARGO_TARGET_DIR, or target/ in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# shellcheck source=tools/lib-checks.sh
source tools/lib-checks.sh
target=${CARGO_TARGET_DIR:-$repo/target}

check_only=false
zip_path=
mac_lib=
install=true
while [[ $# -gt 0 ]]; do
  case $1 in
    --check-only)
      check_only=true
      if [[ $# -gt 1 && $2 != --* ]]; then
        zip_path=$2
        shift
      fi
      ;;
    --mac-lib)
      mac_lib=$(realpath "${2:?--mac-lib needs a file}")
      shift
      ;;
    --no-install) install=false ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
      exit 0
      ;;
    *)
      echo "package-unreal: unknown argument '$1' (see --help)" >&2
      exit 2
      ;;
  esac
  shift
done

version=$(workspace_version package-unreal)
zip_path=$(realpath -m "${zip_path:-$target/maul3d-unreal-plugin-$version.zip}")
module=Plugins/Maul3D/Source/ThirdParty/Maul3DLibrary

# Unreal platform (lib/<Platform>/ and Maul3DLibrary.Build.cs) -> Rust target, file name.
platforms=(Linux LinuxArm64 Win64)
declare -A triple=(
  [Linux]=x86_64-unknown-linux-gnu
  [LinuxArm64]=aarch64-unknown-linux-gnu
  [Win64]=x86_64-pc-windows-msvc
)
declare -A libname=([Linux]=libmaul3d.a [LinuxArm64]=libmaul3d.a [Win64]=maul3d.lib [Mac]=libmaul3d.a)
# What llvm-objdump -f calls the members' formats (Win64: objects, and import files for
# the Windows DLL functions the standard library binds by raw-dylib).
declare -A format=([Linux]=elf64-x86-64 [LinuxArm64]=elf64-littleaarch64 [Win64]=COFF-import-file,coff-x86-64)

# llvm-lipo comes versioned only (llvm-lipo-14) in some Debian packages.
lipo_tool() {
  command -v llvm-lipo || compgen -c llvm-lipo- | sort -V | tail -1
}

# The LLVM tools of the Rust toolchain (rustup component llvm-tools: the LLVM rustc itself
# uses; Debian 12's LLVM 14 cannot write a COFF archive, and neither strips one that holds
# import files).
llvm_bin=$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin
llvm() {
  local tool=$1
  shift
  "$llvm_bin/$tool" "$@"
}

need_tools() {
  local missing=()
  command -v gcc >/dev/null || missing+=(gcc)
  command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
  command -v zip >/dev/null || missing+=(zip)
  command -v unzip >/dev/null || missing+=(unzip)
  command -v python3 >/dev/null || missing+=(python3)
  apt_install package-unreal "$install" "${missing[@]}"
  if [[ ! -x $llvm_bin/llvm-objcopy ]]; then
    $install || {
      echo "package-unreal: rustup component llvm-tools missing (rustup component add llvm-tools)" >&2
      exit 1
    }
    rustup component add llvm-tools
  fi
}

# Removes debug sections and embedded bitcode from static library $1 in place. ELF: the
# archive at once. COFF (.lib): it also holds import files (raw-dylib imports of Windows
# DLLs) that llvm-objcopy refuses, under repeated names; so each member is written out,
# the objects stripped, and the archive made again in the same order (llvm-ar q keeps
# repeated names) with a COFF symbol table.
strip_lib() {
  local lib=$1 kind=$2
  if [[ $kind == elf ]]; then
    llvm llvm-objcopy --strip-debug --remove-section=.llvmbc --remove-section=.llvmcmd "$lib"
    return
  fi
  local work
  work=$(mktemp -d)
  python3 - "$lib" "$work" "$llvm_bin" <<'PY'
import os, subprocess, sys
lib, work, bin = sys.argv[1:4]
data = open(lib, 'rb').read()
assert data[:8] == b'!<arch>\n', lib + ': not an ar archive'
pos, longnames, paths = 8, b'', []
while pos < len(data):
    head = data[pos:pos + 60]
    name, size = head[:16].decode().rstrip(), int(head[48:58].decode())
    body = data[pos + 60:pos + 60 + size]
    pos += 60 + size + (size & 1)
    if name in ('/', '/SYM64/'):
        continue  # symbol tables: llvm-ar writes them again
    if name == '//':
        longnames = body
        continue
    if name.startswith('/') and name[1:].isdigit():
        # GNU ends a long name with '/\n', COFF with a NUL.
        off = int(name[1:])
        ends = [i for i in (longnames.find(b'\n', off), longnames.find(b'\0', off)) if i >= 0]
        name = longnames[off:min(ends + [len(longnames)])].decode()
    path = os.path.join(work, '%05d' % len(paths), name.rstrip('/'))
    os.makedirs(os.path.dirname(path))
    open(path, 'wb').write(body)
    # A COFF import file starts 0x0000 0xFFFF; it has no sections to strip.
    if body[:4] != b'\x00\x00\xff\xff':
        subprocess.run([bin + '/llvm-objcopy', '--strip-debug', '--remove-section=.llvmbc',
                        '--remove-section=.llvmcmd', path], check=True)
    paths.append(path)
os.remove(lib)
subprocess.run([bin + '/llvm-ar', '--format=coff', 'qcs', lib] + paths, check=True)
PY
  rm -rf "$work"
}

build() {
  need_tools
  local p triples=()
  for p in "${platforms[@]}"; do triples+=("${triple[$p]}"); done
  rustup_targets package-unreal "$install" "${triples[@]}"

  mkdir -p "$module/include"
  cp unreal-abi/include/maul3d.h unreal-abi/include/maul3d.hpp "$module/include/"
  local out
  for p in "${platforms[@]}"; do
    echo "package-unreal: building $p (${triple[$p]}, profile dist, static library)"
    nice cargo rustc --locked -p maul3d-abi --profile dist --target "${triple[$p]}" --crate-type staticlib
    out=$module/lib/$p/${libname[$p]}
    mkdir -p "$(dirname "$out")"
    cp "$target/${triple[$p]}/dist/${libname[$p]}" "$out"
    if [[ $p == Win64 ]]; then strip_lib "$out" coff; else strip_lib "$out" elf; fi
  done
  if [[ -n $mac_lib ]]; then
    mkdir -p "$module/lib/Mac"
    cp "$mac_lib" "$module/lib/Mac/libmaul3d.a"
  fi

  local stage=$target/unreal-package
  rm -rf "$stage"
  mkdir -p "$stage/Plugins"
  # The plugin folder as it is (the other modules, the filled ThirdParty module), without
  # Unreal's build outputs.
  tar -C Plugins --exclude=Maul3D/Binaries --exclude=Maul3D/Intermediate --exclude=.gitignore \
    -cf - Maul3D | tar -C "$stage/Plugins" -xf -
  [[ -f $stage/Plugins/Maul3D/LICENSE ]] || cp LICENSE "$stage/Plugins/Maul3D/LICENSE"
  if [[ -f docs/unreal.md ]]; then
    mkdir -p "$stage/Plugins/Maul3D/Docs"
    cp docs/unreal.md "$stage/Plugins/Maul3D/Docs/unreal.md"
  fi
  rm -f "$zip_path"
  (cd "$stage" && zip -q -r -X "$zip_path" Plugins)
  echo "package-unreal: wrote $zip_path ($(stat -c %s "$zip_path") bytes)"
}

# The functions maul3d.h declares (not the header-inline m3World_Create).
header_functions() {
  grep -E '^[^ /#].*\bm3[A-Za-z0-9_]+\(' "$1" | grep -v '^static' | grep -oE 'm3[A-Za-z0-9_]+\(' | tr -d '(' | sort -u
}

# Prints "ok (N/N)" when every header function is defined in library $1 (Mach-O names carry
# a leading underscore: $3), else the missing ones; returns 1 then.
symbols_of() {
  local lib=$1 header=$2 prefix=${3:-} want have missing n
  want=$(header_functions "$header")
  have=$(llvm llvm-nm --defined-only -g "$lib" 2>/dev/null | awk -v p="$prefix" '$2 ~ /^[TtDdRr]$/ && index($3, p "m3") == 1 { print substr($3, length(p) + 1) }' | sort -u)
  missing=$(comm -23 <(echo "$want") <(echo "$have"))
  [[ -z $missing ]] || missing="$(wc -l <<<"$missing") of $(echo "$want" | wc -l): $(head -3 <<<"$missing" | paste -sd, -)$([[ $(wc -l <<<"$missing") -gt 3 ]] && echo ", ...")"
  n=$(echo "$want" | wc -l)
  for f in m3World_CreateVersioned m3ReplayPlayer_Open; do
    grep -qx "$f" <<<"$want" || missing="${missing:+$missing,}$f(not in header)"
  done
  if [[ -z $missing ]]; then
    echo "ok ($n/$n)"
  else
    echo "MISSING: $missing"
    return 1
  fi
}

# Every member's object format equals $2: prints ok, or what it found.
formats_of() {
  local found
  found=$(llvm llvm-objdump -f "$1" 2>&1 | sed -n 's/.*file format //p' | sort -u | paste -sd, -)
  if [[ $found == "$2" ]]; then echo "ok ($2)"; else
    echo "WRONG ($found)"
    return 1
  fi
}

# Debug sections left in any member (ELF/COFF .debug*, Mach-O __debug_*).
debug_sections() {
  llvm llvm-objdump -h "$1" 2>/dev/null | awk '$2 ~ /^(\.debug|__debug|\.zdebug)/' | wc -l
}

# The libraries Maul3DLibrary.Build.cs links on platform $2 (its PublicSystemLibraries
# block for that platform), one a line.
build_cs_system_libs() {
  awk -v plat="UnrealTargetPlatform.$2)" '
    index($0, plat) { inside = 1; next }
    inside && /PublicSystemLibraries/ { grab = 1 }
    grab { line = $0; while (match(line, /"[^"]*"/)) { print substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) } }
    grab && /\);/ { exit }
    inside && /^[[:space:]]*else/ { exit }' "$1"
}

# Links a C program against library $2 with compiler $1, -nodefaultlibs and the system
# libraries Build.cs names for platform $3; with run=true, runs it. Prints the result.
link_check() {
  local cc=$1 lib=$2 plat=$3 run=$4 dir=$5 libs=() l
  mapfile -t libs < <(build_cs_system_libs "$dir/Plugins/Maul3D/Source/ThirdParty/Maul3DLibrary/Maul3DLibrary.Build.cs" "$plat")
  [[ ${#libs[@]} -gt 0 ]] || {
    echo "NO LIBS in Build.cs"
    return 1
  }
  cat >"$dir/link_check.c" <<'C'
#include <stdio.h>
#include "maul3d.h"

int main(void)
{
    m3WorldDef def = m3DefaultWorldDef();
    m3WorldId world;
    if (m3World_Create(&def, &world) != m3_success) return 1;
    for (int i = 0; i < 10; ++i)
        if (m3World_Step(world, 1.0f / 60.0f, 4) != m3_success) return 2;
    printf("LINK_CHECK hash %016llx\n", (unsigned long long)m3World_Hash(world));
    /* The replay player is linked in too (refuses empty bytes, does not crash). */
    struct m3ReplayPlayer *player = NULL;
    if (m3ReplayPlayer_Open(NULL, 0, &player) == m3_success) return 4;
    return m3World_Destroy(world) == m3_success ? 0 : 3;
}
C
  local args=()
  for l in "${libs[@]}"; do args+=("-l$l"); done
  if ! "$cc" -std=c11 -Wall -Wextra -Werror -I "$dir/Plugins/Maul3D/Source/ThirdParty/Maul3DLibrary/include" \
    -o "$dir/link_check" "$dir/link_check.c" -nodefaultlibs "$lib" "${args[@]}" >"$dir/link.log" 2>&1; then
    echo "NO"
    tail -5 "$dir/link.log" >&2
    return 1
  fi
  if $run; then
    if "$dir/link_check" | grep -q '^LINK_CHECK hash '; then echo "links, runs"; else
      echo "links, RUN FAILED"
      return 1
    fi
  else
    echo "links"
  fi
}

# Win64 (no MSVC tools here): lld-link (rust-lld, the Rust toolchain's) links library $1
# into a DLL with m3World_CreateVersioned and m3ReplayPlayer_Open forced in and no other
# library; what stays undefined must be only the C runtime's (memcpy, __chkstk, the C++
# exception handler Rust's unwinding uses, ...) and imports of Windows DLL functions
# (kernel32 & co., Build.cs's list) - never an m3 function or Rust code, which would mean
# the archive lost a member or its symbol table is broken. Prints the result.
coff_link_check() {
  local lib=$1 dir=$2 undefined bad imports
  (cd "$dir" && llvm rust-lld -flavor link /dll /noentry /nodefaultlib /machine:x64 /errorlimit:0 /demangle:no \
    /include:m3World_CreateVersioned /include:m3ReplayPlayer_Open /out:coff_check.dll "$lib") >"$dir/lld.log" 2>&1 || true
  if grep -v '^>>>' "$dir/lld.log" | grep -E 'error|warning' | grep -qv 'undefined symbol: '; then
    echo "NO"
    tail -5 "$dir/lld.log" >&2
    return 1
  fi
  undefined=$(grep -o 'undefined symbol: .*' "$dir/lld.log" | sed 's/^undefined symbol: //' | sort -u)
  bad=$(grep -E '^(m3|_R|_ZN|__imp_m3)' <<<"$undefined" | head -3 | paste -sd, -)
  imports=$(grep -c '^__imp_' <<<"$undefined" || true)
  if [[ -n $bad ]]; then
    echo "UNRESOLVED: $bad"
    return 1
  fi
  echo "resolves (lld-link; left: C runtime, $imports Windows imports)"
}

check() {
  [[ -f $zip_path ]] || {
    echo "package-unreal: no zip at $zip_path (build it: bash tools/package-unreal.sh)" >&2
    exit 1
  }
  local dir
  dir=$(mktemp -d)
  # shellcheck disable=SC2064
  trap "rm -rf '$dir'" EXIT
  unzip -q "$zip_path" -d "$dir"
  local failed=0 rows=() p file rel size mib sym mach dbg links header
  local mod=$dir/$module
  header=$mod/include/maul3d.h
  for f in Plugins/Maul3D/Maul3D.uplugin "$module/Maul3DLibrary.Build.cs" "$module/include/maul3d.h" "$module/include/maul3d.hpp"; do
    if [[ ! -f $dir/$f ]]; then
      echo "package-unreal: the zip has no $f" >&2
      failed=1
    fi
  done
  for f in maul3d.h maul3d.hpp; do
    if [[ -f $mod/include/$f ]] && ! cmp -s "$mod/include/$f" "unreal-abi/include/$f"; then
      echo "package-unreal: the zip's include/$f differs from unreal-abi/include/$f (stale zip)" >&2
      failed=1
    fi
  done
  [[ -f $header ]] || header=unreal-abi/include/maul3d.h
  for p in "${platforms[@]}" Mac; do
    rel=lib/$p/${libname[$p]}
    file=$mod/$rel
    if [[ ! -f $file ]]; then
      if [[ $p == Mac ]]; then
        rows+=("$p|$rel|-|-|not in zip (built on a Mac)|-|-|-")
      else
        rows+=("$p|$rel|-|-|MISSING|-|-|-")
        failed=1
      fi
      continue
    fi
    size=$(stat -c %s "$file")
    mib=$(awk -v b="$size" 'BEGIN { printf "%.2f", b / 1048576 }')
    links=-
    if [[ $p == Mac ]]; then
      # Universal: both slices, each with the symbols.
      local lipo archs a thin s
      lipo=$(lipo_tool) || true
      if [[ -z $lipo ]]; then
        mach="not checked (no llvm-lipo; apt-get install llvm)"
        sym="not checked"
      else
        archs=$("$lipo" -archs "$file" 2>/dev/null | tr ' ' '\n' | sed '/^$/d' | sort | paste -sd' ' -) || true
        mach="ok (arm64 x86_64)"
        [[ $archs == "arm64 x86_64" ]] || {
          mach="WRONG ($archs)"
          failed=1
        }
        sym=
        for a in arm64 x86_64; do
          thin=$dir/mac-$a.a
          if "$lipo" -thin "$a" -output "$thin" "$file" 2>/dev/null; then
            s=$(symbols_of "$thin" "$header" _) || failed=1
          else
            s="NO SLICE"
            failed=1
          fi
          sym="${sym:+$sym, }$a $s"
        done
      fi
    else
      sym=$(symbols_of "$file" "$header") || failed=1
      mach=$(formats_of "$file" "${format[$p]}") || failed=1
    fi
    dbg=$(debug_sections "$file")
    if [[ $dbg == 0 ]]; then dbg=none; else
      dbg="$dbg SECTIONS"
      failed=1
    fi
    case $p in
      Linux)
        if [[ $(uname -s -m) == "Linux x86_64" ]]; then
          links=$(link_check gcc "$file" Linux true "$dir") || failed=1
        fi
        ;;
      LinuxArm64)
        if command -v aarch64-linux-gnu-gcc >/dev/null; then
          links=$(link_check aarch64-linux-gnu-gcc "$file" LinuxArm64 false "$dir") || failed=1
        else
          links="not checked (no aarch64-linux-gnu-gcc)"
        fi
        ;;
      Win64) links=$(coff_link_check "$file" "$dir") || failed=1 ;;
      *) links="not checked here" ;;
    esac
    rows+=("$p|$rel|$size|$mib|$sym|$mach|$dbg|$links")
  done
  echo
  echo "$(basename "$zip_path") ($(stat -c %s "$zip_path") bytes)"
  {
    echo "platform|file|bytes|MiB|symbols|machine|debug info|links"
    printf '%s\n' "${rows[@]}"
  } | print_table
  if [[ $failed != 0 ]]; then
    echo "package-unreal: checks FAILED" >&2
    exit 1
  fi
  echo "package-unreal: all checks passed"
}

$check_only || build
check
