# Shared by the packaging scripts (tools/package-addon.sh, tools/package-unreal.sh);
# sourced, not run.

# The workspace version ([workspace.package] in Cargo.toml), or exits naming the script.
workspace_version() {
  local v
  v=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
  [[ -n $v ]] || {
    echo "$1: no version in Cargo.toml's [workspace.package]" >&2
    exit 1
  }
  echo "$v"
}

# Prints '|'-separated rows from stdin as aligned columns (the first row is the heading).
print_table() {
  awk -F'|' '{ n = NR; for (i = 1; i <= NF; i++) { c[n, i] = $i; if (length($i) > w[i]) w[i] = length($i) } nf = NF }
      END { for (r = 1; r <= n; r++) { line = ""; for (i = 1; i <= nf; i++) line = line (i < nf ? sprintf("%-*s  ", w[i], c[r, i]) : c[r, i]); print line } }'
}

# Installs Debian packages as root (waits for another apt-get's lock on a shared
# machine), or exits naming them when that is not allowed ($2: true to allow).
apt_install() {
  local script=$1 allow=$2
  shift 2
  [[ $# -gt 0 ]] || return 0
  if ! $allow || [[ $(id -u) != 0 ]]; then
    echo "$script: missing $*; install them (apt-get install $*) or run as root" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@" ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends "$@"; }
}

# Adds the rustup targets that are not installed yet, or exits naming them.
rustup_targets() {
  local script=$1 allow=$2 installed t
  shift 2
  installed=$(rustup target list --installed)
  for t in "$@"; do
    if ! grep -qx "$t" <<<"$installed"; then
      $allow || {
        echo "$script: rustup target $t missing (rustup target add $t)" >&2
        exit 1
      }
      rustup target add "$t"
    fi
  done
}
