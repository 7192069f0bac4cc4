#!/usr/bin/env bash
# TrueCrypt/VeraCrypt opening and reading, against cryptsetup where it can do the same here.
# Writes bench/results/<date>-tcrypt.txt. Each open is a fresh process, ours and cryptsetup's
# alternating, wall time in seconds:
#  (a) hinted open: `volume test --type tcrypt -h H -c aes IMG` beside `cryptsetup tcryptDump -h H
#      -c aes IMG`, same arguments, for the AES images of testvectors/tcrypt-images whose PRF
#      cryptsetup 2.6 can run here. For VeraCrypt SHA-512 and Whirlpool images both also get
#      `--veracrypt-pim 485` (15000 + 1000 x 485 = VeraCrypt's default 500,000 iterations, the
#      same derivation): without it cryptsetup first tries TrueCrypt's 1000-iteration row of the
#      hash, and its chain twofish-aes, which needs the kernel's Twofish, stops it.
#  (b) unhinted open of VeraCrypt volumes (`volume test --type tcrypt IMG`: every row and chain)
#      beside the sum of cryptsetup's hinted times from (a) over the PRFs our search starts before
#      it finds the header (HeaderSearch starts the first blocks of VeraCrypt's SHA-512 and SHA-256
#      rows before all others, on 2 threads); then, ours only, an unhinted TrueCrypt open, which
#      those VeraCrypt blocks delay, with and without --disable-veracrypt (cryptsetup's unhinted
#      tcryptDump stops at the first Twofish chain here, see (a)).
#  (c) payload read of synthetic AES-Twofish and AES-Twofish-Serpent (cryptsetup's twofish-aes and
#      serpent-twofish-aes) XTS volumes (TcryptPayloadBench in the module's test classes) beside
#      their ciphers' XTS bare in series, one thread, one JVM per chain.
# Needs cryptsetup (cryptsetup-bin), the jar and the test classes:
#   ./mvnw -B -q package -DskipTests && ./mvnw -B -q -pl vectorjce-volumes test-compile
#
#   bench/tcrypt.sh [--rounds N] [--mib M]
set -euo pipefail
cd "$(dirname "$0")"
rounds=5 mib=256
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --mib) mib=$2; shift 2 ;;
    *) echo "usage: bench/tcrypt.sh [--rounds N] [--mib M]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
java="$JAVA_HOME/bin/java"
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
tests=../vectorjce-volumes/target/test-classes
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests" >&2; exit 2; }
[ -f "$tests/org/vectorjce/volumes/tcrypt/TcryptPayloadBench.class" ] \
  || { echo "missing the test classes: run ./mvnw -B -q -pl vectorjce-volumes test-compile" >&2; exit 2; }
command -v cryptsetup >/dev/null || { echo "cryptsetup not found (Debian: cryptsetup-bin)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xJf ../testvectors/tcrypt-images/tcrypt-images.tar.xz -C "$work"
img="$work/tcrypt-images"
pw=aaaaaaaaaaaa
# wall seconds of "$@" with the password on stdin; "fail" when it exits non-zero
secs() {
  local t0 t1
  t0=$(date +%s.%N)
  echo "$pw" | "$@" >/dev/null 2>&1 || { echo fail; return; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
median() { tr ' ' '\n' | grep -E '^[0-9.]+$' | sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

out="results/$(date -u +%Y-%m-%d-%H%M)-tcrypt.txt"
mkdir -p results
declare -A cs_median
{
  echo "# TrueCrypt/VeraCrypt: volume test (the vectorjce-volumes jar, java -jar without --add-modules) vs cryptsetup tcryptDump; payload read (with --add-modules jdk.incubator.vector)"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $("$java" -version 2>&1 | sed -n 2p), $(cryptsetup --version)"
  echo "# command: bench/tcrypt.sh --rounds $rounds --mib $mib; load before: $(uptime | sed 's/.*load/load/')"
  echo "## (a) hinted open, seconds of wall time per fresh process (ours, cryptsetup, ratio)"
  for spec in "vc_1-sha256-xts-aes sha256" "vc_1-sha512-xts-aes sha512 --veracrypt-pim 485" \
      "vc_1-whirlpool-xts-aes whirlpool --veracrypt-pim 485" "tc_5-sha512-xts-aes sha512" \
      "tc_5-whirlpool-xts-aes whirlpool" "tc_5-ripemd160-xts-aes ripemd160"; do
    set -- $spec
    name=$1 h=$2; shift 2
    ours_all="" cs_all=""
    for r in $(seq "$rounds"); do
      v=$(secs "$java" -jar "$jar" test --type tcrypt -h "$h" -c aes "$@" "$img/$name")
      c=$(secs cryptsetup tcryptDump -h "$h" -c aes "$@" "$img/$name")
      ours_all="$ours_all $v" cs_all="$cs_all $c"
      echo "$name -h $h -c aes $*: round $r: ours $v s, cryptsetup $c s, ratio $(ratio "$v" "$c")"
    done
    mo=$(echo "$ours_all" | median) mc=$(echo "$cs_all" | median)
    cs_median[$name]=$mc
    echo "$name: median ours $mo s, cryptsetup $mc s, ratio $(ratio "$mo" "$mc")"
  done
  echo "## (b) unhinted open (every row and chain) vs the sum of cryptsetup's hinted medians above for the PRFs started first (sha256 + sha512)"
  sum=$(awk -v a="${cs_median[vc_1-sha256-xts-aes]}" -v b="${cs_median[vc_1-sha512-xts-aes]}" 'BEGIN { printf "%.2f", a + b }')
  for name in vc_1-sha256-xts-aes vc_1-sha512-xts-aes; do
    all=""
    for r in $(seq "$rounds"); do
      v=$(secs "$java" -jar "$jar" test --type tcrypt "$img/$name")
      all="$all $v"
      echo "$name unhinted: round $r: ours $v s, cryptsetup sha256 + sha512 $sum s, ratio $(ratio "$v" "$sum")"
    done
    m=$(echo "$all" | median)
    echo "$name unhinted: median ours $m s, ratio to $sum s: $(ratio "$m" "$sum")"
  done
  for args in "" "--disable-veracrypt"; do
    all=""
    for r in $(seq "$rounds"); do
      v=$(secs "$java" -jar "$jar" test --type tcrypt $args "$img/tc_5-sha512-xts-aes")
      all="$all $v"
      echo "tc_5-sha512-xts-aes unhinted ${args:+$args }: round $r: ours $v s"
    done
    echo "tc_5-sha512-xts-aes unhinted ${args:+$args }: median ours $(echo "$all" | median) s"
  done
  echo "## (c) payload read, $mib MiB, one thread (round 0 of each JVM is a warm-up, not shown); -Dvectorjce.arithmetic=vector -Dvectorjce.twofish16.path=fused"
  # Both sides on the same code in every round: the vector mode arithmetic (the default where it
  # runs) and the 16-way Twofish kernel's fused batch, which by default serves only after
  # VectorJce.warmUp() and here serves from the first call.
  for chain in twofish-aes serpent-twofish-aes; do
    "$java" --add-modules jdk.incubator.vector -Dvectorjce.arithmetic=vector -Dvectorjce.twofish16.path=fused -cp "$jar:$tests" org.vectorjce.volumes.tcrypt.TcryptPayloadBench "$mib" "$rounds" 1024 "$chain" 2>&1 \
      | grep -v '^WARNING: Using incubator modules'
  done
  echo "# load after: $(uptime | sed 's/.*load/load/')"
} | tee "$out"
echo "wrote bench/$out"
