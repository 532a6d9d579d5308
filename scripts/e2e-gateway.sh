#!/usr/bin/env bash
# End-to-end failover through a real gateway: Debian's nginx
# (scripts/e2e-gateway/install-nginx.sh installs it) in front of latgate's
# two fault proxies, each in front of a `latgate sim`, and
# TestRealGatewayFailover (cmd/latgate): latgate ab of a suite whose
# scenario names the proxies as its upstreams and runs three phases,
# healthy, primary-down (every request to the primary stalled before its
# first byte) and recovered. The base is nginx with proxy_read_timeout 1s,
# the head the same nginx with 500ms: a faster failover the ab must call
# an improvement. make e2e-gateway; about a minute with nginx installed.
#
# Why nginx: a gateway widely put in front of two providers, whose
# failover is a few documented directives, shipped by Debian (bookworm's
# 1.22.1; any from 1.9.13 on has them all; the log gives nginx -v). An AI
# gateway was tried first: @portkey-ai/gateway 1.15.2 answers 500 to a
# fallback config ("TypeError: immutable" in its header handling, on
# Node 20 and 22), and 1.9.8 answers 500 for a loopback custom_host. The
# nginx configuration
# (scripts/e2e-gateway/nginx.conf): an upstream of the primary and a
# `backup` server (the secondary), proxy_next_upstream error timeout
# http_500 http_502 http_503 http_504 non_idempotent (a chat request is a
# POST, which nginx retries only with non_idempotent),
# proxy_next_upstream_tries 2, proxy_read_timeout the time a try waits
# for the response's header, proxy_buffering off (SSE passes through as it
# comes), and max_fails=0 on the primary: every request of the
# primary-down phase tries it and waits the timeout, and the recovered
# phase's first request is served by it again (nginx's default
# max_fails=1 fail_timeout=10s would send 10 s of requests straight to the
# backup, into the recovered phase). nginx fails over only before it
# passed a response on: a primary that sends its header and then stalls
# (as `latgate sim --ttft 3s` does) is cut at the timeout, not retried;
# stall_first_token holds back the header too.
#
# The ports: the proxies' (the suite's upstreams) and nginx's are picked
# by the kernel (perl, of Debian's essential perl-base, binds port 0 for
# each and closes it), the simulators' too (--addr 127.0.0.1:0, read from
# their log). They reach the test in LATGATE_GW_* variables.
#
# Each simulator, each nginx and the test run in a session (process group)
# of their own; on every exit (a failure, Ctrl-C, SIGTERM) the script
# signals each whole group, SIGTERM then SIGKILL, so nothing outlives it.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
sh scripts/e2e-gateway/install-nginx.sh
nginx=$(command -v nginx || echo /usr/sbin/nginx)
version=$("$nginx" -v 2>&1 | sed -n 's|^nginx version: nginx/||p')
echo "e2e-gateway: nginx $version ($nginx)"
# non_idempotent in proxy_next_upstream is from nginx 1.9.13 on.
if [ "$(printf '%s\n' 1.9.13 "$version" | sort -V | head -1)" != 1.9.13 ]; then
  echo "e2e-gateway: nginx $version is older than 1.9.13, which the configuration needs (proxy_next_upstream non_idempotent)" >&2
  exit 3
fi

. scripts/groups-lib.sh # $work, $groups and their cleanup on every exit

go build -o "$work/latgate" ./cmd/latgate

