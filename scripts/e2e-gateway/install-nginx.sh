#!/bin/sh
# Installs the gateway make e2e-gateway runs: Debian's nginx (nginx-light
# where the release has it, as bookworm's 1.22.1 does; else nginx). Needs
# root (or sudo) and apt-get; does nothing when nginx is already installed.
# Without root or sudo it stops, saying so: install nginx by hand (any
# 1.9.13 or later: proxy_next_upstream's non_idempotent) and run again.
#
# The package's own service is not started: a system without a
# policy-rc.d (a Docker image has one) is given one that refuses every
# start for the install, removed after, so the packaged nginx never
# listens on port 80; the test runs nginx from a configuration of its own.
set -eu
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
	exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
	if ! command -v sudo >/dev/null 2>&1 || ! sudo -n true 2>/dev/null; then
		echo "e2e-gateway: nginx is not installed, and installing it needs root or sudo without a password: apt-get install nginx-light (or nginx)" >&2
		exit 3
	fi
	SUDO="sudo -n"
fi
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	trap '$SUDO rm -f "$policy"' EXIT
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
	$SUDO chmod 755 "$policy"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
pkg=nginx
if apt-cache show nginx-light >/dev/null 2>&1; then
	pkg=nginx-light
fi
$SUDO apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null
/usr/sbin/nginx -v
