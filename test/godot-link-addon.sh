#!/usr/bin/env bash
# Puts the repository's addon (addons/maul3d/: the .gdextension, the plugin and its dock
# scripts) into a Godot project with the built library linked under the file name
# maul3d.gdextension gives linux.x86_64, and lists the extension in the project's
# .godot/extension_list.cfg (Godot loads the extensions listed there at start; the editor
# writes it when it imports a project, which a headless run never does).
#
# Usage: bash test/godot-link-addon.sh <project dir> <built libmaul3d_godot.so>
set -euo pipefail
cd "$(dirname "$0")/.."
project=$1
lib=$2
src=addons/maul3d
addon=$project/addons/maul3d
mkdir -p "$addon" "$project/.godot"
for entry in "$src"/*; do
  [[ $(basename "$entry") == bin ]] && continue
  rm -rf "${addon:?}/$(basename "$entry")"
  cp -r "$entry" "$addon/"
done
file=$(sed -n 's|^linux\.x86_64 *= *"res://addons/maul3d/\(.*\)"|\1|p' "$src/maul3d.gdextension")
if [[ -z $file ]]; then
  echo "godot-link-addon: $src/maul3d.gdextension names no linux.x86_64 library" >&2
  exit 1
fi
mkdir -p "$(dirname "$addon/$file")"
ln -sf "$lib" "$addon/$file"
echo "res://addons/maul3d/maul3d.gdextension" >"$project/.godot/extension_list.cfg"
