#!/usr/bin/env bash
# Starts and stops the lab's parallel file system: GlusterFS servers, each in its own network namespace behind a
# shaped link, one distributed volume mounted through FUSE with direct I/O. See lab/pfs/README.md.
#
#   lab/pfs/pfs.sh start     install what is missing (Debian packages), build linkdelay, start the servers, mount (idempotent: stops first)
#   lab/pfs/pfs.sh stop      unmount, stop every process, remove namespaces, links and state (safe to run any time)
#   lab/pfs/pfs.sh status    what runs now
#   lab/pfs/pfs.sh check     measure a round trip, 4 KiB writes, fsyncs and 2 MiB writes (lab/pfs/check.mjs)
#
# Settings (environment): PFS_SERVERS (4), PFS_RTT_US (round trip between client and a server, 500), PFS_RATE_MBIT
# (per server and direction, 800), PFS_MOUNT (/mnt/iolens-pfs), PFS_STATE (/tmp/iolens-pfs). Only the addresses below
# (10.77.0.0/24 on a bridge of its own) and loopback are used. Every step is bounded in time.
set -Eeuo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SERVERS="${PFS_SERVERS:-4}"
RTT_US="${PFS_RTT_US:-500}"
RATE_MBIT="${PFS_RATE_MBIT:-800}"
MOUNT="${PFS_MOUNT:-/mnt/iolens-pfs}"
STATE="${PFS_STATE:-/tmp/iolens-pfs}"
VOLUME=iolab
BRIDGE=iolpfs0
NET=10.77.0
CLIENT_IP="$NET.254"
NS_PREFIX=iolpfs-s
BUILD="$HERE/build"
STEP_TIMEOUT=60

