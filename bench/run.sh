#!/usr/bin/env bash
# Runs the VectorJCE JMH suite and writes bench/results/<date>-<name>.json (JMH JSON) and .txt
# (machine, JDK, command and load at the top, then the Report tool's tables).
#
#   bench/run.sh --build                 build the provider (mvn install at the root) and the suite
#   bench/run.sh --quick [JMH options]   the quick variant: a few minutes (see bench/README.md)
#   bench/run.sh [JMH options]           the full suite: hours; narrow it with -p name=v1,v2
#   bench/run.sh --footprint             heap per initialised cipher (org.vectorjce.bench.Footprint)
#   bench/run.sh --cold [N]              first AES/CBC operation in N fresh JVMs (default 15) per
#                                        provider, VectorJCE and SunJCE alternating; medians, in
#                                        bench/results/<date>-cold.txt
#   bench/run.sh --jmh CLASS [options]   one benchmark class straight through JMH (e.g.
#                                        PerMessageBench, whose parameters Run does not know)
#
# JMH options go to org.vectorjce.bench.Run, e.g. -p mode=XTS -p size=512,4096 -p kernel=default.
# The JMH console log goes to bench/target/<name>.log.
set -euo pipefail
cd "$(dirname "$0")"

. ./jdk25.sh
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"

if [ "${1:-}" = "--build" ]; then
  (cd .. && ./mvnw -B -q install -DskipTests -pl vectorjce -am)
  ../mvnw -B -q -f pom.xml package
  echo "built bench/target/benchmarks.jar"
  exit 0
fi
if [ ! -f target/benchmarks.jar ]; then
  echo "bench/target/benchmarks.jar is missing: run bench/run.sh --build first" >&2
  exit 2
fi

name="full"
for a in "$@"; do [ "$a" = "--quick" ] && name="quick"; done
if [ "${1:-}" = "--footprint" ]; then
  exec "$JAVA" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
      -cp target/benchmarks.jar org.vectorjce.bench.Footprint
fi
if [ "${1:-}" = "--cold" ]; then
  n="${2:-15}"
  jar=$(ls ../vectorjce/target/vectorjce-*-SNAPSHOT.jar 2>/dev/null | grep -v -e sources -e javadoc | head -1)
  [ -n "$jar" ] || { echo "missing the provider jar: run bench/run.sh --build first" >&2; exit 2; }
  for p in VectorJCE SunJCE; do : > "target/cold-$p.txt"; done
  for i in $(seq "$n"); do
    for p in VectorJCE SunJCE; do
      # the provider jar as users have it (not the shaded benchmarks.jar, whose size and signed
      # dependencies the JCA's provider verification would charge to VectorJCE)
      "$JAVA" --add-modules jdk.incubator.vector -cp "$jar:target/classes" \
        org.vectorjce.bench.ColdStart "$p" 2>/dev/null \
        | awk '{print $2}' >> "target/cold-$p.txt"
    done
  done
  out="results/$(date -u +%Y-%m-%d-%H%M)-cold.txt"
  {
    echo "# first AES/CBC/PKCS5Padding operation in a fresh JVM (org.vectorjce.bench.ColdStart), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $("$JAVA" -version 2>&1 | sed -n 2p)"
    echo "# command: bench/run.sh --cold $n; jar: $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?'); ms from main's first line, VectorJCE and SunJCE alternated"
    for p in VectorJCE SunJCE; do
      echo "$p: $(tr '\n' ' ' < "target/cold-$p.txt")"
      echo "$p: median $(sort -n "target/cold-$p.txt" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}') ms over $n JVMs" \
           "(min $(sort -n "target/cold-$p.txt" | head -1), max $(sort -n "target/cold-$p.txt" | tail -1))"
    done
  } | tee "$out"
  echo "wrote bench/$out"
  exit 0
fi
if [ "${1:-}" = "--jmh" ]; then
  shift
  name="$(date -u +%Y-%m-%d-%H%M)-${BENCH_NAME:-$(echo "${1:-jmh}" | tr 'A-Z' 'a-z')}"
  mkdir -p results
  {
    echo "VectorJCE JMH, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores; $(uname -sr)"
    echo "JDK: $("$JAVA" -version 2>&1 | tail -1)"
    echo "provider: $(cd .. && git describe --always --dirty 2>/dev/null || echo unknown)"
    echo "command: bench/run.sh --jmh $*"
    echo "load before: $(uptime)"
  } > "results/$name.txt"
  "$JAVA" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
      -jar target/benchmarks.jar "$@" -rf json -rff "results/$name.json" 2>&1 | tee "target/$name.log" \
      | sed -n '/^Benchmark /,$p' >> "results/$name.txt"
  echo "load after: $(uptime)" >> "results/$name.txt"
  echo "wrote bench/results/$name.txt"
  exit 0
fi
name="$(date -u +%Y-%m-%d-%H%M)-${BENCH_NAME:-$name}"
mkdir -p results
json="results/$name.json"
txt="results/$name.txt"
log="target/$name.log"
cmd=("$JAVA" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED
     -cp target/benchmarks.jar org.vectorjce.bench.Run "$@" -rf json -rff "$json")

{
  echo "VectorJCE JMH suite, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores," \
       "$(sed -n 's/^cpu MHz[[:space:]]*: //p' /proc/cpuinfo | head -1) MHz; $(uname -sr)"
  echo "vector: $(grep -o -w 'avx512f\|avx2\|vaes\|vpclmulqdq\|gfni' /proc/cpuinfo | sort -u | tr '\n' ' ')"
  echo "JDK: $("$JAVA" -version 2>&1 | tail -1)"
  echo "provider: $(cd .. && git describe --always --dirty 2>/dev/null || echo unknown)"
  echo "command: bench/run.sh $*"
  echo "load before: $(uptime)"
} > "$txt.head"
echo "running: ${cmd[*]}  (log: bench/$log)"
"${cmd[@]}" 2>&1 | tee "$log" | grep --line-buffered -E '^# (Run progress|[A-Za-z]+Bench:|[0-9]+ trials|[0-9]+ results)|<failure>' || true
echo "load after: $(uptime)" >> "$txt.head"
if [ ! -s "$json" ]; then
  echo "no results in bench/$json: see bench/$log" >&2
  exit 1
fi
{ cat "$txt.head"; echo; "$JAVA" -cp target/benchmarks.jar org.vectorjce.bench.Report "$json"; } > "$txt"
rm -f "$txt.head"
echo "wrote bench/$json and bench/$txt"
