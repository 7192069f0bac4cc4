#!/usr/bin/env bash
# The files mount against `volume get` (issue 50's row "cp -a from the files mount >= 0.7x the speed
# of volume get of the same tree"): given an image (a LUKS, VeraCrypt, BitLocker or plain disk image
# holding a filesystem `volume ls` reads) and its secret, each round
#  (a) `volume get IMAGE / OUT1` (unlock, read every file, write it), and
#  (b) `volume mount --files IMAGE MNT` started in the background, waited for until MNT is a mount
#      point, `cp -a MNT/. OUT2`, then `fusermount3 -u MNT` and the volume process waited for (it
#      must exit 0);
# in alternating order (odd rounds get first, even rounds mount first). Wall seconds, medians over
# --rounds: (a), (b) whole (unlock, mount, copy, unmount: what a user waits for) and (b)'s cp alone;
# ratio = get / mount whole (>= 0.7 is the goal; > 1 = the mount is faster). OUT1 and OUT2 are
# compared by `diff -r -q --no-dereference` each round (names, types, bytes, link targets; not
# times); a mismatch is written as NO and the exit status is 1. Both read the image file through
# the host page cache, warm after the first round for both alike.
# Writes bench/results/<date>-files-mount.txt. Holds /tmp/vjce-build.lock for the whole run; needs
# free space under --dir for two copies of the tree, fusermount3 (fuse3), /dev/fuse, and the jar
# (./mvnw -B -q package -DskipTests at the root). The secret is given as every verb takes it:
# --passphrase-file FILE (its first line, on standard input), --key-file FILE, or none (a plain
# image); --type and --partition are passed on when given.
#
#   bench/files-mount.sh IMAGE [--passphrase-file F | --key-file F] [--type T] [--partition P]
#                              [--rounds N] [--dir DIR] [--timeout S]
set -euo pipefail
usage="usage: bench/files-mount.sh IMAGE [--passphrase-file F | --key-file F] [--type T] [--partition P] [--rounds N] [--dir DIR] [--timeout S]"
[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
image=$(realpath -e "$1") || { echo "bench/files-mount.sh: no image $1" >&2; exit 2; }
shift
rounds=3 dir=/tmp tmo=1800 pwfile= secret=() pass=()
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }  # every option takes a value
  case "$1" in
    --passphrase-file) pwfile=$(realpath -e "$2"); shift 2 ;;
    --key-file) secret=(--key-file "$(realpath -e "$2")"); shift 2 ;;
    --type|--partition) pass+=("$1" "$2"); shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --timeout) tmo=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
for n in "$rounds" "$tmo"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -gt 0 ] || { echo "$usage: $n is not a positive number" >&2; exit 2; }
done
need() { command -v "$1" >/dev/null || { echo "bench/files-mount.sh needs $1 (Debian: $2)" >&2; exit 2; }; }
need fusermount3 fuse3; need mountpoint util-linux; need flock util-linux; need timeout coreutils
need diff diffutils; need cp coreutils
cd "$(dirname "$0")"
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
volume=${VOLUME:-$PWD/../bin/volume}  # VOLUME: another launcher with the same verbs
export LC_ALL=C.UTF-8