# Four free loopback ports, all held at once so that they differ.
read -r p_primary p_secondary n_base n_head < <(perl -MIO::Socket::INET -e '
  my @s = map { IO::Socket::INET->new(Listen => 1, LocalAddr => "127.0.0.1", LocalPort => 0) or die "no port: $!" } 1 .. 4;
  print join(" ", map { $_->sockport } @s), "\n"')

# sim NAME: a simulator (fixed TTFT 100 ms, 16 tokens 5 ms apart) in a
# session of its own on a port the kernel picks; sets addr to the address
# it logs once it answers there.
sim() {
  local log="$work/sim-$1.log" pid
  setsid "$work/latgate" sim --addr 127.0.0.1:0 --profile fast --ttft 100ms --itl 5ms --tokens 16 > "$log" 2>&1 &
  pid=$!
  groups+=("$pid")
  addr=""
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "e2e-gateway: the $1 simulator exited" >&2; exit 1; }
    [ -n "$addr" ] || addr=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$log" | head -1 | cut -d/ -f3 || true)
    [ -n "$addr" ] && curl -fs -o /dev/null "http://$addr/v1/models" && return
    sleep 0.1
  done
  cat "$log" >&2
  echo "e2e-gateway: the $1 simulator does not answer" >&2
  exit 1
}

# gateway NAME PORT TIMEOUT: nginx from its own folder, listening on PORT,
# the primary's proxy first and the secondary's as its backup, each try
# waiting TIMEOUT for a response; checked (nginx -t), then run in a
# session of its own until it answers (502 before the proxies listen).
gateway() {
  local dir="$work/nginx-$1" pid
  mkdir -p "$dir/tmp"
  sed -e "s/@LISTEN@/$2/" -e "s/@PRIMARY@/$p_primary/" -e "s/@SECONDARY@/$p_secondary/" \
    -e "s/@READ_TIMEOUT@/$3/" scripts/e2e-gateway/nginx.conf > "$dir/nginx.conf"
  "$nginx" -q -t -p "$dir/" -c nginx.conf -e error.log
  setsid "$nginx" -p "$dir/" -c nginx.conf -e error.log > "$dir/stdout.log" 2>&1 &
  pid=$!
  groups+=("$pid")
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || { cat "$dir/stdout.log" "$dir/error.log" >&2; echo "e2e-gateway: nginx ($1) exited" >&2; exit 1; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$2/" || true)" != 000 ] && return
    sleep 0.1
  done
  cat "$dir/error.log" >&2
  echo "e2e-gateway: nginx ($1) does not answer on 127.0.0.1:$2" >&2
  exit 1
}

sim primary; s_primary=$addr
sim secondary; s_secondary=$addr
gateway base "$n_base" 1s
gateway head "$n_head" 500ms

export LATGATE_GW_BASE_URL="http://127.0.0.1:$n_base/v1" LATGATE_GW_HEAD_URL="http://127.0.0.1:$n_head/v1" \
  LATGATE_GW_BASE_TIMEOUT_MS=1000 LATGATE_GW_HEAD_TIMEOUT_MS=500 LATGATE_GW_SIM_TTFT_MS=100 \
  LATGATE_GW_PRIMARY_LISTEN="127.0.0.1:$p_primary" LATGATE_GW_PRIMARY_URL="http://$s_primary" \
  LATGATE_GW_SECONDARY_LISTEN="127.0.0.1:$p_secondary" LATGATE_GW_SECONDARY_URL="http://$s_secondary"
echo "e2e-gateway: nginx at $LATGATE_GW_BASE_URL (proxy_read_timeout 1s) and $LATGATE_GW_HEAD_URL (500ms);" \
  "proxies primary $LATGATE_GW_PRIMARY_LISTEN → $s_primary, secondary $LATGATE_GW_SECONDARY_LISTEN → $s_secondary;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
# In the background, so that a signal is handled at once (bash runs a trap
# only after a foreground command ends) and stops the test's group too.
GOFLAGS=-mod=vendor setsid go test -count=1 -run '^TestRealGatewayFailover$' -v -timeout 10m ./cmd/latgate &
groups+=("$!")
code=0
wait "$!" || code=$?
if [ $code -ne 0 ]; then
  tail -n 20 "$work"/nginx-*/access.log "$work"/nginx-*/error.log >&2 || true
fi
echo "e2e-gateway: $((SECONDS - start)) s"
exit $code
