#!/usr/bin/env bash
# FileVault 2: unlocking and reading, against cryptsetup. Writes bench/results/<date>-fvault2.txt.
# Each command is a fresh process, ours and theirs alternating, wall time in seconds:
#  (a) unlock with the password: `volume test --type fvault2 IMG` (java -jar, the module's jar)
#      beside `cryptsetup fvault2Dump --dump-volume-key -q IMG` (PBKDF2-SHA256, 204,222 iterations
#      here, and two RFC 3394 unwraps each), and `volume --version` (the JVM and picocli alone);
#  (b) `volume decrypt --type fvault2 IMG OUT` of the whole logical volume (160 MiB, AES-XTS-128),
#      with the password and with --volume-key-file, in MB/s of plaintext; cryptsetup needs the
#      kernel's dm-crypt for the data, so it has no row here;
#  (c) reading the logical volume in one JVM (Fvault2PayloadBench in the module's test classes, with
#      --add-modules jdk.incubator.vector): payload() beside the provider's SectorCipher on the same
#      bytes read from the same file.
# The image is cryptsetup's tests/fvault2-images.tar.xz (testvectors/fvault2-images), unpacked as a
# sparse file. Needs the jar and the test classes:  ./mvnw -B -q package -DskipTests
#
#   bench/fvault2.sh [--rounds N]
set -euo pipefail
cd "$(dirname "$0")"
rounds=5
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: bench/fvault2.sh [--rounds N]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
java="$JAVA_HOME/bin/java"
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests" >&2; exit 2; }
command -v cryptsetup >/dev/null || { echo "cryptsetup not found (Debian: cryptsetup-bin)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xJSf ../testvectors/fvault2-images/fvault2-images.tar.xz -C "$work"
img="$work/fvault2-images/small"
pw=heslo123
printf '\x20\x73\x4d\x33\x89\x21\x27\x74\xd7\x61\x0c\x29\xd7\x32\x88\x09\x16\xf3\xbe\x14\xc4\xb1\x2a\xc7\xaa\xf0\x7e\x5c\xcc\x77\xb3\x19' > "$work/vk"
secs() {
  local t0 t1
  t0=$(date +%s.%N)
  echo "$pw" | "$@" >/dev/null 2>&1 || { echo fail; return; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
mbs() { awk -v s="$1" 'BEGIN { if (s + 0 > 0) printf "%.0f", 167772160 / 1e6 / s; else print "-" }'; }
median() { tr ' ' '\n' | { grep -E '^[0-9.]+$' || true; } | sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

out="results/$(date -u +%Y-%m-%d-%H%M)-fvault2.txt"
mkdir -p results
{
  echo "# FileVault 2: volume test/decrypt --type fvault2 (java -jar, no --add-modules) vs cryptsetup fvault2Dump --dump-volume-key"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $("$java" -version 2>&1 | sed -n 2p), $(cryptsetup --version)"
  echo "# command: bench/fvault2.sh --rounds $rounds; load before: $(uptime | sed 's/.*load/load/')"
  echo "## (a) unlock with the password, seconds per fresh process"
  ours_all="" cs_all="" ver_all=""
  for r in $(seq "$rounds"); do
    v=$(secs "$java" -jar "$jar" test --type fvault2 "$img")
    c=$(secs cryptsetup fvault2Dump --dump-volume-key -q "$img")
    s=$(secs "$java" -jar "$jar" --version)
    ours_all="$ours_all $v" cs_all="$cs_all $c" ver_all="$ver_all $s"
    echo "small: round $r: volume test $v s, cryptsetup $c s, ratio $(ratio "$v" "$c"); volume --version $s s"
  done
  mo=$(echo "$ours_all" | median) mc=$(echo "$cs_all" | median) mv=$(echo "$ver_all" | median)
  echo "small: median volume test $mo s, cryptsetup $mc s, ratio $(ratio "$mo" "$mc"); volume --version $mv s"
  echo "## (b) decrypt the whole logical volume (167772160 bytes), seconds per fresh process and MB/s"
  pw_all="" vk_all=""
  for r in $(seq "$rounds"); do
    rm -f "$work/out"
    v=$(secs "$java" -jar "$jar" decrypt --type fvault2 "$img" "$work/out")
    sum=$(sha256sum "$work/out" | cut -c1-16)
    rm -f "$work/out"
    k=$(secs "$java" -jar "$jar" decrypt --type fvault2 --volume-key-file "$work/vk" "$img" "$work/out")
    rm -f "$work/out"
    pw_all="$pw_all $v" vk_all="$vk_all $k"
    echo "small: round $r: volume decrypt (password) $v s = $(mbs "$v") MB/s (sha256 $sum...), (--volume-key-file) $k s = $(mbs "$k") MB/s"
  done
  mp=$(echo "$pw_all" | median) mk=$(echo "$vk_all" | median)
  echo "small: median volume decrypt (password) $mp s = $(mbs "$mp") MB/s, (--volume-key-file) $mk s = $(mbs "$mk") MB/s"
  echo "## (c) payload() vs the sector API in one JVM, MB/s per round (the first rounds compile)"
  "$java" --add-modules jdk.incubator.vector -cp "$jar:../vectorjce-volumes/target/test-classes" \
      org.vectorjce.volumes.fvault2.Fvault2PayloadBench "$img" "$pw" 6 2>/dev/null
  echo "# load after: $(uptime | sed 's/.*load/load/')"
} | tee "$out"
