#!/usr/bin/env bash
# Serpent's speed: VectorJCE beside Bouncy Castle's SerpentEngine (bench/serpent/SerpentVsBc.java,
# same JVM, alternating) and one 512-byte XTS sector per call (bench/sectors/PerSectorApi.java),
# into bench/results/<UTC date>-serpent.txt. libgcrypt's rows: bench/libgcrypt.sh. Holds
# /tmp/vjce-build.lock. Needs the provider jar (./mvnw -B -q package -DskipTests at the root) and
# Bouncy Castle's jar in the local Maven repository (a test dependency of the build).
#
#   bench/serpent.sh [--size BYTES] [--ms MILLIS] [--rounds N] [-- JVM options]
set -euo pipefail
cd "$(dirname "$0")"
size=8192 ms=1000 rounds=3 jvm=()
while [ $# -gt 0 ]; do
  case "$1" in
    --size) size=$2; shift 2 ;;
    --ms) ms=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --) shift; jvm=("$@"); break ;;
    *) echo "usage: bench/serpent.sh [--size BYTES] [--ms MILLIS] [--rounds N] [-- JVM options]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=$(ls ../vectorjce/target/vectorjce-*-SNAPSHOT.jar 2>/dev/null | grep -v -e sources -e javadoc | head -1)
[ -n "$jar" ] || { echo "missing the provider jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
stale=$(find ../vectorjce/src/main -type f -newer "$jar" 2>/dev/null | head -1)
[ -z "$stale" ] || { echo "the provider jar is older than $stale: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
bcv=$(sed -n 's:.*<bc.version>\(.*\)</bc.version>.*:\1:p' ../pom.xml ../vectorjce/pom.xml | head -1)
bc="$HOME/.m2/repository/org/bouncycastle/bcprov-jdk18on/$bcv/bcprov-jdk18on-$bcv.jar"
[ -f "$bc" ] || { echo "missing $bc" >&2; exit 2; }
exec 9>/tmp/vjce-build.lock
flock 9
mkdir -p results
out="results/$(date -u +%Y-%m-%d-%H%M)-serpent.txt"
java=("$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector "${jvm[@]}")
{
  echo "# Serpent speed, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p)"
  echo "# command: bench/serpent.sh --size $size --ms $ms --rounds $rounds${jvm:+ -- ${jvm[*]}}; tree $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet 2>/dev/null || echo '+changes'); Bouncy Castle $bcv"
  echo "# load before: $(uptime)"
  echo "## $size-byte calls, Serpent-256 (XTS: 512-bit key), MiB/s, best of $rounds rounds of $ms ms"
  "${java[@]}" -cp "$jar:$bc" serpent/SerpentVsBc.java "$size" "$ms" "$rounds" 2>/dev/null
  echo "## one sector per call: serpent-xts-plain64, 512-byte sectors (bench/sectors/PerSectorApi.java Serpent 512)"
  "${java[@]}" -cp "$jar" sectors/PerSectorApi.java Serpent 512 2>/dev/null
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
