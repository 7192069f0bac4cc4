#!/usr/bin/env bash
# LUKS payload speed: `volume decrypt` and `volume encrypt` (the vectorjce-volumes jar, --threads 2,
# a fresh JVM each, wall time of the whole command) of a 1 GiB payload, Twofish-XTS and AES-XTS,
# beside `cp` of the same 1 GiB file and the provider's bare multi-sector cipher on one thread
# (bench/payload/PayloadBench.java `cipher`: Cipher + SectorParameterSpec, 1 MiB calls over 1 GiB
# in memory, in a fresh JVM of its own per direction, timed inside it: no JVM start counted; and
# decryption once more on two threads); then
# the same comparison in steady state inside one JVM (PayloadBench `scaling`), and
# LuksVolume.payload() against SectorChannel with the same cipher and key, 1 MiB reads and 1 MiB
# writes on one thread in one JVM (PayloadBench `channels`). Rounds alternate the commands; each
# command line gives its CPU use (% of one core: 200% is both cores). `cp` and `decrypt`, which
# create a 1 GiB file, each run right after one was deleted (a new file's page-cache allocation
# varies here from 0.3 to 4 s of kernel time with what ran before). Every decrypt is compared
# with the input (cmp). Holds /tmp/vjce-build.lock for the whole run; the files live in a
# temporary folder under --dir (default /tmp), in the page cache, and are deleted at the end.
# Writes bench/results/<UTC date>-payload.txt. Needs the jar (./mvnw -B -q package -DskipTests at
# the root); the AES volume is formatted by cryptsetup (LUKS2) when it is installed, else by
# `volume format` (LUKS1); the Twofish one by `volume format` (cryptsetup's Twofish needs the kernel).
#
#   bench/payload.sh [--rounds N] [--mib N] [--dir DIR]
set -euo pipefail
cd "$(dirname "$0")"
rounds=3 mib=1024 dir=/tmp
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --mib) mib=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "usage: bench/payload.sh [--rounds N] [--mib N] [--dir DIR]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=$PWD/../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
java=("$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector)
volume=("${java[@]}" -jar "$jar")
bench=("${java[@]}" -cp "$jar" "$PWD/payload/PayloadBench.java")
bytes=$((mib << 20))

exec 9>/tmp/vjce-build.lock
flock 9
work=$(mktemp -d "$dir/vjce-payload.XXXXXX"); trap 'rm -rf "$work"' EXIT
# secs CMD...: the command's wall seconds; its CPU use (user+sys as % of one core) goes to $work/cpu
secs() {
  /usr/bin/time -f '%e %P %U %S' -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
  read -r wall cpu user sys < "$work/time"; echo "$cpu (user $user s, sys $sys s)" > "$work/cpu"; echo "$wall"
}
mbs() { awk -v n="$bytes" -v s="$1" 'BEGIN { printf "%.0f", n / s / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

out="results/$(date -u +%Y-%m-%d-%H%M)-payload.txt"
mkdir -p results
{
  echo "# LUKS payload speed, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), --add-modules jdk.incubator.vector"
  echo "# command: bench/payload.sh --rounds $rounds --mib $mib --dir $dir; jar: $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet 2>/dev/null || echo '+changes')"
  echo "# load before: $(uptime)"
  head -c "$bytes" /dev/urandom > "$work/plain"
  head -c 1048576 "$work/plain" > "$work/small"
  printf 'payload benchmark key file' > "$work/key"
  # Twofish-XTS, LUKS1, by volume format; then cut to a payload of exactly $mib MiB
  truncate -s $((bytes + (4 << 20))) "$work/tw.img"
  "${volume[@]}" format -q --type luks1 --cipher twofish-xts-plain64 --key-size 512 --hash sha256 --pbkdf-force-iterations 1000 \
      --key-file "$work/key" "$work/tw.img" >/dev/null 2>&1
  off=$("${volume[@]}" info "$work/tw.img" 2>/dev/null | sed -n 's/^Payload offset:[[:space:]]*\([0-9]*\) \[bytes\].*/\1/p')
  truncate -s $((off + bytes)) "$work/tw.img"
  if command -v cryptsetup >/dev/null; then
    truncate -s $((bytes + (16 << 20))) "$work/aes.img"
    cryptsetup luksFormat -q --type luks2 --cipher aes-xts-plain64 --key-size 512 --pbkdf pbkdf2 --hash sha256 \
        --pbkdf-force-iterations 1000 "$work/aes.img" "$work/key"
    aesfmt="cryptsetup luksFormat --type luks2 aes-xts-plain64 512-bit"
  else
    truncate -s $((bytes + (4 << 20))) "$work/aes.img"
    "${volume[@]}" format -q --type luks1 --cipher aes-xts-plain64 --key-size 512 --pbkdf-force-iterations 1000 \
        --key-file "$work/key" "$work/aes.img" >/dev/null 2>&1
    off=$("${volume[@]}" info "$work/aes.img" 2>/dev/null | sed -n 's/^Payload offset:[[:space:]]*\([0-9]*\) \[bytes\].*/\1/p')
    truncate -s $((off + bytes)) "$work/aes.img"
    aesfmt="volume format (LUKS1) aes-xts-plain64 512-bit"
  fi
  echo "# volumes: twofish: volume format (LUKS1) twofish-xts-plain64 512-bit; aes: $aesfmt; payloads $bytes bytes; 512-byte sectors"
  cat "$work/plain" > /dev/null
  echo "# MB/s = $bytes bytes / wall seconds of the whole command (JVM start and key slot included) unless marked"
  for r in $(seq "$rounds"); do
    echo "## round $r"
    bare_dec=$("${bench[@]}" cipher twofish-xts-plain64 512 "$bytes" decrypt 2>/dev/null)
    bare_enc=$("${bench[@]}" cipher twofish-xts-plain64 512 "$bytes" encrypt 2>/dev/null)
    echo "$bare_dec"; echo "$bare_enc"
    # the same on two threads in a fresh JVM: what the JIT's warm-up leaves of the second core
    "${bench[@]}" cipher twofish-xts-plain64 512 "$bytes" decrypt 2 2>/dev/null
    bare_dec=$(echo "$bare_dec" | sed -n 's/.* = \([0-9]*\) MB\/s/\1/p')
    bare_enc=$(echo "$bare_enc" | sed -n 's/.* = \([0-9]*\) MB\/s/\1/p')
    for v in tw aes; do
      t=$(secs "${volume[@]}" encrypt "$work/plain" "$work/$v.img" --key-file "$work/key" --threads 2); enc=$(mbs "$t")
      enc_cpu=$(cat "$work/cpu")
      if [ "$v" = tw ]; then what="twofish-xts"; else what="aes-xts    "; fi
      echo "$what volume encrypt --threads 2: $enc MB/s, cpu $enc_cpu"
      # cp, then decrypt: each a new 1 GiB file right after one was deleted
      t=$(secs cp "$work/plain" "$work/copy"); cp_mbs=$(mbs "$t")
      echo "cp: $t s, $cp_mbs MB/s, cpu $(cat "$work/cpu")"
      rm -f "$work/copy"
      t=$(secs "${volume[@]}" decrypt "$work/$v.img" "$work/out" --key-file "$work/key" --threads 2); dec=$(mbs "$t")
      dec_cpu=$(cat "$work/cpu")
      cmp -s "$work/out" "$work/plain" || { echo "decrypt of $v.img differs from the input" >&2; exit 1; }
      rm -f "$work/out"
      echo "$what volume decrypt --threads 2: $dec MB/s, cpu $dec_cpu"
      if [ "$v" = aes ]; then
        # the fixed cost of a command: JVM start, opening, the key slot, 1 MiB
        t=$(secs "${volume[@]}" encrypt "$work/small" "$work/$v.img" --key-file "$work/key" --threads 2)
        echo "aes-xts     volume encrypt of 1 MiB: $t s"
      fi
      if [ "$v" = tw ]; then
        echo "  ratios: encrypt $(ratio "$enc" "$bare_enc")x bare encrypt, decrypt $(ratio "$dec" "$bare_dec")x bare decrypt (this round)"
      else
        echo "  ratios: encrypt $(ratio "$enc" "$cp_mbs")x cp, decrypt $(ratio "$dec" "$cp_mbs")x cp (the cp just above)"
      fi
    done
  done
  for v in tw aes; do
    echo "## steady state, $v.img, one JVM (timed inside it, after a warm-up round): PayloadBench scaling"
    "${bench[@]}" scaling "$work/$v.img" "$work/key" 2 2>/dev/null
  done
  for v in tw aes; do
    echo "## LuksVolume.payload() vs SectorChannel, $v.img, one JVM, one thread (timed inside it)"
    "${bench[@]}" channels "$work/$v.img" "$work/key" 3 2>/dev/null
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
