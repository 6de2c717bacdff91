#!/usr/bin/env bash
# Builds the Godot addon for people to install: the GDExtension (godot-ext/, package
# maul3d-godot) for Linux x86_64, Linux arm64 (Debian's aarch64 cross gcc as linker) and
# Windows x86_64 (x86_64-pc-windows-gnu with Debian's mingw-w64, the GCC runtime and
# winpthread linked statically), with the `dist` profile (release code, no debug info,
# stripped); writes <target>/maul3d-godot-addon-<version>.zip holding addons/maul3d/
# (the committed addon files, maul3d.gdextension, bin/ with one library per platform and
# arch, LICENSE, icon); then checks the zip.
#
# The checks, per library: the entry symbol gdext_rust_init is exported; the imports are
# only the C runtime and system libraries (ELF: NEEDED; DLL: the import table); the
# machine matches the platform; and the Linux x86_64 library loads in headless Godot 4.6
# (a temporary project made from the zip, a script that checks the Maul3D classes and
# singleton exist). They end in a table: platform, file, size, entry symbol, imports.
#
# Usage:
#   bash tools/package-addon.sh                    build everything, zip, check
#   bash tools/package-addon.sh --check-only [ZIP] check an existing zip (default: the
#                                                  one this version writes)
#   --macos-dylib FILE  put a universal dylib built on a Mac (docs/install-godot.md) in
#                       the zip as the macOS library
#   --no-install        do not install missing rustup targets or Debian packages
#
# Installs what it needs when missing (rustup targets; apt-get as root: gcc-aarch64-linux-gnu,
# mingw-w64, zip, unzip, binutils). Not part of test/run.sh: cold cross builds take many
# minutes. <target> is $CARGO_TARGET_DIR, or target/ in the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# shellcheck source=tools/lib-checks.sh
source tools/lib-checks.sh
target=${CARGO_TARGET_DIR:-$repo/target}

check_only=false
zip_path=
macos_dylib=
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
    --macos-dylib)
      macos_dylib=${2:?--macos-dylib needs a file}
      shift
      ;;
    --no-install) install=false ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
      exit 0
      ;;
    *)
      echo "package-addon: unknown argument '$1' (see --help)" >&2
      exit 2
      ;;
  esac
  shift
done

version=$(workspace_version package-addon)
zip_path=$(realpath -m "${zip_path:-$target/maul3d-godot-addon-$version.zip}")

# Platform key in maul3d.gdextension -> Rust target, file name in bin/.
platforms=(linux.x86_64 linux.arm64 windows.x86_64)
declare -A triple=(
  [linux.x86_64]=x86_64-unknown-linux-gnu
  [linux.arm64]=aarch64-unknown-linux-gnu
  [windows.x86_64]=x86_64-pc-windows-gnu
)
declare -A built=(
  [linux.x86_64]=libmaul3d_godot.so
  [linux.arm64]=libmaul3d_godot.so
  [windows.x86_64]=maul3d_godot.dll
)

need_tools() {
  local missing=()
  command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
  command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(mingw-w64)
  command -v zip >/dev/null || missing+=(zip)
  command -v unzip >/dev/null || missing+=(unzip)
  command -v readelf >/dev/null || missing+=(binutils)
  apt_install package-addon "$install" "${missing[@]}"
  local p triples=()
  for p in "${platforms[@]}"; do triples+=("${triple[$p]}"); done
  rustup_targets package-addon "$install" "${triples[@]}"
}