say() { printf 'pfs: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
# A bounded step: the command is killed after STEP_TIMEOUT seconds.
t() { timeout --kill-after=5 "$STEP_TIMEOUT" "$@"; }

[[ "$SERVERS" =~ ^[1-9]$ ]] || die "PFS_SERVERS must be 1-9 (got $SERVERS)"
[[ "$RTT_US" =~ ^[0-9]+$ ]] && (( RTT_US <= 1000000 )) || die "PFS_RTT_US must be 0-1000000 microseconds"
[[ "$RATE_MBIT" =~ ^[1-9][0-9]*$ ]] || die "PFS_RATE_MBIT must be a positive integer"
[[ "$(id -u)" == 0 ]] || die "run as root (network namespaces, netfilter queues, FUSE mounts)"

cli() { t gluster --mode=script --glusterd-sock="$STATE/s1/lib/gd.sock" --log-file="$STATE/cli.log" "$@"; }

install_missing() {
  local need=()
  command -v glusterd >/dev/null || need+=(glusterfs-server)
  command -v glusterfs >/dev/null || need+=(glusterfs-client)
  command -v iptables-legacy >/dev/null || need+=(iptables)
  command -v tc >/dev/null || need+=(iproute2)
  [[ -f /usr/include/libnetfilter_queue/libnetfilter_queue.h ]] || need+=(libnetfilter-queue-dev)
  command -v gcc >/dev/null || need+=(gcc libc6-dev)
  if ((${#need[@]})); then
    say "installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y --no-install-recommends "${need[@]}" >/dev/null
  fi
  mkdir -p "$BUILD"
  if [[ ! -x "$BUILD/linkdelay" || "$HERE/linkdelay.c" -nt "$BUILD/linkdelay" ]]; then
    gcc -O2 -Wall -Wextra -o "$BUILD/linkdelay" "$HERE/linkdelay.c" -lnetfilter_queue -lnfnetlink
  fi
}

stop() {
  if mountpoint -q "$MOUNT" 2>/dev/null; then
    umount "$MOUNT" 2>/dev/null || umount -l "$MOUNT" 2>/dev/null || true
  fi
  # The FUSE client runs in the root namespace: find it by its volume file server and volume.
  pkill -f "glusterfs .*--volfile-server=$NET\.[0-9]+ .*--volfile-id=/?$VOLUME" 2>/dev/null || true
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$NS_PREFIX" || true); do
    local pids
    pids="$(ip netns pids "$ns" 2>/dev/null || true)"
    [[ -n "$pids" ]] && kill $pids 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      pids="$(ip netns pids "$ns" 2>/dev/null || true)"
      [[ -z "$pids" ]] && break
      sleep 0.3
    done
    [[ -n "$pids" ]] && kill -9 $pids 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
  for i in $(seq 1 9); do ip link del "vs$i" 2>/dev/null || true; done
  ip link del "$BRIDGE" 2>/dev/null || true
  rm -rf "$STATE"
}

start_server() {
  local i=$1 ns="$NS_PREFIX$1" dir="$STATE/s$1" half=$((RTT_US / 2))
  mkdir -p "$dir/lib" "$dir/run" "$dir/log" "$dir/brick"
  ip netns add "$ns"
  ip link add "vs$i" type veth peer name eth0 netns "$ns"
  ip link set "vs$i" master "$BRIDGE" up
  ip -n "$ns" addr add "$NET.$i/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
  # Bandwidth: one token bucket per direction (server to bridge inside the namespace, bridge to server outside).
  ip netns exec "$ns" tc qdisc replace dev eth0 root tbf rate "${RATE_MBIT}mbit" burst 256kb latency 200ms
  tc qdisc replace dev "vs$i" root tbf rate "${RATE_MBIT}mbit" burst 256kb latency 200ms
  # Latency: half the round trip on the way in, half on the way out, by linkdelay on netfilter queue 0.
  if ((half > 0)); then
    setsid ip netns exec "$ns" "$BUILD/linkdelay" 0 "$half" </dev/null >/dev/null 2>>"$dir/log/linkdelay.log" &
    sleep 0.2
    # The kernel has the xtables NFQUEUE target but not nftables' queue expression (CONFIG_NFT_QUEUE is not set).
    ip netns exec "$ns" iptables-legacy -t mangle -A PREROUTING -i eth0 -j NFQUEUE --queue-num 0
    ip netns exec "$ns" iptables-legacy -t mangle -A OUTPUT -o eth0 -j NFQUEUE --queue-num 0
  fi
  ip netns exec "$ns" glusterd \
    --xlator-option "management.working-directory=$dir/lib" \
    --xlator-option "management.run-directory=$dir/run" \
    --xlator-option "management.transport.socket.bind-address=$NET.$i" \
    --xlator-option "management.glusterd-sockfile=$dir/lib/gd.sock" \
    --pid-file="$dir/glusterd.pid" --log-file="$dir/log/glusterd.log" </dev/null >/dev/null 2>&1
}

wait_for() { # seconds, description, command...
  local s=$1 what=$2
  shift 2
  for ((k = 0; k < s * 4; k++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.25
  done
  die "timed out after ${s} s waiting for $what"
}

peers_connected() { [[ "$(cli peer status 2>/dev/null | grep -c 'Peer in Cluster (Connected)')" == "$((SERVERS - 1))" ]]; }

start() {
  install_missing
  stop
  mkdir -p "$STATE" "$MOUNT"
  trap 'say "start failed: cleaning up"; stop' ERR
  ip link add "$BRIDGE" type bridge
  ip addr add "$CLIENT_IP/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for i in $(seq 1 "$SERVERS"); do start_server "$i"; done
  for i in $(seq 1 "$SERVERS"); do wait_for 30 "glusterd on server $i" test -S "$STATE/s$i/lib/gd.sock"; done
  for i in $(seq 2 "$SERVERS"); do cli peer probe "$NET.$i" >/dev/null; done
  ((SERVERS == 1)) || wait_for 60 "the servers to join" peers_connected
  local bricks=()
  for i in $(seq 1 "$SERVERS"); do bricks+=("$NET.$i:$STATE/s$i/brick/b"); done
  cli volume create "$VOLUME" transport tcp "${bricks[@]}" force >/dev/null
  # No client-side caching in front of the servers: every request, open and stat reaches a server.
  for opt in performance.write-behind performance.read-ahead performance.io-cache performance.quick-read \
    performance.stat-prefetch performance.open-behind performance.readdir-ahead performance.nl-cache; do
    cli volume set "$VOLUME" "$opt" off >/dev/null
  done
  cli volume start "$VOLUME" >/dev/null
  wait_for 60 "the bricks" bash -c "[[ \$(gluster --mode=script --glusterd-sock='$STATE/s1/lib/gd.sock' --log-file='$STATE/cli.log' volume status $VOLUME 2>/dev/null | grep -c '^Brick.* Y ') == $SERVERS ]]"
  t mount -t glusterfs -o "direct-io-mode=enable,log-file=$STATE/client.log" "$NET.1:/$VOLUME" "$MOUNT" </dev/null >/dev/null 2>&1
  wait_for 30 "the mount" mountpoint -q "$MOUNT"
  chmod 1777 "$MOUNT"
  trap - ERR
  say "GlusterFS $(glusterd --version | head -1 | awk '{print $2}'): $SERVERS servers, round trip $RTT_US us, ${RATE_MBIT} Mbit/s per server and direction, mounted on $MOUNT"
}

status() {
  if mountpoint -q "$MOUNT" 2>/dev/null; then echo "mounted: $MOUNT"; else echo "not mounted"; fi
  ip netns list 2>/dev/null | grep "^$NS_PREFIX" || echo "no server namespaces"
  [[ -S "$STATE/s1/lib/gd.sock" ]] && cli volume info "$VOLUME" 2>/dev/null | grep -E '^(Volume Name|Type|Status|Number of Bricks):' || true
}

case "${1:-}" in
  start) start ;;
  stop) stop; say "stopped" ;;
  status) status ;;
  check) mountpoint -q "$MOUNT" || die "not mounted: run pfs.sh start"; exec timeout 300 node "$HERE/check.mjs" "$MOUNT" "$RTT_US" "$RATE_MBIT" ;;
  *) die "usage: pfs.sh start|stop|status|check" ;;
esac
