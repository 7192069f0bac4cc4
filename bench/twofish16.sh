#!/usr/bin/env bash
# twofish-vec512-16way's two batches from a fresh JVM: Twofish/CTR in SIZE-byte calls, MB/s per
# window from the JVM's start (bench/twofish16/FirstSeconds.java), for the default provider (split,
# then fused by count), the forced twofish16.path=split and =fused, and
# kernel.twofish=twofish-table-2way, one fresh JVM each, alternated for N rounds, into
# bench/results/<UTC date>-twofish16.txt. Needs AVX-512 VBMI for the 16-way kernel (elsewhere the
# first three rows are the default kernel). Holds /tmp/vjce-build.lock.
# Needs the provider jar (./mvnw -B -q package -DskipTests at the root).
#
#   bench/twofish16.sh [--size BYTES] [--ms TOTAL_MILLIS] [--window MILLIS] [--rounds N]
set -euo pipefail
cd "$(dirname "$0")"
size=8192 ms=6000 window=250 rounds=2
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --ms) ms=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: bench/twofish16.sh [--size BYTES] [--ms TOTAL_MILLIS] [--window MILLIS] [--rounds N]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=$(ls ../vectorjce/target/vectorjce-*-SNAPSHOT.jar 2>/dev/null | grep -v -e sources -e javadoc | head -1)
[ -n "$jar" ] || { echo "missing the provider jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
stale=$(find ../vectorjce/src/main -type f -newer "$jar" 2>/dev/null | head -1)
[ -z "$stale" ] || { echo "the provider jar is older than $stale: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
exec 9>/tmp/vjce-build.lock
flock 9
mkdir -p results
out="results/$(date -u +%Y-%m-%d-%H%M)-twofish16.txt"
{
  echo "# twofish-vec512-16way from a fresh JVM, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(grep -o -m1 -w avx512vbmi /proc/cpuinfo || echo 'no avx512vbmi')), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p)"
  echo "# command: bench/twofish16.sh --size $size --ms $ms --window $window --rounds $rounds; tree $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet 2>/dev/null || echo '+changes')"
  echo "# load before: $(uptime)"
  for r in $(seq "$rounds"); do
    for cfg in "" "twofish16.path=split" "twofish16.path=fused" "kernel.twofish=twofish-table-2way"; do
      echo "## round $r"
      "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -cp "$jar" twofish16/FirstSeconds.java "$cfg" "$size" "$ms" "$window" 2>/dev/null
    done
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