build() {
  need_tools
  export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  # crt-static links libgcc_eh and winpthread statically (no libgcc_s_seh-1.dll,
  # libwinpthread-1.dll next to the DLL); the check below holds the import table to it.
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-C target-feature=+crt-static"
  local p
  for p in "${platforms[@]}"; do
    echo "package-addon: building $p (${triple[$p]}, profile dist)"
    nice cargo build --locked --profile dist -p maul3d-godot --target "${triple[$p]}"
  done

  local stage=$target/package
  rm -rf "$stage"
  mkdir -p "$stage/addons/maul3d/bin"
  # The addon as committed (tracked files: no bin/, no editor imports); from a source
  # tree without git, all of addons/maul3d/ but bin/.
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files -z addons/maul3d | while IFS= read -r -d '' f; do
      mkdir -p "$stage/$(dirname "$f")"
      cp "$f" "$stage/$f"
    done
  else
    tar -C addons/maul3d --exclude=./bin -cf - . | tar -C "$stage/addons/maul3d" -xf -
  fi
  cp LICENSE "$stage/addons/maul3d/LICENSE"
  local rel
  for p in "${platforms[@]}"; do
    rel=$(lib_path "$stage" "$p")
    cp "$target/${triple[$p]}/dist/${built[$p]}" "$stage/$rel"
  done
  if [[ -n $macos_dylib ]]; then
    rel=$(lib_path "$stage" macos)
    cp "$macos_dylib" "$stage/$rel"
  fi
  rm -f "$zip_path"
  (cd "$stage" && zip -q -r -X "$zip_path" addons)
  echo "package-addon: wrote $zip_path ($(stat -c %s "$zip_path") bytes)"
}

# The path (relative to the project) that DIR/addons/maul3d/maul3d.gdextension gives
# platform key $2.
lib_path() {
  local line
  line=$(grep -E "^$2[[:space:]]*=" "$1/addons/maul3d/maul3d.gdextension" | head -1) || true
  [[ -n $line ]] || {
    echo "package-addon: maul3d.gdextension names no library for $2" >&2
    return 1
  }
  line=${line#*\"res://}
  echo "${line%\"*}"
}

# Symbols a library exports: ELF dynamic symbols defined here; DLL export names.
exports_entry() {
  local file=$1 kind=$2
  if [[ $kind == elf ]]; then
    readelf --dyn-syms -W "$file" | awk '$5 == "GLOBAL" && $7 != "UND" { print $8 }' | grep -qx gdext_rust_init
  else
    # objdump -p: "[Ordinal/Name Pointer] Table" lines read "[   0] name".
    "$pe_objdump" -p "$file" | sed -n 's/^[[:space:]]*\[[[:space:]]*[0-9]*\] //p' | grep -qx gdext_rust_init
  fi
}

# Prints the imports that are not allowed (none: the imports are fine).
bad_imports() {
  local file=$1 kind=$2
  if [[ $kind == elf ]]; then
    readelf -d -W "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
      grep -Evx 'libc\.so\.6|libm\.so\.6|libgcc_s\.so\.1|libpthread\.so\.0|libdl\.so\.2|ld-linux-(x86-64|aarch64)\.so\.[12]' || true
  else
    # Windows' own DLLs only: never the MinGW runtime (libgcc_s*, libwinpthread*,
    # libstdc++*), which a user's machine does not have.
    "$pe_objdump" -p "$file" | sed -n 's/^[[:space:]]*DLL Name: //p' |
      grep -Evix 'kernel32\.dll|ntdll\.dll|user32\.dll|advapi32\.dll|ws2_32\.dll|bcrypt\.dll|bcryptprimitives\.dll|msvcrt\.dll|ucrtbase\.dll|userenv\.dll|shell32\.dll|ole32\.dll|oleaut32\.dll|secur32\.dll|crypt32\.dll|synchronization\.dll|api-ms-win-[a-z0-9-]+\.dll' || true
  fi
}

# The machine a library is built for, as the platform key's arch names it.
machine_of() {
  local file=$1 kind=$2
  if [[ $kind == elf ]]; then
    case $(readelf -h "$file" | sed -n 's/^[[:space:]]*Machine:[[:space:]]*//p') in
      *X86-64*) echo x86_64 ;;
      AArch64) echo arm64 ;;
      *) echo other ;;
    esac
  else
    case $("$pe_objdump" -f "$file" | sed -n 's/^architecture: \([^,]*\),.*/\1/p') in
      i386:x86-64) echo x86_64 ;;
      *) echo other ;;
    esac
  fi
}

