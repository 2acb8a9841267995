#!/usr/bin/env bash
# Spam filters the deliverability tests score messages with: SpamAssassin (spamassassin, spamd, spamc) and rspamd
# from Debian's packages.
#   scripts/spam-filters.sh install   installs them when either is missing (idempotent; needs root or sudo)
#   scripts/spam-filters.sh check     exits 0 when both are installed, 1 otherwise
# The packages' own daemons are not used: the tests start rspamd with a configuration of their own under /tmp
# and run SpamAssassin with local tests only (test/peers/spam-filters.ts).
set -euo pipefail

have_all() {
  command -v spamassassin >/dev/null 2>&1 && command -v spamd >/dev/null 2>&1 && command -v spamc >/dev/null 2>&1 &&
    command -v rspamd >/dev/null 2>&1
}

install() {
  if have_all; then
    echo "spam-filters: SpamAssassin (spamd, spamc) and rspamd already installed"
    return 0
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  # Keep the packages' services from starting in this machine (no init system in CI containers anyway).
  local policy=/usr/sbin/policy-rc.d added_policy=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod +x "$policy"
    added_policy=1
  fi
  if ! apt-cache show rspamd >/dev/null 2>&1 || ! apt-cache show spamassassin >/dev/null 2>&1; then
    $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
  fi
  local rc=0
  $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends spamassassin spamd spamc rspamd >/dev/null || rc=$?
  if [ -n "$added_policy" ]; then $sudo rm -f "$policy"; fi
  if [ "$rc" -ne 0 ]; then
    echo "spam-filters: apt-get install failed ($rc)" >&2
    return "$rc"
  fi
  have_all || { echo "spam-filters: installed, but spamassassin spamd, spamc or rspamd is still missing" >&2; return 1; }
  echo "spam-filters: installed $(rspamd --version 2>/dev/null | head -1); SpamAssassin $(spamassassin --version | head -1)"
}

case "${1:-}" in
  install) install ;;
  check) have_all ;;
  *)
    echo "usage: $0 install|check" >&2
    exit 2
    ;;
esac
