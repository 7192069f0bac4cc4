#!/usr/bin/env bash
# BitLocker: unlocking and reading, against cryptsetup (and dislocker-file when installed).
# Writes bench/results/<date>-bitlk.txt. Each command is a fresh process, ours and theirs
# alternating, wall time in seconds:
#  (a) unlock with the password: `bin/volume test --type bitlk IMG` (as users run it: the launcher,
#      its JDK 25 and the build's AOT cache where there are)
#      beside `cryptsetup bitlkDump --dump-volume-key -q IMG` (2^20 SHA-256 rounds each), and
#      `volume --version` (the JVM and picocli alone);
#  (b) `bin/volume decrypt --type bitlk IMG OUT` of the whole device (the launcher: its JDK 25,
#      without the vector module, on the base AOT cache): AES-XTS-128 (100 MiB) and
#      AES-CBC-128 with the Elephant diffuser (128 MiB), beside `dislocker-file -V IMG -uPASSWORD
#      -- OUT` when dislocker is installed (cryptsetup needs the kernel's dm-crypt for the data);
#  (c) reading the device in one JVM (BitlkPayloadBench in the module's test classes, with
#      --add-modules jdk.incubator.vector): payload() beside the provider's SectorCipher on the same
#      bytes, from memory and read from the file;
#  (d) in fresh JVMs (bench/bitlk/FreshJvm.java): the stretch's loop alone, from the JVM's first
#      SHA-256 to its end and again compiled; and SectorCipher decrypting 128 MiB of aes-xts-plain64
#      and of aes-cbc-elephant from its first call, per 4 MiB.
# The images are cryptsetup's tests/bitlk-images.tar.xz (testvectors/bitlk-images), unpacked as
# sparse files. Needs the jar and the test classes:  ./mvnw -B -q package -DskipTests
#
#   bench/bitlk.sh [--rounds N]
set -euo pipefail
cd "$(dirname "$0")"
rounds=5
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: bench/bitlk.sh [--rounds N]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
java="$JAVA_HOME/bin/java"
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests" >&2; exit 2; }
command -v cryptsetup >/dev/null || { echo "cryptsetup not found (Debian: cryptsetup-bin)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xJSf ../testvectors/bitlk-images/bitlk-images.tar.xz -C "$work"
img="$work/bitlk-images"
pw=anaconda
secs() {
  local t0 t1
  t0=$(date +%s.%N)
  echo "$pw" | "$@" >/dev/null 2>&1 || { echo fail; return; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
median() { tr ' ' '\n' | { grep -E '^[0-9.]+$' || true; } | sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

out="results/$(date -u +%Y-%m-%d-%H%M)-bitlk.txt"
mkdir -p results
{
  echo "# BitLocker: bin/volume test --type bitlk and bin/volume decrypt --type bitlk vs cryptsetup bitlkDump --dump-volume-key and dislocker-file; AOT cache: $(ls ../vectorjce-tool/target/*-volume.aot 2>/dev/null || echo none)"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $("$java" -version 2>&1 | sed -n 2p), $(cryptsetup --version)"
  echo "# command: bench/bitlk.sh --rounds $rounds; load before: $(uptime | sed 's/.*load/load/')"
  echo "## (a) unlock with the password, seconds per fresh process"
  for name in bitlk-aes-xts-128 bitlk-aes-cbc-elephant-128; do
    ours_all="" cs_all="" ver_all=""
    for r in $(seq "$rounds"); do
      v=$(secs ../bin/volume test --type bitlk "$img/$name.img")
      c=$(secs cryptsetup bitlkDump --dump-volume-key -q "$img/$name.img")
      s=$(secs ../bin/volume --version)
      ours_all="$ours_all $v" cs_all="$cs_all $c" ver_all="$ver_all $s"
      echo "$name: round $r: volume test $v s, cryptsetup $c s, ratio $(ratio "$v" "$c"); volume --version $s s"
    done
    mo=$(echo "$ours_all" | median) mc=$(echo "$cs_all" | median) mv=$(echo "$ver_all" | median)
    echo "$name: median volume test $mo s, cryptsetup $mc s, ratio $(ratio "$mo" "$mc"); volume --version $mv s"
  done
  echo "## (b) decrypt the whole device, seconds per fresh process; ours as users run it, bin/volume (its JDK 25 on the base AOT cache, without the vector module)"
  for name in bitlk-aes-xts-128 bitlk-aes-cbc-elephant-128; do
    ours_all="" dl_all=""
    for r in $(seq "$rounds"); do
      rm -f "$work/out"
      v=$(secs ../bin/volume decrypt --type bitlk "$img/$name.img" "$work/out")
      sum=$(sha256sum "$work/out" | cut -c1-16)
      rm -f "$work/out"
      d=-
      if command -v dislocker-file >/dev/null; then
        d=$(secs dislocker-file -V "$img/$name.img" -u"$pw" -- "$work/out")
        rm -f "$work/out"
      fi
      ours_all="$ours_all $v" dl_all="$dl_all $d"
      echo "$name: round $r: volume decrypt $v s (sha256 $sum...), dislocker-file $d s"
    done
    mo=$(echo "$ours_all" | median) md=$(echo "$dl_all" | median)
    echo "$name: median volume decrypt $mo s, dislocker-file $md s$(command -v dislocker-file >/dev/null || echo ' (dislocker not installed)')"
  done
  echo "## (c) payload() vs the sector API in one JVM, MB/s per round (the first rounds compile)"
  for name in bitlk-aes-xts-128 bitlk-aes-cbc-128 bitlk-aes-cbc-elephant-128; do
    "$java" --add-modules jdk.incubator.vector -cp "$jar:../vectorjce-volumes/target/test-classes" \
        org.vectorjce.volumes.bitlk.BitlkPayloadBench "$img/$name.img" "$pw" 6 2>/dev/null
  done
  echo "## (d) in fresh JVMs (bench/bitlk/FreshJvm.java, java without --add-modules)"
  "$JAVA_HOME/bin/javac" -d "$work/classes" -cp "$jar" bitlk/FreshJvm.java
  for r in $(seq "$rounds"); do
    "$java" -cp "$jar:$work/classes" FreshJvm stretch
    "$java" -cp "$jar:$work/classes" FreshJvm sectors aes-xts-plain64 128
    "$java" -cp "$jar:$work/classes" FreshJvm sectors aes-cbc-elephant 128
  done
  echo "# load after: $(uptime | sed 's/.*load/load/')"
} | tee "$out"
