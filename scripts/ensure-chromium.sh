#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium for the browser tests (test/browser/); `npm test` runs it
# first. Nothing to do when it is there (or when CHROMIUM names another binary that is), else `apt-get update` and
# `apt-get install -y chromium`.
# Fails loudly (exit 1) with what to do when it cannot be installed.
set -euo pipefail

if [ -n "${CHROMIUM:-}" ]; then
  if [ -x "$CHROMIUM" ]; then echo "ensure-chromium: using CHROMIUM=$CHROMIUM"; exit 0; fi
  echo "ensure-chromium: CHROMIUM=$CHROMIUM is not an executable; unset it to use Debian's /usr/bin/chromium" >&2
  exit 1
fi
CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "ensure-chromium: $CHROMIUM present ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install chromium by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-chromium: $CHROMIUM is missing and installing it needs root (run as root or install sudo)" >&2
    exit 1
  fi
fi

echo "ensure-chromium: installing chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
