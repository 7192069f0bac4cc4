#!/usr/bin/env bash
# VectorJCE's `speed` beside libgcrypt (the system library, through bench/native/gcrypt-speed.c)
# for AES, Twofish and Serpent in CTR and XTS, alternating in the same minutes, into
# bench/results/<date>-libgcrypt.txt. Needs gcc and libgcrypt's headers (Debian: libgcrypt20-dev)
# and the tool jar (./mvnw -B -q package -DskipTests at the root; refused when older than the
# sources). Holds /tmp/vjce-build.lock.
#
#   bench/libgcrypt.sh [--size BYTES] [--ms MILLIS] [--rounds N]
set -euo pipefail
cd "$(dirname "$0")"
size=8192 ms=1000 rounds=2
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --ms) ms=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: bench/libgcrypt.sh [--size BYTES] [--ms MILLIS] [--rounds N]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=$(ls ../vectorjce-tool/target/vectorjce-tool-*-all.jar 2>/dev/null | head -1)
[ -n "$jar" ] || { echo "no tool jar (vectorjce-tool/target/vectorjce-tool-*-all.jar): run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
stale=$(find ../vectorjce/src/main ../vectorjce-tool/src/main -type f -newer "$jar" 2>/dev/null | head -1)
[ -z "$stale" ] || { echo "the tool jar is older than $stale: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
exec 9>/tmp/vjce-build.lock
flock 9
mkdir -p target results
gcc -O2 -o target/gcrypt-speed native/gcrypt-speed.c -lgcrypt

out="results/$(date -u +%Y-%m-%d-%H%M)-libgcrypt.txt"
{
  echo "# VectorJCE speed beside libgcrypt, $(date -u '+%Y-%m-%d %H:%M UTC'), $size-byte calls, ${ms} ms per cell, $rounds rounds"
  echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; JVM: $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p)"
  echo "# command: bench/libgcrypt.sh --size $size --ms $ms --rounds $rounds; tree $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet 2>/dev/null || echo '+changes')"
  echo "# columns: who, algorithm, mode, key bits, encryption MiB/s, decryption MiB/s"
  for r in $(seq "$rounds"); do
    echo "## round $r"
    target/gcrypt-speed --size "$size" --ms "$ms"
    for alg in AES Twofish Serpent; do
      for mode in CTR XTS; do
        "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -jar "$jar" speed --alg "$alg" --mode "$mode" \
          --size "$size" --ms "$ms" 2>/dev/null | grep -v '^#'
      done
    done
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
