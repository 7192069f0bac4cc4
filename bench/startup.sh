#!/usr/bin/env bash
# Start-up of the volume command from a fresh process, as users run it (bin/volume: its JDK 25, the
# build's AOT caches and the launcher's JVM options), beside a JVM that does nothing and
# cryptsetup, the commands alternated round by round, wall milliseconds:
#   java -version                          the launcher's JDK 25 (a JVM that does nothing)
#   bin/volume --version, bin/volume --help
#   volume test --type bitlk IMG           cryptsetup's bitlk-aes-xts-128.img, password on stdin
#   cryptsetup open --test-passphrase --type bitlk IMG
# Writes bench/results/<date>-startup.txt. Needs the jar and its caches (./mvnw -B -q package
# -DskipTests) and cryptsetup (Debian: cryptsetup-bin).
#
#   bench/startup.sh [--rounds N]
set -euo pipefail
cd "$(dirname "$0")"
rounds=7
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: bench/startup.sh [--rounds N]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
command -v cryptsetup >/dev/null || { echo "cryptsetup not found (Debian: cryptsetup-bin)" >&2; exit 2; }
ls ../vectorjce-tool/target/vectorjce-tool-*-volume.jar >/dev/null 2>&1 \
  || { echo "the volume jar is not built: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xJSf ../testvectors/bitlk-images/bitlk-images.tar.xz -C "$work" bitlk-images/bitlk-aes-xts-128.img
img="$work/bitlk-images/bitlk-aes-xts-128.img"
# ms COMMAND...: the wall milliseconds of COMMAND (its output discarded), or "fail"
ms() {
  local s
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo fail; return; }
  echo $(( ($(date +%s%N) - s) / 1000000 ))
}
declare -A row
names=(java-version volume-version volume-help volume-test cryptsetup)
for r in $(seq "$rounds"); do
  row[java-version]+=" $(ms "$JAVA_HOME/bin/java" -version)"
  row[volume-version]+=" $(ms ../bin/volume --version)"
  row[volume-help]+=" $(ms ../bin/volume --help)"
  row[volume-test]+=" $(ms sh -c 'echo anaconda | ../bin/volume test --type bitlk "$1"' sh "$img")"
  row[cryptsetup]+=" $(ms sh -c 'echo -n anaconda | cryptsetup open --test-passphrase --type bitlk "$1"' sh "$img")"
done
out="results/$(date -u +%Y-%m-%d-%H%M)-startup.txt"
{
  echo "# Start-up of bin/volume, fresh processes, wall ms, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p)"
  echo "# at $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?'); command: bench/startup.sh --rounds $rounds; load: $(uptime | sed 's/.*load average: //')"
  printf '%-32s%s\n' "java -version:" "${row[java-version]}"
  printf '%-32s%s   (goal <= 200)\n' "bin/volume --version:" "${row[volume-version]}"
  printf '%-32s%s   (goal <= 200)\n' "bin/volume --help:" "${row[volume-help]}"
  printf '%-32s%s   (goal <= 400)\n' "volume test --type bitlk:" "${row[volume-test]}"
  printf '%-32s%s\n' "cryptsetup --test-passphrase:" "${row[cryptsetup]}"
} | tee "$out"
echo "wrote bench/$out"
