#!/usr/bin/env bash
# Installs Godot 4.6 (Debian sid's `godot` package) unprivileged into a private root
# cached outside the repository, and prints the command that runs it. Idempotent: with
# the root in place it only checks it and prints the command (well under a second).
#
# How (DESIGN.md, "Godot 4.6 here"): apt with a sources list of its own (sid main), an
# empty dpkg status and its own state/cache folders downloads `godot` and every library
# it depends on; each .deb is unpacked with `dpkg-deb -x` into one root; the binary is
# started through that root's own loader, since sid's glibc is newer than the host's.
#
# Usage: bash test/godot-setup.sh            # install if needed, print the command
#        eval "$(bash test/godot-setup.sh --env)"   # sets GODOT (a command line array)
set -euo pipefail

CACHE=${MAUL3D_CACHE:-$HOME/.cache/maul3d}
ROOT=$CACHE/godot-root
APT=$CACHE/godot-apt
STAMP=$ROOT/.maul3d-installed
MIRROR=${MAUL3D_DEBIAN_MIRROR:-http://deb.debian.org/debian}
LIB=$ROOT/usr/lib/x86_64-linux-gnu

run_line() {
  echo "$LIB/ld-linux-x86-64.so.2 --library-path $LIB:$LIB/pulseaudio $ROOT/usr/bin/godot"
}

install_root() {
  echo "godot-setup: installing Godot 4.6 from Debian sid into $ROOT" >&2
  rm -rf "$APT" "$ROOT.tmp"
  mkdir -p "$APT/etc/preferences.d" "$APT/state/lists/partial" "$APT/cache/archives/partial" "$ROOT.tmp"
  : >"$APT/state/status"
  cat >"$APT/etc/sources.list" <<SOURCES
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg,/etc/apt/trusted.gpg.d/debian-archive-trixie-automatic.asc,/etc/apt/trusted.gpg.d/debian-archive-trixie-stable.asc] $MIRROR sid main
SOURCES
  local opts=(
    -o "Dir::Etc::SourceList=$APT/etc/sources.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::Etc::Preferences=$APT/etc/preferences"
    -o "Dir::Etc::PreferencesParts=$APT/etc/preferences.d"
    -o "Dir::State=$APT/state"
    -o "Dir::State::status=$APT/state/status"
    -o "Dir::Cache=$APT/cache"
    -o "APT::Architecture=amd64"
    -o "APT::Architectures=amd64"
    -o "APT::Install-Recommends=false"
    -o "APT::Sandbox::User=root"
    -o "Debug::NoLocking=true"
  )
  apt-get "${opts[@]}" -qq update
  apt-get "${opts[@]}" -qq -y --download-only install godot
  local deb
  for deb in "$APT"/cache/archives/*.deb; do
    dpkg-deb -x "$deb" "$ROOT.tmp"
  done
  # Keep the downloaded archives out of the cache once unpacked.
  rm -rf "$APT/cache/archives"
  rm -rf "$ROOT"
  mv "$ROOT.tmp" "$ROOT"
  local version
  version=$($(run_line) --headless --version 2>/dev/null | head -n1)
  case $version in
  4.6.*) ;;
  *)
    echo "godot-setup: installed Godot says '$version', wanted 4.6" >&2
    exit 1
    ;;
  esac
  echo "$version" >"$STAMP"
}

if [[ ! -f $STAMP ]]; then
  install_root
fi

if [[ ${1:-} == --env ]]; then
  echo "GODOT=($(run_line))"
else
  echo "Godot $(cat "$STAMP") in $ROOT; run it with:" >&2
  run_line
fi
