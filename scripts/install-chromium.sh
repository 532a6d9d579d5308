#!/bin/sh
# Installs the headless browser the report's browser tests and `make
# screenshots` drive: Debian's chromium and an emoji font. Needs root (or
# sudo) and apt-get; does nothing when chromium is already installed.
set -eu
if command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi 'color emoji'; then
	exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
	SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-color-emoji fonts-dejavu-core >/dev/null
chromium --version
