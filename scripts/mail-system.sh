#!/usr/bin/env bash
# The real mail system the tests run against (test/peers/mail-system.ts): Postfix and Dovecot (IMAP, LMTP,
# Sieve). `install` installs Debian's packages once and is a no-op when they are there. The packages'
# own instances are neither configured nor started here: the tests start private ones (their own config
# directories, queues, pids and loopback ports) and stop them afterwards.
set -euo pipefail

PACKAGES=(postfix dovecot-core dovecot-imapd dovecot-lmtpd dovecot-sieve)

installed() {
  command -v postfix >/dev/null 2>&1 || [ -x /usr/sbin/postfix ] || return 1
  [ -x /usr/sbin/dovecot ] || return 1
  [ -e /usr/lib/dovecot/imap ] && [ -e /usr/lib/dovecot/lmtp ] || return 1
  [ -e /usr/lib/dovecot/modules/lib90_sieve_plugin.so ] || return 1
}

install() {
  if installed; then
    echo "mail-system: postfix and dovecot are installed"
    return 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  # Postfix asks what kind of mail server this is: none (the tests bring their own configuration).
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  echo "postfix postfix/mailname string localhost" | debconf-set-selections
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  # Installing may try to start the packages' services; without an init system that fails harmlessly.
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null
  installed || { echo "mail-system: postfix/dovecot still missing after install" >&2; exit 1; }
  echo "mail-system: installed ${PACKAGES[*]}"
}

case "${1:-}" in
  install) install ;;
  check) installed ;;
  *)
    echo "usage: $0 install|check" >&2
    exit 2
    ;;
esac
