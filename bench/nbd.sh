#!/usr/bin/env bash
# NBD export speed: `volume serve` against qemu-nbd (its LUKS driver) on the same LUKS1
# aes-xts-plain64 image of a --mib MiB payload (default 1024), both on Unix sockets, each server a
# fresh process per round, the clients libnbd's nbdcopy and fio's nbd engine:
#   read   nbdcopy EXPORT null:             (the whole export; nbdcopy's default 4 connections
#                                            where the server allows several, 64 requests in flight)
#   write  nbdcopy FILE EXPORT              (a file of random bytes in the page cache)
#   4k     fio --ioengine=nbd --rw=randread --bs=4k --iodepth=16 --runtime=--fio-seconds
# Rounds alternate the servers. qemu-nbd runs with --shared=8 (several connections) and its
# defaults otherwise (writeback cache, threads AIO). Holds /tmp/vjce-build.lock for the whole run;
# the files live in a temporary folder under --dir (default /tmp) and are deleted at the end.
# Writes bench/results/<UTC date>-nbd.txt. Needs the jar (./mvnw -B -q package -DskipTests at the
# root), cryptsetup (cryptsetup-bin), qemu-nbd (qemu-utils), nbdcopy (libnbd-bin) and fio.
#
#   bench/nbd.sh [--rounds N] [--mib N] [--fio-seconds S] [--dir DIR]
set -euo pipefail
cd "$(dirname "$0")"
rounds=3 mib=1024 fios=10 dir=/tmp
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --mib) mib=$2; shift 2 ;;
    --fio-seconds) fios=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "usage: bench/nbd.sh [--rounds N] [--mib N] [--fio-seconds S] [--dir DIR]" >&2; exit 2 ;;
  esac
done
for t in cryptsetup qemu-nbd nbdcopy fio; do
  command -v "$t" >/dev/null || { echo "bench/nbd.sh needs $t (Debian: cryptsetup-bin, qemu-utils, libnbd-bin, fio)" >&2; exit 2; }
done
. ./jdk25.sh
jar=$PWD/../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
bytes=$((mib << 20))

exec 9>/tmp/vjce-build.lock
flock 9
work=$(mktemp -d "$dir/vjce-nbd.XXXXXX")
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
printf 'nbd benchmark passphrase' > "$work/key"
truncate -s $((bytes + (2 << 20))) "$work/v.img"
cryptsetup luksFormat --type luks1 -q --cipher aes-xts-plain64 --key-size 512 --hash sha256 \
  --pbkdf-force-iterations 1000 --key-file "$work/key" "$work/v.img"
head -c "$bytes" /dev/urandom > "$work/src"
# the payload area as data (not the sparse hole luksFormat leaves), so that every round reads the same
dd if="$work/src" of="$work/v.img" bs=1M seek=2 conv=notrunc status=none
sync   # the set-up's dirty pages written back before the first round, not during it
sock=$work/s.sock
uri="nbd+unix:///?socket=$sock"

# start NAME: a fresh server on $sock; waits until it accepts
start() {
  rm -f "$sock"
  case $1 in
    volume)
      "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -jar "$jar" serve "$work/v.img" \
        --key-file "$work/key" --socket "$sock" >/dev/null 2>"$work/server.err" &
      server=$! ;;
    qemu-nbd)
      qemu-nbd --object "secret,id=k0,file=$work/key" --shared=8 --persistent -k "$sock" \
        --image-opts "driver=luks,key-secret=k0,file.driver=file,file.filename=$work/v.img" 2>"$work/server.err" &
      server=$! ;;
  esac
  for _ in $(seq 200); do
    [ -S "$sock" ] && nbdinfo --size "$uri" >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  cat "$work/server.err" >&2; return 1
}
stop() { kill "$server"; wait "$server" 2>/dev/null || true; server=; }
# Each client run is bounded (timeout 120 s): a client or server that stops answering ends the
# run with the step that hung named, the server's stderr and the processes, instead of a silent stall.
hung() {
  echo "bench/nbd.sh: $1 did not finish within 120 s against $2 (round $3); server stderr:" >&2
  cat "$work/server.err" >&2
  ps -eo pid,stat,etime,args | grep -E 'java|qemu-nbd|nbdcopy|fio' | grep -v grep >&2
  kill -9 "$server" 2>/dev/null
  exit 1
}
secs() { /usr/bin/time -f '%e' -o "$work/time" timeout 120 "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }; cat "$work/time"; }
mbs() { awk -v n="$bytes" -v s="$1" 'BEGIN { printf "%.0f", n / s / 1e6 }'; }

out="results/$(date -u +%Y-%m-%d-%H%M)-nbd.txt"
mkdir -p results
{
  echo "# NBD export speed, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p); $(qemu-nbd --version | head -1); $(nbdcopy --version | head -1); $(fio --version)"
  echo "# command: bench/nbd.sh --rounds $rounds --mib $mib --fio-seconds $fios --dir $dir; jar: $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet 2>/dev/null || echo '+changes')"
  echo "# LUKS1 aes-xts-plain64, 512-bit key, $mib MiB payload; each server a fresh process per round, Unix socket"
  printf '%-6s %-9s %10s %10s %10s\n' round server 'read MB/s' 'write MB/s' '4k IOPS'
  for r in $(seq "$rounds"); do
    for s in volume qemu-nbd; do
      start "$s"
      rd=$(secs nbdcopy "$uri" null:) || hung "nbdcopy read" "$s" "$r"
      wr=$(secs nbdcopy "$work/src" "$uri") || hung "nbdcopy write" "$s" "$r"
      timeout 120 fio --name=r --ioengine=nbd --uri="$uri" --rw=randread --bs=4k --iodepth=16 --runtime="$fios" \
        --time_based --size="$bytes" --output-format=json >"$work/fio.json" 2>/dev/null || hung "fio" "$s" "$r"
      iops=$(awk -F: '/"iops"/ { gsub(/[ ,]/, "", $2); print int($2); exit }' "$work/fio.json")
      stop
      printf '%-6s %-9s %10s %10s %10s\n' "$r" "$s" "$(mbs "$rd")" "$(mbs "$wr")" "$iops"
    done
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