# Unzips the addon into a new project and runs headless Godot 4.6 on a script that
# checks the extension registered its classes; quits with 0 only then.
loads_in_godot() {
  local dir=$1 log=$2
  eval "$(bash test/godot-setup.sh --env)"
  mkdir -p "$dir/.godot"
  printf 'config_version=5\n\n[application]\nconfig/name="maul3d addon check"\n\n[physics]\n3d/physics_engine="Maul3D"\n' >"$dir/project.godot"
  echo "res://addons/maul3d/maul3d.gdextension" >"$dir/.godot/extension_list.cfg"
  cat >"$dir/check_load.gd" <<'GD'
extends SceneTree

func _initialize() -> void:
	var ok := ClassDB.class_exists("Maul3DPhysicsServer") and Engine.has_singleton("Maul3D")
	print("MAUL3D_LOADED " + str(ok))
	quit(0 if ok else 1)
GD
  local rc=0
  timeout 120 "${GODOT[@]}" --headless --path "$dir" --script res://check_load.gd >"$log" 2>&1 || rc=$?
  [[ $rc == 0 ]] && grep -qx "MAUL3D_LOADED true" "$log"
}

check() {
  [[ -f $zip_path ]] || {
    echo "package-addon: no zip at $zip_path (build it: bash tools/package-addon.sh)" >&2
    exit 1
  }
  pe_objdump=$(command -v x86_64-w64-mingw32-objdump || command -v objdump)
  local dir
  dir=$(mktemp -d)
  # shellcheck disable=SC2064
  trap "rm -rf '$dir'" EXIT
  unzip -q "$zip_path" -d "$dir"
  local failed=0 rows=() p file rel kind size mib entry imports bad arch want loads
  for f in plugin.cfg maul3d.gdextension LICENSE icon.svg; do
    if [[ ! -f $dir/addons/maul3d/$f ]]; then
      echo "package-addon: the zip has no addons/maul3d/$f" >&2
      failed=1
    fi
  done
  for p in "${platforms[@]}" macos; do
    rel=$(lib_path "$dir" "$p") || {
      failed=1
      continue
    }
    file=$dir/$rel
    if [[ ! -f $file ]]; then
      if [[ $p == macos ]]; then
        rows+=("$p|$(basename "$rel")|-|-|not in zip (built on a Mac)|-|-|-")
      else
        rows+=("$p|$(basename "$rel")|-|-|MISSING|-|-|-")
        failed=1
      fi
      continue
    fi
    size=$(stat -c %s "$file")
    mib=$(awk -v b="$size" 'BEGIN { printf "%.2f", b / 1048576 }')
    if [[ $p == macos ]]; then
      # Mach-O: checked on the Mac that built it (docs/install-godot.md).
      rows+=("$p|$(basename "$rel")|$size|$mib|not checked here|-|-|-")
      continue
    fi
    kind=elf
    [[ $p == windows.* ]] && kind=pe
    entry=ok
    exports_entry "$file" "$kind" || {
      entry=MISSING
      failed=1
    }
    bad=$(bad_imports "$file" "$kind" | paste -sd, -)
    imports=ok
    [[ -z $bad ]] || {
      imports="BAD: $bad"
      failed=1
    }
    arch=$(machine_of "$file" "$kind")
    want=${p#*.}
    [[ $arch == "$want" ]] || {
      arch="WRONG ($arch)"
      failed=1
    }
    loads=-
    if [[ $p == linux.x86_64 ]]; then
      if [[ $(uname -s -m) == "Linux x86_64" ]]; then
        if loads_in_godot "$dir" "$dir/godot.log"; then
          loads=yes
        else
          loads=NO
          failed=1
          echo "package-addon: the Linux x86_64 library did not load in Godot:" >&2
          cat "$dir/godot.log" >&2
        fi
      else
        loads="not checked (host $(uname -s -m))"
      fi
    fi
    rows+=("$p|$(basename "$rel")|$size|$mib|$entry|$imports|$arch|$loads")
  done
  echo
  echo "$(basename "$zip_path") ($(stat -c %s "$zip_path") bytes)"
  {
    echo "platform|file|bytes|MiB|entry symbol|imports|machine|loads in Godot"
    printf '%s\n' "${rows[@]}"
  } | print_table
  if [[ $failed != 0 ]]; then
    echo "package-addon: checks FAILED" >&2
    exit 1
  fi
  echo "package-addon: all checks passed"
}

$check_only || build
check
