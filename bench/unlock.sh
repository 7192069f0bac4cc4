#!/usr/bin/env bash
# Unlocking a LUKS2 volume from a fresh process: `volume test` (the vectorjce-volumes jar, a new
# JVM each time) beside `cryptsetup open --test-passphrase` on the same image, alternating, for
# key slots at cryptsetup's default cost (--iter-time 2000; argon2id's memory and threads as
# cryptsetup calibrates them on this machine). `volume test` runs with --add-modules
# jdk.incubator.vector (Argon2's vector compression); argon2id slots are also opened without it
# (the scalar compression) in the same round. Writes bench/results/<date>-unlock.txt.
# Needs cryptsetup (Debian: cryptsetup-bin) and the jar (./mvnw -B -q package -DskipTests).
#
# --java-opts "OPTS" adds JVM options to every `volume test`; --aot first trains a JDK 25 AOT cache
# (JEP 483/515: -XX:AOTCacheOutput) with one run of each JVM on the image, then runs with it.
#
# --jar FILE runs another build's -all.jar (to compare builds one after the other). --launcher runs
# the first row through bin/volume instead (its JDK 25, the vector module, the build's AOT cache and,
# where Linux gives them on request, transparent huge pages for the heap; --java-opts as JAVA_OPTS),
# as users start it, and in the same round bin/volume with JAVA_OPTS=-XX:-UseTransparentHugePages.
#
#   bench/unlock.sh [--rounds N] [--pbkdf LIST] [--java-opts "OPTS"] [--aot] [--jar FILE] [--launcher]
#                                                    LIST: pbkdf2-sha256,pbkdf2-sha512,argon2id
set -euo pipefail
cd "$(dirname "$0")"
rounds=3 kdfs=pbkdf2-sha256,pbkdf2-sha512,argon2id opts= aot= jar= launcher=
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jar=$(readlink -f "$2"); shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --pbkdf) kdfs=$2; shift 2 ;;
    --java-opts) opts=$2; shift 2 ;;
    --aot) aot=1; shift ;;
    --launcher) launcher=1; shift ;;
    *) echo "usage: bench/unlock.sh [--rounds N] [--pbkdf LIST] [--java-opts \"OPTS\"] [--aot] [--jar FILE] [--launcher]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=${jar:-../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar}
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
command -v cryptsetup >/dev/null || { echo "cryptsetup not found (Debian: cryptsetup-bin)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf 'unlock benchmark passphrase' > "$work/key"
secs() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || return 1; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'; }

out="results/$(date -u +%Y-%m-%d-%H%M)-unlock.txt"
mkdir -p results
{
  echo "# volume test vs cryptsetup open --test-passphrase, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), $(cryptsetup --version)"
  echo "# command: bench/unlock.sh --rounds $rounds --pbkdf $kdfs${opts:+ --java-opts \"$opts\"}${aot:+ --aot}${launcher:+ --launcher}; seconds of wall time per run, each a fresh process; first row: $( [ -n "$launcher" ] && echo "bin/volume test IMAGE --key-file F (AOT cache: $(ls ../vectorjce-tool/target/*-volume.aot 2>/dev/null || echo none))" || echo "java --add-modules jdk.incubator.vector -jar ... test IMAGE --key-file F"); jar: $jar"
  echo "# load before: $(uptime)"
  for kdf in ${kdfs//,/ }; do
    img="$work/$kdf.img"; truncate -s 32M "$img"
    case "$kdf" in
      pbkdf2-sha256) cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --hash sha256 --key-file "$work/key" "$img" ;;
      pbkdf2-sha512) cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --hash sha512 --key-file "$work/key" "$img" ;;
      argon2id) cryptsetup luksFormat -q --type luks2 --pbkdf argon2id --key-file "$work/key" "$img" ;;
      *) echo "unknown --pbkdf $kdf" >&2; exit 2 ;;
    esac
    echo "## $kdf: $(cryptsetup luksDump "$img" | grep -E 'PBKDF:|Iterations:|Time cost:|Memory:|Threads:' | tr -s ' \t' ' ' | tr '\n' ';')"
    vopts=(--add-modules jdk.incubator.vector $opts) sopts=($opts)
    if [ -n "$aot" ]; then
      "$JAVA_HOME/bin/java" -XX:AOTCacheOutput="$work/v.aot" "${vopts[@]}" -jar "$jar" test "$img" --key-file "$work/key" >/dev/null 2>&1
      "$JAVA_HOME/bin/java" -XX:AOTCacheOutput="$work/s.aot" "${sopts[@]}" -jar "$jar" test "$img" --key-file "$work/key" >/dev/null 2>&1
      vopts+=(-XX:AOTCache="$work/v.aot") sopts+=(-XX:AOTCache="$work/s.aot")
    fi
    for r in $(seq "$rounds"); do
      nothp=
      if [ -n "$launcher" ]; then
        v=$(JAVA_OPTS="$opts" secs ../bin/volume test "$img" --key-file "$work/key")
        n=$(JAVA_OPTS="$opts -XX:-UseTransparentHugePages" secs ../bin/volume test "$img" --key-file "$work/key")
        nothp=", bin/volume without transparent huge pages $n s"
      else
        v=$(secs "$JAVA_HOME/bin/java" "${vopts[@]}" -jar "$jar" test "$img" --key-file "$work/key")
      fi
      c=$(secs cryptsetup open --test-passphrase --key-file "$work/key" "$img")
      scalar=
      if [ "$kdf" = argon2id ]; then
        s=$(secs "$JAVA_HOME/bin/java" ${sopts[@]+"${sopts[@]}"} -jar "$jar" test "$img" --key-file "$work/key")
        scalar=", without the vector module $s s (ratio $(awk -v a="$s" -v b="$c" 'BEGIN { printf "%.2f", a / b }'))"
      fi
      echo "round $r: volume test $v s, cryptsetup $c s, ratio $(awk -v a="$v" -v b="$c" 'BEGIN { printf "%.2f", a / b }')$scalar$nothp"
    done
    rm -f "$img"
  done
  echo "# load after: $(uptime)"
} | tee "$out"
echo "wrote bench/$out"
