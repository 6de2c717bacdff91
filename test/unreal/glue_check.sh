#!/usr/bin/env bash
# The Unreal glue checks (runnable alone; test/unreal.sh calls it). CI cannot install
# Unreal, so the glue (Plugins/Maul3D/Source/Maul3D/{Public,Private} outside Core/, and
# Plugins/Maul3D/Source/Maul3DEditor) is checked two ways:
#   1. every m3* name the glue and the engine-free core use (functions, types, constants)
#      exists in unreal-abi/include/maul3d.h (or, for m3::, maul3d.hpp): a header change
#      that breaks the plugin fails here, listing the missing names. A planted unknown
#      name must make this check fail (the check checks itself).
#   2. every glue .cpp compiles with `g++ -std=c++20 -fsyntax-only -Wall -Wextra -Werror`
#      against test/unreal/stubs/: small stub headers, written by us, that declare only the
#      Unreal names the glue uses (UCLASS/UPROPERTY/... empty; *.generated.h generated
#      empty here). That proves the glue is well-formed C++ calling our API (the core's
#      classes, maul3d.h) correctly — NOT that it builds in Unreal.
set -euo pipefail
cd "$(dirname "$0")/../.."

plugin=Plugins/Maul3D/Source
header=unreal-abi/include/maul3d.h
hpp=unreal-abi/include/maul3d.hpp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- 1. m3 names ----------------------------------------------------------------------
# Names a file uses: m3Foo, m3Foo_Bar, m3_constant; comments and strings stripped first.
m3_names() {
  sed -e 's://.*$::' -e 's/"[^"]*"//g' "$@" |
    grep -ohE '\bm3(_[a-z][A-Za-z0-9_]*|[A-Z][A-Za-z0-9]*(_[A-Za-z0-9]+)?)\b' | sort -u
}
# Names of the m3:: C++ layer a file uses (m3::World, m3::JobSystemHooks, ...).
m3cpp_names() {
  sed -e 's://.*$::' -e 's/"[^"]*"//g' "$@" | grep -ohE '\bm3::[A-Za-z_][A-Za-z0-9_]*' |
    sed 's/^m3:://' | sort -u
}
missing_in() { # files... -> names not in the header
  local n missing=()
  for n in $(m3_names "$@"); do
    grep -qE "\\b$n\\b" "$header" || missing+=("$n")
  done
  for n in $(m3cpp_names "$@"); do
    grep -qE "\\b(class|struct|inline [^(]*|using|typedef [^;]*)\\b *$n\\b" "$hpp" || missing+=("m3::$n")
  done
  printf '%s\n' "${missing[@]}" | sed '/^$/d'
}

mapfile -t sources < <(find "$plugin/Maul3D" "$plugin/Maul3DEditor" -name '*.h' -o -name '*.cpp' | sort)
if [ "${#sources[@]}" -eq 0 ]; then
  echo "glue check: no sources under $plugin" >&2
  exit 1
fi
# The check must catch a name the header lacks (and a bad m3:: name).
printf 'void f() { m3World_NoSuchCall(); m3::NoSuchClass x; }\n' >"$tmp/planted.cpp"
planted=$(missing_in "$tmp/planted.cpp")
if [ "$planted" != $'m3World_NoSuchCall\nm3::NoSuchClass' ]; then
  echo "glue check: the name check missed planted names (got: $planted)" >&2
  exit 1
fi
missing=$(missing_in "${sources[@]}")
if [ -n "$missing" ]; then
  echo "glue check: names the plugin uses but $header / $hpp lack:" >&2
  echo "$missing" | sed 's/^/  /' >&2
  exit 1
fi
echo "m3 names: $(m3_names "${sources[@]}" | wc -l) C names and $(m3cpp_names "${sources[@]}" | wc -l) m3:: names of ${#sources[@]} files found in the headers"

# --- 2. syntax against the stubs ------------------------------------------------------
# Empty *.generated.h for every header that includes one (UHT writes them in Unreal).
mkdir -p "$tmp/generated"
grep -ohE '"[A-Za-z0-9_]+\.generated\.h"' "${sources[@]}" | tr -d '"' | sort -u |
  while read -r g; do echo "// stub: UHT output stands empty here" >"$tmp/generated/$g"; done

CXX=${CXX:-g++}
flags=(-std=c++20 -fsyntax-only -fno-exceptions -fno-rtti -Wall -Wextra -Werror
  -DMAUL3D_API= -DMAUL3DEDITOR_API= -DWITH_EDITOR=1 -DWITH_DEV_AUTOMATION_TESTS=1
  -Itest/unreal/stubs -I"$tmp/generated" -Iunreal-abi/include
  -I"$plugin/Maul3D/Public" -I"$plugin/Maul3D/Public/Core" -I"$plugin/Maul3D/Private"
  -I"$plugin/Maul3DEditor/Public" -I"$plugin/Maul3DEditor/Private")
mapfile -t glue < <(find "$plugin/Maul3D" "$plugin/Maul3DEditor" -name '*.cpp' -not -path '*/Core/*' | sort)
failed=0
for f in "${glue[@]}"; do
  if ! "$CXX" "${flags[@]}" "$f"; then
    echo "glue check: $f does not compile against the stubs" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
echo "glue syntax: ${#glue[@]} glue .cpp files compile with $CXX -std=c++20 -fsyntax-only against the stubs (well-formed C++ calling our API; not an Unreal build)"
