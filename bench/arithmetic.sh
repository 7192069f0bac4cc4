#!/usr/bin/env bash
# The mode arithmetic in a fresh JVM: AES-XTS and Twofish-XTS encryption on one thread, 1 MiB
# calls (bench/arithmetic/FreshJvm.java), with -Dvectorjce.arithmetic=auto (the default: the vector
# arithmetic where it runs), =vector and =scalar, alternated, each a fresh JVM on JDK 25 with
# --add-modules jdk.incubator.vector. --jar FILE (repeatable) runs each round on each jar given, one
# after the other (another build's jar, to compare builds side by side); --modes picks the settings.
# Holds /tmp/vjce-build.lock; writes bench/results/<UTC date>-arithmetic.txt. Needs the provider
# jar (./mvnw -B -q package -DskipTests at the root).
#
#   bench/arithmetic.sh [--rounds N] [--aes-gib N] [--twofish-gib N] [--jar FILE]... [--modes auto,scalar]
set -euo pipefail
cd "$(dirname "$0")"
rounds=2 aes=8 tw=2 jars=() modes="auto vector scalar"
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jars+=("$(readlink -f "$2")"); shift 2 ;;
    --modes) modes=${2//,/ }; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --aes-gib) aes=$2; shift 2 ;;
    --twofish-gib) tw=$2; shift 2 ;;
    *) echo "usage: bench/arithmetic.sh [--rounds N] [--aes-gib N] [--twofish-gib N] [--jar FILE]... [--modes auto,scalar]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
if [ ${#jars[@]} -eq 0 ]; then
  jar=$(ls ../vectorjce/target/vectorjce-*-SNAPSHOT.jar 2>/dev/null | grep -v -e sources -e javadoc | head -1)
  [ -n "$jar" ] || { echo "missing the provider jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
  jars=("$(readlink -f "$jar")")
fi
exec 9>/tmp/vjce-build.lock
flock 9
out="results/$(date -u +%Y-%m-%d-%H%M)-arithmetic.txt"
mkdir -p results
{
  echo "# mode arithmetic in a fresh JVM, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), --add-modules jdk.incubator.vector"
  echo "# command: bench/arithmetic.sh --rounds $rounds --aes-gib $aes --twofish-gib $tw --modes ${modes// /,}; this tree: $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet 2>/dev/null || echo '+changes')"
  for j in "${jars[@]}"; do echo "# jar: $j"; done
  echo "# XTS encryption, 512-bit key, 512-byte sectors, init + 1 MiB doFinal per call, one thread; times inside the JVM (no JVM start)"
  echo "# load before: $(uptime)"
  for r in $(seq "$rounds"); do
    echo "## round $r"
    for alg in AES Twofish; do
      gib=$aes; [ "$alg" = Twofish ] && gib=$tw
      for jar in "${jars[@]}"; do
        for m in $modes; do
          printf '%-7s %-6s %s: ' "$alg" "$m" "$(basename "$(dirname "$(dirname "$(dirname "$jar")")")")"
          "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -Dvectorjce.arithmetic=$m -cp "$jar" \
              arithmetic/FreshJvm.java "$alg" "$gib" 2>/dev/null
        done
      done
    done
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
