#!/usr/bin/env bash
# Key slot cost calibration: `volume add-key` (the vectorjce-volumes jar) beside `cryptsetup
# luksAddKey` on the same LUKS2 image, the same --iter-time, for argon2id and pbkdf2-sha256; then
# how long each slot takes to unlock with either tool (fresh processes, alternating). Writes
# bench/results/<date>-keyslot-calibration.txt. Needs cryptsetup and the jar
# (./mvnw -B -q package -DskipTests).
#
#   bench/keyslot-calibration.sh [--rounds N] [--iter-time MS]
set -euo pipefail
cd "$(dirname "$0")"
rounds=3 iter=2000
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --iter-time) iter=$2; shift 2 ;;
    *) echo "usage: bench/keyslot-calibration.sh [--rounds N] [--iter-time MS]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests first" >&2; exit 2; }
command -v cryptsetup >/dev/null || { echo "cryptsetup not found (Debian: cryptsetup-bin)" >&2; exit 2; }
java=("$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -jar "$jar")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf 'slot zero' > "$work/k0"
for s in 1 2 3 4; do printf 'slot %s' "$s" > "$work/k$s"; done
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || return 1; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'; }
median() { tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

img="$work/v.img"; truncate -s 20M "$img"
cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file "$work/k0" "$img"
out="results/$(date -u +%Y-%m-%d-%H%M)-keyslot-calibration.txt"
mkdir -p results
{
  echo "# volume add-key vs cryptsetup luksAddKey calibration, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(awk '/MemTotal/ {print $2 " KiB RAM"}' /proc/meminfo), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), $(cryptsetup --version)"
  echo "# command: bench/keyslot-calibration.sh --rounds $rounds --iter-time $iter"
  echo "# load before: $(uptime)"
  echo "# adding (wall seconds, calibration and the slot's own KDF run included):"
  echo "slot 1 cryptsetup argon2id: $(secs cryptsetup luksAddKey -q --pbkdf argon2id --iter-time "$iter" --key-slot 1 --key-file "$work/k0" "$img" "$work/k1") s"
  echo "slot 2 vectorjce  argon2id: $(secs "${java[@]}" volume add-key "$img" "$work/k2" --pbkdf argon2id --iter-time "$iter" --key-slot 2 --key-file "$work/k0") s"
  echo "slot 3 cryptsetup pbkdf2:   $(secs cryptsetup luksAddKey -q --pbkdf pbkdf2 --hash sha256 --iter-time "$iter" --key-slot 3 --key-file "$work/k0" "$img" "$work/k3") s"
  echo "slot 4 vectorjce  pbkdf2:   $(secs "${java[@]}" volume add-key "$img" "$work/k4" --pbkdf pbkdf2 --hash sha256 --iter-time "$iter" --key-slot 4 --key-file "$work/k0") s"
  echo "# the costs chosen (cryptsetup luksDump):"
  cryptsetup luksDump "$img" | sed -n '/^Keyslots:/,/^Tokens:/p' | grep -E '^  [0-9]|PBKDF|Time cost|Memory|Threads|Iterations' | paste - - - - - | sed 's/\t/ /g; s/  */ /g'
  echo "# unlocking each slot (median wall seconds of $rounds fresh processes, the tools alternating):"
  for s in 1 2 3 4; do
    c="" v=""
    for r in $(seq "$rounds"); do
      c="$c $(secs cryptsetup open --test-passphrase --key-slot "$s" --key-file "$work/k$s" "$img")"
      v="$v $(secs "${java[@]}" volume test "$img" --key-slot "$s" --key-file "$work/k$s")"
    done
    cm=$(echo $c | median) vm=$(echo $v | median)
    echo "slot $s: cryptsetup $cm s [$c ], volume test $vm s [$v ], ratio volume/cryptsetup $(awk -v a="$vm" -v b="$cm" 'BEGIN { printf "%.2f", a / b }')"
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out" >&2
