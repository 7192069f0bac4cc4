#!/usr/bin/env bash
# Before and after one change of the volume jar, in one run: the same reads by the jar of revision
# --before (default bc11e1e, built here) and by this checkout's jar, on one LUKS1 aes-xts-plain64
# image (512-bit key, cryptsetup luksFormat, a --mib MiB payload of random bytes, default 1024):
#   nbd      nbdcopy EXPORT null: against `volume serve IMAGE --key-file KEY --socket S` (bench/nbd.sh's
#            read row and command line; the whole export, timed from nbdcopy's start to its end)
#   decrypt  `volume decrypt IMAGE OUT --key-file KEY --threads 2` (bench/payload.sh's command line;
#            wall time of the whole command, JVM start and key slot included; OUT on --dir, deleted
#            after each run and `sync` before the next, so that no run pays for another's
#            writeback; every output must have the first one's md5sum). On a VM that reclaims idle
#            memory (DAMON pageout, a balloon) the first decrypt of a round, writing into pages
#            idle since the last round, can run at a third of the second's speed: use an even
#            --rounds, so that each jar goes first as often as the other)
#   fuse     dd if=DIR/IMAGE of=/dev/null bs=1M out of `volume mount IMAGE DIR --key-file KEY
#            --read-only` (the plaintext as one file; a fresh mount per run, its start not timed),
#            then fusermount3 -u DIR; skipped, saying why, when /dev/fuse cannot be opened or
#            fusermount3 is missing
# Both revisions take these options. Every command is a fresh `java --add-modules
# jdk.incubator.vector -jar JAR` on the JDK 25 jdk25.sh finds (no AOT cache, unlike bin/volume).
# Each round runs every row for both jars, before then after in odd rounds and after then before in
# even ones; MB/s = payload bytes / wall seconds. The summary gives per row and jar every round,
# min, median and max, then the after/before ratio of the medians (> 1: after is faster).
# The before jar is built with ./mvnw -B -q -o package -DskipTests ... -pl vectorjce-tool -am in a
# temporary `git worktree add --detach` (removed once the jar is copied out); the after jar is
# vectorjce-tool/target/vectorjce-tool-*-volume.jar as built (the script says how when it is
# missing). Holds /tmp/vjce-build.lock for the whole run; the files live in a temporary folder under
# --dir (default /tmp, about 2 x --mib free) and are deleted at the end, also on failure or Ctrl-C,
# with the worktree, the server and the mount. Writes bench/results/<UTC date>-before-after.txt.
# Needs git, cryptsetup (cryptsetup-bin), nbdcopy and nbdinfo (libnbd-bin), for the fuse row
# fusermount3 (fuse3). --rounds 1 --mib 32 takes about the before build's time plus a minute.
#
#   bench/before-after.sh [--before REV] [--rounds N] [--mib N] [--dir DIR]
set -euo pipefail
cd "$(dirname "$0")"
before=bc11e1e rounds=4 mib=1024 dir=/tmp
usage="usage: bench/before-after.sh [--before REV] [--rounds N] [--mib N] [--dir DIR]"
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }  # every option takes a value
  case "$1" in
    --before) before=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --mib) mib=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
for n in "$rounds" "$mib"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "$usage: $n is not a positive number" >&2; exit 2; }
done
for t in git cryptsetup nbdcopy nbdinfo md5sum; do
  command -v "$t" >/dev/null || { echo "bench/before-after.sh needs $t (Debian: git, cryptsetup-bin, libnbd-bin, coreutils)" >&2; exit 2; }
done
. ./jdk25.sh
repo=$(cd .. && pwd)
build=(./mvnw -B -q -o package -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true -Dvectorjce.aot.skip=true -pl vectorjce-tool -am)
after_jar=$(ls "$repo"/vectorjce-tool/target/vectorjce-tool-*-volume.jar 2>/dev/null | head -n 1)
[ -n "$after_jar" ] || { echo "missing vectorjce-tool/target/vectorjce-tool-*-volume.jar: at the root run ${build[*]}" >&2; exit 2; }
before_rev=$(git -C "$repo" rev-parse --verify -q "$before^{commit}") || { echo "--before $before: not a revision of this repository" >&2; exit 2; }
bytes=$((mib << 20))

