#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs "$@" under de_DE.UTF-8 compiled into a temporary folder (LOCPATH), so
# the locale tests need neither root nor a generated system locale: only
# the locale sources of Debian's 'locales' package.  Exit 77 (skip) without
# them.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
localedef -i de_DE -f UTF-8 "$dir/de_DE.UTF-8" >/dev/null 2>&1
if [ ! -f "$dir/de_DE.UTF-8/LC_NUMERIC" ]; then
  echo "localedef could not build de_DE.UTF-8 (install 'locales')"
  exit 77
fi
# glibc's one LOCPATH allocation is not ours (ASan builds)
LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp"
export LSAN_OPTIONS
# LANG, not LC_ALL: a caller may keep some category (LC_MESSAGES=C)
unset LC_ALL
LOCPATH=$dir LANG=de_DE.UTF-8 "$@"