exec 9>/tmp/vjce-build.lock
flock -n 9 || { echo "bench/files-mount.sh: waiting for /tmp/vjce-build.lock (a build or benchmark holds it)" >&2; flock 9; }
mkdir -p "$dir"
work=$(mktemp -d "$dir/vjce-files-mount.XXXXXX")
mkdir "$work/mnt"
# Unmounts MNT if a run left it mounted, stops the volume process this script started (its pid in
# work/pid), then deletes the folder without crossing into a mount.
cleanup() {
  if mountpoint -q "$work/mnt" 2>/dev/null; then
    fusermount3 -u -z "$work/mnt" 2>/dev/null || true
  fi
  if [ -f "$work/pid" ]; then
    kill "$(cat "$work/pid")" 2>/dev/null || true
  fi
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
touch "$work/problems"
status=0

# The secret on standard input (the passphrase file's first line), else /dev/null.
secret_in() {
  if [ -n "$pwfile" ]; then head -n 1 "$pwfile"; fi
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# (a): prints the wall seconds, or FAIL.
run_get() {
  local out=$work/out-get t0 t1
  rm -rf --one-file-system "$out"
  t0=$(now)
  if secret_in | timeout --foreground -k 10 "$tmo" "$volume" get "${secret[@]}" "${pass[@]}" "$image" / "$out" \
      >/dev/null 2>"$work/err"; then
    t1=$(now)
    elapsed "$t0" "$t1"
  else
    { echo "volume get:"; cat "$work/err"; } >>"$work/problems"
    echo FAIL
  fi
}

# (b): prints "WHOLE CP" wall seconds, or "FAIL FAIL".
run_mount() {
  local out=$work/out-mount t0 t1 t2 pid rc=0
  rm -rf --one-file-system "$out"
  t0=$(now)
  secret_in | "$volume" mount --files "${secret[@]}" "${pass[@]}" "$image" "$work/mnt" >/dev/null 2>"$work/err-mount" &
  pid=$!
  echo "$pid" >"$work/pid"
  for _ in $(seq $((tmo * 20))); do
    mountpoint -q "$work/mnt" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if ! mountpoint -q "$work/mnt"; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -f "$work/pid"
    { echo "volume mount --files did not mount:"; cat "$work/err-mount"; } >>"$work/problems"
    echo "FAIL FAIL"
    return
  fi
  t1=$(now)
  timeout --foreground -k 10 "$tmo" cp -a "$work/mnt/." "$out" 2>"$work/err" || rc=$?
  t2=$(now)
  fusermount3 -u "$work/mnt" 2>>"$work/err" || fusermount3 -u -z "$work/mnt" 2>>"$work/err" || true
  wait "$pid" || rc=$((rc == 0 ? $? : rc))
  rm -f "$work/pid"
  local t3
  t3=$(now)
  if [ "$rc" != 0 ]; then
    { echo "cp -a from the mount or volume mount --files exited $rc:"; cat "$work/err" "$work/err-mount"; } >>"$work/problems"
    echo "FAIL FAIL"
    return
  fi
  echo "$(elapsed "$t0" "$t3") $(elapsed "$t1" "$t2")"
}

median() { tr ' ' '\n' | { grep -E '^[0-9.]+$' || true; } | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

gets= wholes= cps= same=yes
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then
    g=$(run_get); m=$(run_mount)
  else
    m=$(run_mount); g=$(run_get)
  fi
  gets+=" $g"; wholes+=" ${m% *}"; cps+=" ${m#* }"
  if [ "$g" != FAIL ] && [ "${m% *}" != FAIL ]; then
    if ! diff -r -q --no-dereference "$work/out-get" "$work/out-mount" >"$work/diff" 2>&1; then
      same=NO
      { echo "round $r: volume get and cp -a from the mount differ:"; head -20 "$work/diff"; } >>"$work/problems"
    fi
  else
    status=1
  fi
  echo "round $r: get $g s, mount whole ${m% *} s, cp ${m#* } s" >&2
done
[ "$same" = yes ] || status=1

g=$(echo "$gets" | median); w=$(echo "$wholes" | median); c=$(echo "$cps" | median)
ratio=$(awk -v g="$g" -v w="$w" 'BEGIN { if (g + 0 > 0 && w + 0 > 0) printf "%.2f", g / w; else print "-" }')
mkdir -p results
res=results/$(date -u +%Y-%m-%d-%H%M)-files-mount.txt
{
  echo "# bench/files-mount.sh $(basename "$image") ($(du -h --apparent-size "$image" | cut -f1)), rounds $rounds, $(date -u +%FT%TZ)"
  echo "# $(nproc) CPUs, $(uname -r), $("$volume" --version 2>/dev/null | head -1 || true)"
  echo "# wall seconds, medians; ratio = volume get / mount whole (goal >= 0.7); same = outputs equal (diff -r -q --no-dereference)"
  printf '%-12s %-14s %-10s %-6s %-5s\n' "volume get" "mount whole" "cp alone" ratio same
  printf '%-12s %-14s %-10s %-6s %-5s\n' "$g" "$w" "$c" "$ratio" "$same"
  echo "# rounds: get$gets; mount whole$wholes; cp$cps"
  if [ -s "$work/problems" ]; then
    echo "# problems"
    sed 's/^/#   /' "$work/problems"
  fi
} | tee "$res"
exit "$status"