exec 9>/tmp/vjce-build.lock
flock -n 9 || { echo "bench/before-after.sh: waiting for /tmp/vjce-build.lock (a build or benchmark holds it)" >&2; flock 9; }
mkdir -p "$dir"
work=$(mktemp -d "$dir/vjce-ba.XXXXXX")
wt=$work/before-src
# Stops the server or mount this script started (their pids in serve.pid and mount.pid), unmounts
# the FUSE mount, removes the worktree, then deletes the folder without crossing into a mount.
cleanup() {
  local pid f
  if mountpoint -q "$work/mnt" 2>/dev/null; then fusermount3 -u "$work/mnt" 2>/dev/null || true; fi
  for f in serve.pid mount.pid; do
    [ -f "$work/$f" ] || continue
    pid=$(cat "$work/$f")
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; [ "$f" = mount.pid ] || kill -TERM "$pid" 2>/dev/null; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if mountpoint -q "$work/mnt" 2>/dev/null; then fusermount3 -u -z "$work/mnt" 2>/dev/null || true; fi
  if [ -d "$wt" ]; then
    git -C "$repo" worktree remove --force "$wt" 2>/dev/null || { rm -rf --one-file-system "$wt"; git -C "$repo" worktree prune; }
  fi
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- the two jars
echo "bench/before-after.sh: building $before in $wt" >&2
git -C "$repo" worktree add -q --detach "$wt" "$before_rev"
t0=$(date +%s)
(cd "$wt" && JAVA_HOME=$JAVA_HOME "${build[@]}") >"$work/build.log" 2>&1 || {
  tail -n 40 "$work/build.log" >&2; echo "bench/before-after.sh: the build of $before failed (above: its last lines)" >&2; exit 1; }
build_secs=$(($(date +%s) - t0))
jar=$(ls "$wt"/vectorjce-tool/target/vectorjce-tool-*-volume.jar 2>/dev/null | head -n 1)
[ -n "$jar" ] || { echo "bench/before-after.sh: the build of $before made no vectorjce-tool/target/vectorjce-tool-*-volume.jar" >&2; exit 1; }
cp "$jar" "$work/before.jar"
git -C "$repo" worktree remove --force "$wt"
cp "$after_jar" "$work/after.jar"  # a rebuild during the run does not change what is measured

# ---- the image
printf 'before-after benchmark key file' > "$work/key"
truncate -s $((bytes + (4 << 20))) "$work/v.img"
cryptsetup luksFormat --type luks1 -q --cipher aes-xts-plain64 --key-size 512 --hash sha256 \
  --pbkdf-force-iterations 1000 --key-file "$work/key" "$work/v.img"
off=$(cryptsetup luksDump "$work/v.img" | sed -n 's/^Payload offset:[[:space:]]*\([0-9]*\).*/\1/p')
[[ "$off" =~ ^[0-9]+$ ]] || { echo "bench/before-after.sh: no payload offset in cryptsetup luksDump" >&2; exit 1; }
truncate -s $((off * 512 + bytes)) "$work/v.img"
# the payload area as data (not the sparse hole luksFormat leaves), so that every run reads the same
head -c "$bytes" /dev/urandom | dd of="$work/v.img" bs=1M seek=$((off * 512)) oflag=seek_bytes conv=notrunc status=none
sync   # the set-up's dirty pages written back before the first run, not during it
cat "$work/v.img" > /dev/null
sock=$work/s.sock
uri="nbd+unix:///?socket=$sock"
mkdir "$work/mnt"

# secs CMD...: the command's wall seconds (stdout dropped; on a failure or after 600 s its stderr and 1)
secs() { /usr/bin/time -f '%e' -o "$work/time" timeout --foreground 600 "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }; cat "$work/time"; }
mbs() { awk -v n="$bytes" -v s="$1" 'BEGIN { printf "%.0f", n / s / 1e6 }'; }
# fail WHAT: says WHAT and the stderr of the server or mount (cmd.err), then ends the script
fail() { echo "bench/before-after.sh: $1" >&2; [ -s "$work/cmd.err" ] && sed 's/^/  /' "$work/cmd.err" >&2; exit 1; }
java=("$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector -jar)

# run ROW WHO: one run of ROW with WHO's jar; sets mb to its MB/s (in this shell, not a subshell:
# the server and the mount are this shell's children, and a failure ends the script)
run() {
  local jar=$work/$2.jar pid size t sum
  case $1 in
    nbd)
      rm -f "$sock"
      "${java[@]}" "$jar" serve "$work/v.img" --key-file "$work/key" --socket "$sock" </dev/null >/dev/null 2>"$work/cmd.err" &
      pid=$!; echo "$pid" > "$work/serve.pid"
      size=
      for _ in $(seq 200); do
        [ -S "$sock" ] && size=$(nbdinfo --size "$uri" 2>/dev/null) && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
      done
      [ -n "$size" ] || fail "$2's volume serve did not answer within 10 s"
      [ "$size" = "$bytes" ] || fail "$2's export has $size bytes, not $bytes"
      t=$(secs nbdcopy "$uri" null:) || fail "nbdcopy of $2's export failed"
      kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; rm -f "$work/serve.pid" ;;
    decrypt)
      # the previous output's dirty pages are written back before, not during, the timed run
      rm -f "$work/out" "$work/cmd.err"; sync
      t=$(secs "${java[@]}" "$jar" decrypt "$work/v.img" "$work/out" --key-file "$work/key" --threads 2) \
        || fail "$2's volume decrypt failed (its stderr above)"
      size=$(stat -c %s "$work/out")
      [ "$size" = "$bytes" ] || fail "$2's volume decrypt wrote $size bytes, not $bytes"
      sum=$(md5sum < "$work/out"); rm -f "$work/out"
      [ -f "$work/md5" ] || echo "$sum" > "$work/md5"
      [ "$sum" = "$(cat "$work/md5")" ] || fail "$2's volume decrypt differs from the first decrypt of this run" ;;
    fuse)
      "${java[@]}" "$jar" mount "$work/v.img" "$work/mnt" --key-file "$work/key" --read-only </dev/null >/dev/null 2>"$work/cmd.err" &
      pid=$!; echo "$pid" > "$work/mount.pid"
      for _ in $(seq 300); do
        [ -f "$work/mnt/v.img" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
      done
      [ -f "$work/mnt/v.img" ] || fail "$2's volume mount did not show $work/mnt/v.img within 15 s"
      size=$(stat -c %s "$work/mnt/v.img")
      [ "$size" = "$bytes" ] || fail "$2's mounted file has $size bytes, not $bytes"
      t=$(secs dd if="$work/mnt/v.img" of=/dev/null bs=1M) || fail "dd out of $2's mount failed"
      for _ in $(seq 50); do fusermount3 -u "$work/mnt" 2>"$work/err" && break; sleep 0.1; done  # EBUSY: a reader not yet gone
      ! mountpoint -q "$work/mnt" || { cat "$work/err" >&2; fail "$work/mnt stays mounted (fusermount3 -u, 5 s)"; }
      wait "$pid" 2>/dev/null || true; rm -f "$work/mount.pid" ;;
  esac
  mb=$(mbs "$t")
}

fuse_skip=
if ! command -v fusermount3 >/dev/null; then fuse_skip="fusermount3 not found (Debian: fuse3)"
elif ! (exec 8<>/dev/fuse) 2>/dev/null; then fuse_skip="/dev/fuse cannot be opened"
fi

# ---- the runs
out="results/$(date -u +%Y-%m-%d-%H%M)-before-after.txt"
mkdir -p results
: > "$out"
say() { printf '%s\n' "$*" | tee -a "$out"; }
after_rev="$(git -C .. rev-parse --short HEAD)$(git -C .. diff --quiet HEAD 2>/dev/null || echo '+changes')"
say "# Before/after speed of the volume jar, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), --add-modules jdk.incubator.vector; $(cryptsetup --version | cut -d" " -f1,2); $(nbdcopy --version | head -1)"
say "# command: bench/before-after.sh --before $before --rounds $rounds --mib $mib --dir $dir"
say "# before: $(git -C .. log -1 --format='%h %s' "$before_rev" | cut -c1-100) (built here in ${build_secs} s)"
say "# after: $after_rev, ${after_jar#"$repo"/} of $(date -u -r "$after_jar" '+%Y-%m-%d %H:%M UTC')"
say "# load before: $(uptime)"
say "# LUKS1 aes-xts-plain64, 512-bit key, $mib MiB payload ($bytes bytes); each command a fresh JVM; MB/s = $bytes bytes / wall seconds"
say "# nbd: nbdcopy EXPORT null: from volume serve --socket; decrypt: volume decrypt --threads 2 (whole command); fuse: dd bs=1M out of volume mount --read-only"
rows=(nbd decrypt fuse)
declare -A vals med
say "$(printf '%-6s %-8s %-7s %8s' round row jar 'MB/s')"
for r in $(seq "$rounds"); do
  if [ $((r % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for row in "${rows[@]}"; do
    [ "$row" = fuse ] && [ -n "$fuse_skip" ] && continue
    for who in $order; do
      run "$row" "$who"
      vals[$row,$who]="${vals[$row,$who]:-} $mb"
      say "$(printf '%-6s %-8s %-7s %8s' "$r" "$row" "$who" "$mb")"
    done
  done
done
# stats V...: min, median, max
stats() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%d %.0f %d", a[1], m, a[NR] }'; }
say "## per row and jar: MB/s in every round, min, median, max; after/before of the medians"
say "$(printf '%-8s %-7s %-24s %6s %6s %6s' row jar rounds min median max)"
for row in "${rows[@]}"; do
  if [ "$row" = fuse ] && [ -n "$fuse_skip" ]; then say "fuse     skipped: $fuse_skip"; continue; fi
  for who in before after; do
    # shellcheck disable=SC2086
    read -r mn md mx <<<"$(stats ${vals[$row,$who]})"
    med[$who]=$md
    say "$(printf '%-8s %-7s %-24s %6s %6s %6s' "$row" "$who" "${vals[$row,$who]# }" "$mn" "$md" "$mx")"
  done
  say "$(printf '%-8s after/before %s' "$row" "$(awk -v a="${med[after]}" -v b="${med[before]}" 'BEGIN { printf "%.2f", a / b }')")"
done
say "# load after: $(uptime)"
echo "wrote bench/$out"
