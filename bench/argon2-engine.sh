#!/usr/bin/env bash
# Argon2id alone at cryptsetup's default cost here (luksFormat --type luks2 calibrates time, memory
# and threads on this machine; the values are read back from its header): the module's engine
# through Argon2.derive in a fresh JVM (bench/argon2/Argon2Derive.java), with the vector
# compression (--add-modules jdk.incubator.vector) and without, beside Debian's reference argon2
# command (libargon2's code) and cryptsetup open --test-passphrase, alternating, in the same run.
# Writes bench/results/<date>-argon2-engine.txt. Needs the jar (./mvnw -B -q package -DskipTests),
# cryptsetup (cryptsetup-bin) and argon2 (Debian package argon2). Then, once per compression in a
# fresh JVM (bench/argon2/Argon2Slices.java), the milliseconds of each slice, pass by pass: the first
# pass carries the first touch of the memory and the JIT's start, the last slice the final hash and
# the wipe.
#
#   bench/argon2-engine.sh [--rounds N]
set -euo pipefail
cd "$(dirname "$0")"
rounds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: bench/argon2-engine.sh [--rounds N]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
for tool in cryptsetup argon2; do
  command -v $tool >/dev/null || { echo "$tool not found (Debian: cryptsetup-bin, argon2)" >&2; exit 2; }
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$JAVA_HOME/bin/javac" -d "$work/cls" -cp "$jar" argon2/Argon2Derive.java argon2/Argon2Slices.java
printf 'unlock benchmark passphrase' > "$work/key"
img="$work/argon2id.img"; truncate -s 32M "$img"
cryptsetup luksFormat -q --type luks2 --pbkdf argon2id --key-file "$work/key" "$img"
dump=$(cryptsetup luksDump "$img")
t=$(sed -n 's/^[[:space:]]*Time cost:[[:space:]]*//p' <<<"$dump" | head -1)
m=$(sed -n 's/^[[:space:]]*Memory:[[:space:]]*//p' <<<"$dump" | head -1)
p=$(sed -n 's/^[[:space:]]*Threads:[[:space:]]*//p' <<<"$dump" | head -1)
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 </dev/null || return 1; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
java=("$JAVA_HOME/bin/java" -cp "$work/cls:$jar")

out="results/$(date -u +%Y-%m-%d-%H%M)-argon2-engine.txt"
mkdir -p results
{
  echo "# Argon2id t=$t m=$m KiB p=$p (cryptsetup's calibrated default here), 32-byte tag, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), $(cryptsetup --version)"
  echo "# command: bench/argon2-engine.sh --rounds $rounds; seconds of wall time per fresh process (engine: JVM start to exit; in-JVM derive time in brackets)"
  echo "# engine = java [--add-modules jdk.incubator.vector] -cp ...-all.jar Argon2Derive $t $m $p; argon2 = echo -n PW | argon2 SALT -id -t $t -k $m -p $p -l 32"
  echo "# load before: $(uptime)"
  for r in $(seq "$rounds"); do
    t0=$(date +%s.%N); d=$("${java[@]:0:1}" --add-modules jdk.incubator.vector "${java[@]:1}" Argon2Derive "$t" "$m" "$p" 2>/dev/null); t1=$(date +%s.%N)
    v=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    t0=$(date +%s.%N); ds=$("${java[@]}" Argon2Derive "$t" "$m" "$p"); t1=$(date +%s.%N)
    s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    a=$(secs sh -c "printf 'unlock benchmark passphrase' | argon2 0123456789abcdef0123456789abcdef -id -t $t -k $m -p $p -l 32")
    c=$(secs cryptsetup open --test-passphrase --key-file "$work/key" "$img")
    echo "round $r: engine vector $v s [$d], engine scalar $s s [$ds], argon2 $a s, cryptsetup $c s; vector/argon2 $(ratio "$v" "$a"), scalar/argon2 $(ratio "$s" "$a"), vector/cryptsetup $(ratio "$v" "$c")"
  done
  echo "## per slice, a fresh JVM each: java --add-modules jdk.incubator.vector -cp ... Argon2Slices $t $m $p COMPRESSION"
  for c in auto scalar vector; do
    "${java[@]:0:1}" --add-modules jdk.incubator.vector "${java[@]:1}" Argon2Slices "$t" "$m" "$p" "$c" 2>/dev/null
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
