#!/usr/bin/env bash
# Installs the addon into a Godot project for a test or an example run: copies
# addons/maul3d/ (all but bin/) into PROJECT/addons/maul3d/, links LIB there under the
# name maul3d.gdextension gives linux.x86_64, and lists the extension in
# PROJECT/.godot/extension_list.cfg (the editor writes that file when it imports a
# project, which a headless run never does).
#
# Usage: bash test/godot-link-addon.sh PROJECT LIB
set -euo pipefail
project=$1
lib=$2
repo=$(cd "$(dirname "$0")/.." && pwd)
addon=$project/addons/maul3d
mkdir -p "$addon/bin" "$project/.godot"
tar -C "$repo/addons/maul3d" --exclude=./bin -cf - . | tar -C "$addon" -xf -
# The name before each platform got its own file.
rm -f "$addon/bin/libmaul3d_godot.so"
ln -sf "$lib" "$addon/bin/libmaul3d_godot.linux.x86_64.so"
echo "res://addons/maul3d/maul3d.gdextension" >"$project/.godot/extension_list.cfg"
