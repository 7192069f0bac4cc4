#!/usr/bin/env bash
# The files inside a volume (issue 48's speed rows): `volume get`, `ls -R` and `cat` reading a
# LUKS2 volume, against The Sleuth Kit (tsk_recover, fls) and 7-Zip (7zz) on the same filesystem's
# plain image (already decrypted: they cannot open LUKS). Writes bench/results/<date>-files.txt.
# Each command is a fresh process run through bin/volume as users start it (its JDK 25, the vector
# module and the build's AOT cache where there are), wall time in seconds, ours and theirs
# alternating (odd rounds ours first, even rounds theirs first), medians over --rounds:
#  (a) `volume get LUKS / DEST --key-file KEY` (unlock, decrypt, write every file) beside
#      `tsk_recover -a PLAIN DEST2` and `7zz x -oDEST3 PLAIN`, ratio theirs / ours (> 1 = we are
#      faster); every output is compared with the source tree by `diff -r -q` (names, folders and
#      bytes; not times), so the three hold the same files, and a mismatch is written as NO;
#  (b) `volume ls -R LUKS --key-file KEY` beside `fls -r PLAIN`, both to /dev/null;
#  (c) `volume cat LUKS PATH --key-file KEY` of a 1 MiB file 6 folders deep beside `volume test
#      LUKS --key-file KEY` (the unlock alone): cat - test is what reading one file costs (goal:
#      <= 0.3 s); the cat's bytes are compared with the source file once (cmp);
#  (d) the whole get again with JAVA_OPTS=-Xmx64m: it must succeed in a small heap (same check).
# Setup, in a temporary folder under --dir (deleted at the end, also on failure or Ctrl-C, with any
# mount): bench/files/tree.py makes --files files (default 20,000) in nested folders up to 6 deep,
# sizes mixed (most 1-64 KiB, 1 in 200 of 1 MiB, 1 in 2500 of 16 MiB, a few empty or under 1 KiB),
# names long, spaced and a few non-ASCII, from a fixed --seed (48) so runs compare; then
#  - FAT32: `mkfs.fat -F 32` on a --size image (default 1G), filled by `mcopy -s -m` (mtools);
#  - NTFS: `mkntfs -F -f -Q` on a --size image, filled through an ntfs-3g FUSE mount (cp -a), when
#    /dev/fuse and ntfs-3g are there and our build reads NTFS (`volume fs` on a small mkntfs image
#    names it); else its rows say why they are skipped;
#  - each plain image inside a LUKS2 volume of its size plus the 16 MiB header: `cryptsetup
#    luksFormat --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000` with a key file (an unlock
#    of a few ms, so the rows measure reading, not the KDF), written by `bin/volume encrypt PLAIN
#    LUKS --key-file KEY` (its oracle checks are in the tests; the outputs' diff checks it too).
# Every command runs under `timeout --foreground` (--timeout seconds, default 600; in the terminal's
# process group, so that Ctrl-C stops it) with stdin from /dev/null; a failure or timeout is
# written in its cell, its stderr under "# problems", and the exit status is 1. Besides wall time,
# each cell gives the command's CPU seconds (user + system, with its children's; bash's `time`),
# steadier than wall time on a shared machine. Holds /tmp/vjce-build.lock for the whole run; needs
# about (2 x filesystems + 3) x --size free under --dir (checked first). Needs the jar (./mvnw -B
# -q package -DskipTests at the root), python3, mkfs.fat (Debian: dosfstools), mcopy (mtools),
# cryptsetup (cryptsetup-bin), tsk_recover and fls (sleuthkit), 7zz (7zip); for NTFS mkntfs and
# ntfs-3g (ntfs-3g). Develop with small sizes: --files 2000 --size 128M --rounds 1 takes about a
# minute.
#
#   bench/files.sh [--rounds N] [--files N] [--size SIZE] [--seed N] [--fs fat32,ntfs] [--dir DIR] [--timeout S]
set -euo pipefail
cd "$(dirname "$0")"
rounds=3 files=20000 size=1G seed=48 fss=fat32,ntfs dir=/tmp tmo=600
usage="usage: bench/files.sh [--rounds N] [--files N] [--size SIZE] [--seed N] [--fs fat32,ntfs] [--dir DIR] [--timeout S]"
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }  # every option takes a value
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --fs) fss=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --timeout) tmo=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
for n in "$rounds" "$files" "$seed" "$tmo"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "$usage: $n is not a number" >&2; exit 2; }
done
bytes=$(numfmt --from=iec "$size" 2>/dev/null) || { echo "--size $size: give bytes or K, M, G (1024s)" >&2; exit 2; }
[ $((bytes % (1 << 20))) = 0 ] && [ "$bytes" -ge $((64 << 20)) ] || { echo "--size $size: a whole number of MiB, at least 64M" >&2; exit 2; }
for f in ${fss//,/ }; do
  case "$f" in fat32|ntfs) ;; *) echo "--fs $f: fat32 or ntfs" >&2; exit 2 ;; esac
done
need() { command -v "$1" >/dev/null || { echo "bench/files.sh needs $1 (Debian: $2)" >&2; exit 2; }; }
need python3 python3; need mkfs.fat dosfstools; need mcopy mtools; need cryptsetup cryptsetup-bin
need tsk_recover sleuthkit; need fls sleuthkit; need 7zz 7zip; need timeout coreutils; need numfmt coreutils
need diff diffutils; need cmp diffutils; need mountpoint util-linux; need flock util-linux
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
volume=$PWD/../bin/volume
export LC_ALL=C.UTF-8  # the same names through mtools, ntfs-3g, tsk_recover, 7zz and diff

exec 9>/tmp/vjce-build.lock
flock -n 9 || { echo "bench/files.sh: waiting for /tmp/vjce-build.lock (a build or benchmark holds it)" >&2; flock 9; }
mkdir -p "$dir"
work=$(mktemp -d "$dir/vjce-files.XXXXXX")
# Unmounts the NTFS image if it is still mounted and waits for its ntfs-3g (started by this script,
# its pid in ntfs3g.pid), then deletes the folder without crossing into a mount.
cleanup() {
  local pid
  if mountpoint -q "$work/mnt" 2>/dev/null; then
    umount "$work/mnt" 2>/dev/null || fusermount -u "$work/mnt" 2>/dev/null || umount -l "$work/mnt" 2>/dev/null || true
  fi
  if [ -f "$work/ntfs3g.pid" ]; then
    pid=$(cat "$work/ntfs3g.pid")
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null || true
  fi
  rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
touch "$work/problems"

# timed VAR CMD...: runs CMD under timeout (stdin /dev/null, stdout to /dev/null, stderr kept); sets
# VAR to its wall seconds and VAR_cpu to the user + system seconds of it and its children, or on a
# failure VAR to "timeout" or "fail(STATUS)" and VAR_cpu to "-", with the command and the last
# lines of its stderr added to the problems.
timed() {
  local _v=$1 _rc=0 _t TIMEFORMAT='%R %U %S'
  shift
  _t=$( { time timeout --foreground -k 10 "$tmo" "$@" </dev/null >/dev/null 2>"$work/err"; } 2>&1 ) || _rc=$?
  if [ "$_rc" != 0 ]; then
    { echo "$* -> exit $_rc$( [ "$_rc" = 124 ] && echo " (timeout after $tmo s)"):"
      { grep -v '^WARNING: Using incubator modules' "$work/err" || true; } | tail -n 3 | sed 's/^/    /'; } >>"$work/problems"
    if [ "$_rc" = 124 ] || [ "$_rc" = 137 ]; then printf -v "$_v" timeout; else printf -v "$_v" 'fail(%s)' "$_rc"; fi
    printf -v "${_v}_cpu" -
    return 0
  fi
  _t=$(tail -n 1 <<<"$_t")
  printf -v "$_v" '%.2f' "${_t%% *}"
  printf -v "${_v}_cpu" '%s' "$(awk -v t="$_t" 'BEGIN { split(t, a, " "); printf "%.2f", a[2] + a[3] }')"
}
# Setup steps: prints the wall seconds; a failure ends the run with the step named and its stderr.
step() {
  local s s_cpu
  timed s "$@"
  [[ "$s" =~ ^[0-9.]+$ ]] || { echo "bench/files.sh: setup failed: $s" >&2; cat "$work/problems" >&2; exit 1; }
  echo "$s"
}
# A cell: "WALL s (cpu CPU s)", or what failed.
cell() { if [[ "$1" =~ ^-?[0-9.]+$ ]]; then echo "$1 s (cpu $2 s)"; else echo "$1"; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9.]+$/ && b ~ /^[0-9.]+$/) printf "%.2f", a - b; else print "-" }'; }
median() { tr ' ' '\n' | { grep -E '^-?[0-9.]+$' || true; } | sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.2f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }
# After a command that took $1 (seconds, or what failed: then "-"): "yes" when folder $3 holds the
# source tree (diff -r -q: the same names, folders and bytes), else NO with the number of
# differences, its files and bytes and the first difference (all go to the problems, labelled $2).
same() {
  local d n
  [[ "$1" =~ ^[0-9.]+$ ]] || { echo "-"; return; }
  shift
  if d=$(diff -r -q "$work/src" "$2" 2>&1); then echo yes; return; fi
  n=$(printf '%s\n' "$d" | wc -l)
  { echo "$1: $n differences from the source tree:"; printf '%s\n' "$d" | head -n 20 | sed 's/^/    /'; } >>"$work/problems"
  echo "NO ($n differences; $(find "$2" -type f 2>/dev/null | wc -l) files, $(find "$2" -type f -printf '%s\n' 2>/dev/null | awk '{ s += $1 } END { print s + 0 }') bytes; first: $(printf '%s\n' "$d" | head -n 1 | sed "s|$work/||g"))"
}
fresh() { rm -rf "$@"; sync -f "$work"; }

# ---- setup
echo "bench/files.sh: setup in $work" >&2
free_kib=$(df -Pk "$dir" | awk 'NR == 2 { print $4 }')
fs_count=$(echo "${fss//,/ }" | wc -w)
[ $((free_kib * 1024)) -gt $((bytes * (2 * fs_count + 3))) ] || {
  echo "bench/files.sh: $dir has $((free_kib >> 10)) MiB free; the run needs about $((bytes * (2 * fs_count + 3) >> 20)) MiB (--dir elsewhere or a smaller --size)" >&2; exit 2; }
head -c 64 /dev/urandom >"$work/key"
t_tree=$(step python3 files/tree.py "$work/src" --files "$files" --seed "$seed" --max-bytes $((bytes * 3 / 4)))
n_files=$(find "$work/src" -type f | wc -l) n_dirs=$(find "$work/src" -mindepth 1 -type d | wc -l)
n_bytes=$(find "$work/src" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
target=$(find "$work/src" -name 'deep target 1MiB.bin' -printf '/%P\n')

# luks NAME: the plain image NAME.img inside NAME.luks (header 16 MiB, then the payload).
luks() {
  truncate -s $((bytes + (16 << 20))) "$work/$1.luks"
  step cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
    --key-file "$work/key" "$work/$1.luks" >/dev/null
  step "$volume" encrypt "$work/$1.img" "$work/$1.luks" --key-file "$work/key"
}
declare -A skip=() setup_note=()
mkfs_fat=
for f in ${fss//,/ }; do
  case "$f" in
    fat32)
      truncate -s "$bytes" "$work/fat32.img"
      timeout --foreground "$tmo" mkfs.fat -F 32 -n VJCEFILES "$work/fat32.img" </dev/null >"$work/mkfs.log" 2>&1 || {
        echo "bench/files.sh: setup failed: mkfs.fat -F 32 on $size:" >&2; cat "$work/mkfs.log" >&2; exit 1; }
      mkfs_fat=$(head -n 1 "$work/mkfs.log")  # its version
      # mcopy copies the listed top-level entries; -s recurses, -m keeps modification times
      t_fill=$(cd "$work/src" && step mcopy -s -m -i "$work/fat32.img" -- * ::/)
      t_enc=$(luks fat32)
      setup_note[fat32]="mkfs.fat -F 32, mcopy -s -m $t_fill s; luksFormat and volume encrypt $t_enc s"
      ;;
    ntfs)
      if ! command -v mkntfs >/dev/null || ! command -v ntfs-3g >/dev/null; then
        skip[ntfs]="mkntfs or ntfs-3g not found (Debian: ntfs-3g)"; continue
      fi
      [ -c /dev/fuse ] || { skip[ntfs]="no /dev/fuse (ntfs-3g mounts through FUSE)"; continue; }
      truncate -s $((16 << 20)) "$work/probe.img"
      step mkntfs -F -f -Q "$work/probe.img" >/dev/null
      probe=$("$volume" fs "$work/probe.img" --json 2>/dev/null </dev/null || true)
      if ! grep -qi '"filesystem":"ntfs' <<<"$probe"; then
        skip[ntfs]="no NTFS driver yet (volume fs does not name NTFS on an mkntfs image)"; rm -f "$work/probe.img"; continue
      fi
      rm -f "$work/probe.img"
      truncate -s "$bytes" "$work/ntfs.img"
      step mkntfs -F -f -Q -L VJCEFILES "$work/ntfs.img" >/dev/null
      mkdir "$work/mnt"
      ntfs-3g -o no_detach "$work/ntfs.img" "$work/mnt" </dev/null >"$work/ntfs3g.log" 2>&1 &
      echo $! >"$work/ntfs3g.pid"
      for _ in $(seq 100); do mountpoint -q "$work/mnt" && break; kill -0 "$(cat "$work/ntfs3g.pid")" 2>/dev/null || break; sleep 0.1; done
      if ! mountpoint -q "$work/mnt"; then
        skip[ntfs]="ntfs-3g could not mount the image: $(tail -n 1 "$work/ntfs3g.log")"; rm -f "$work/ntfs.img"; continue
      fi
      t_fill=$(step cp -a "$work/src/." "$work/mnt/")
      step umount "$work/mnt" >/dev/null
      pid=$(cat "$work/ntfs3g.pid")
      for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done  # it writes until it exits
      kill -0 "$pid" 2>/dev/null && { echo "bench/files.sh: ntfs-3g did not exit 60 s after umount" >&2; exit 1; }
      rm -f "$work/ntfs3g.pid"
      t_enc=$(luks ntfs)
      setup_note[ntfs]="mkntfs -F -f -Q, ntfs-3g mount, cp -a $t_fill s, umount; luksFormat and volume encrypt $t_enc s"
      ;;
  esac
done

out="results/$(date -u +%Y-%m-%d-%H%M)-files.txt"
mkdir -p results
{
  echo "# Files inside a LUKS2 volume: bin/volume get, ls -R and cat vs tsk_recover -a, 7zz x and fls -r on the plain image; AOT cache: $(ls ../vectorjce-tool/target/*-volume.aot 2>/dev/null || echo none)"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo), $(uname -r), $dir on $(df -PT "$dir" | awk 'NR == 2 { print $2 }')"
  echo "# $("$volume" --version 2>/dev/null </dev/null | paste -sd ' ' | sed 's/ Java /, Java /') at $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet HEAD 2>/dev/null || echo '+changes'); JAVA_OPTS: ${JAVA_OPTS:-none}"
  echo "# $(cryptsetup --version); $(mcopy --version | head -n 1); ${mkfs_fat:-mkfs.fat}; $(command -v ntfs-3g >/dev/null && ntfs-3g --version 2>&1 | head -n 1 || echo 'no ntfs-3g'); $(fls -V); $(7zz | sed -n 2p | cut -d: -f1 | sed 's/ *$//')"
  echo "# command: bench/files.sh --rounds $rounds --files $files --size $size --seed $seed --fs $fss --dir $dir --timeout $tmo"
  echo "# load before: $(uptime | sed 's/.*load/load/')"
  echo "# files: $n_files files in $n_dirs folders up to 6 deep, $n_bytes bytes ($((n_bytes >> 20)) MiB), seed $seed (bench/files/tree.py, $t_tree s); images $size; LUKS2 aes-xts-plain64, 512-bit key, PBKDF2 1000 iterations (the unlock takes milliseconds: the rows measure reading)"
  for f in ${fss//,/ }; do
    if [ -n "${skip[$f]:-}" ]; then
      echo "# $f: skipped: ${skip[$f]}"
    else
      echo "# $f: ${setup_note[$f]}; volume fs:"
      "$volume" fs "$work/$f.img" </dev/null 2>/dev/null | sed 's/^/#   /'
    fi
  done
  echo "# seconds of wall time per fresh process (cpu: its user + system seconds, with its children's); ratio = theirs / ours (> 1 = we are faster), of wall times; outputs: diff -r -q against the source tree (yes = the same names, folders and bytes; 7zz's [SYSTEM] folder of NTFS metadata files, which the others hide, is deleted first)"

  echo "## (a) every file out: volume get LUKS / DEST --key-file KEY (decrypting) vs tsk_recover -a PLAIN DEST2 and 7zz x -oDEST3 PLAIN"
  for f in ${fss//,/ }; do
    [ -z "${skip[$f]:-}" ] || { echo "$f: skipped: ${skip[$f]}"; continue; }
    o_all="" o_cpus="" t_all="" t_cpus="" z_all="" z_cpus=""
    for r in $(seq "$rounds"); do
      if [ $((r % 2)) = 1 ]; then order="ours tsk 7zz"; else order="7zz tsk ours"; fi
      for who in $order; do
        fresh "$work/out"
        case "$who" in
          ours) timed o "$volume" get "$work/$f.luks" / "$work/out" --key-file "$work/key"
                o_same=$(same "$o" "$f round $r volume get" "$work/out") ;;
          tsk)  timed t tsk_recover -a "$work/$f.img" "$work/out"
                t_same=$(same "$t" "$f round $r tsk_recover" "$work/out") ;;
          7zz)  timed z 7zz x -y -o"$work/out" "$work/$f.img"
                rm -rf "$work/out/[SYSTEM]"  # 7-Zip's NTFS metadata files ($MFT, ...), which the others hide
                z_same=$(same "$z" "$f round $r 7zz" "$work/out") ;;
        esac
      done
      fresh "$work/out"
      o_all="$o_all $o" o_cpus="$o_cpus $o_cpu" t_all="$t_all $t" t_cpus="$t_cpus $t_cpu" z_all="$z_all $z" z_cpus="$z_cpus $z_cpu"
      echo "$f: round $r ($order): volume get $(cell "$o" "$o_cpu"), tsk_recover $(cell "$t" "$t_cpu") (ratio $(ratio "$t" "$o")), 7zz $(cell "$z" "$z_cpu") (ratio $(ratio "$z" "$o")); same files: volume get $o_same, tsk_recover $t_same, 7zz $z_same"
    done
    mo=$(median <<<"$o_all") mt=$(median <<<"$t_all") mz=$(median <<<"$z_all")
    echo "$f: median volume get $(cell "$mo" "$(median <<<"$o_cpus")"), tsk_recover $(cell "$mt" "$(median <<<"$t_cpus")") (ratio $(ratio "$mt" "$mo")), 7zz $(cell "$mz" "$(median <<<"$z_cpus")") (ratio $(ratio "$mz" "$mo"))"
  done

  echo "## (b) the whole listing: volume ls -R LUKS --key-file KEY vs fls -r PLAIN, both to /dev/null"
  for f in ${fss//,/ }; do
    [ -z "${skip[$f]:-}" ] || { echo "$f: skipped: ${skip[$f]}"; continue; }
    o_all="" o_cpus="" t_all="" t_cpus=""
    for r in $(seq "$rounds"); do
      if [ $((r % 2)) = 1 ]; then
        timed o "$volume" ls -R "$work/$f.luks" --key-file "$work/key"; timed t fls -r "$work/$f.img"
      else
        timed t fls -r "$work/$f.img"; timed o "$volume" ls -R "$work/$f.luks" --key-file "$work/key"
      fi
      o_all="$o_all $o" o_cpus="$o_cpus $o_cpu" t_all="$t_all $t" t_cpus="$t_cpus $t_cpu"
      echo "$f: round $r: volume ls -R $(cell "$o" "$o_cpu"), fls -r $(cell "$t" "$t_cpu") (ratio $(ratio "$t" "$o"))"
    done
    mo=$(median <<<"$o_all") mt=$(median <<<"$t_all")
    echo "$f: median volume ls -R $(cell "$mo" "$(median <<<"$o_cpus")"), fls -r $(cell "$mt" "$(median <<<"$t_cpus")") (ratio $(ratio "$mt" "$mo"))"
  done

  echo "## (c) one 1 MiB file 6 folders deep ($target): volume cat LUKS PATH --key-file KEY vs volume test LUKS --key-file KEY (the unlock alone); goal: cat - test <= 0.30 s"
  for f in ${fss//,/ }; do
    [ -z "${skip[$f]:-}" ] || { echo "$f: skipped: ${skip[$f]}"; continue; }
    if timeout --foreground -k 10 "$tmo" "$volume" cat "$work/$f.luks" "$target" --key-file "$work/key" </dev/null 2>"$work/err" | cmp -s - "$work/src$target"; then
      check=yes
    else
      check=NO; { echo "$f: volume cat $target differs from the source file:"; { grep -v '^WARNING: Using incubator modules' "$work/err" || true; } | tail -n 3 | sed 's/^/    /'; } >>"$work/problems"
    fi
    c_all="" c_cpus="" t_all="" t_cpus="" d_all="" dc_all=""
    for r in $(seq "$rounds"); do
      if [ $((r % 2)) = 1 ]; then
        timed c "$volume" cat "$work/$f.luks" "$target" --key-file "$work/key"; timed t "$volume" test "$work/$f.luks" --key-file "$work/key"
      else
        timed t "$volume" test "$work/$f.luks" --key-file "$work/key"; timed c "$volume" cat "$work/$f.luks" "$target" --key-file "$work/key"
      fi
      d=$(minus "$c" "$t") dc=$(minus "$c_cpu" "$t_cpu")
      c_all="$c_all $c" c_cpus="$c_cpus $c_cpu" t_all="$t_all $t" t_cpus="$t_cpus $t_cpu" d_all="$d_all $d" dc_all="$dc_all $dc"
      echo "$f: round $r: volume cat $(cell "$c" "$c_cpu"), volume test $(cell "$t" "$t_cpu"), cat - test $(cell "$d" "$dc")"
    done
    md=$(median <<<"$d_all")
    met=$(awk -v d="$md" 'BEGIN { if (d !~ /^-?[0-9.]+$/) print "-"; else if (d <= 0.30) print "met"; else print "NOT met" }')
    echo "$f: median volume cat $(cell "$(median <<<"$c_all")" "$(median <<<"$c_cpus")"), volume test $(cell "$(median <<<"$t_all")" "$(median <<<"$t_cpus")"), cat - test $(cell "$md" "$(median <<<"$dc_all")") (medians of the rounds' differences; goal <= 0.30 s of wall time: $met); bytes as the source file: $check"
  done

  echo "## (d) volume get LUKS / DEST --key-file KEY with JAVA_OPTS=-Xmx64m"
  for f in ${fss//,/ }; do
    [ -z "${skip[$f]:-}" ] || { echo "$f: skipped: ${skip[$f]}"; continue; }
    o_all="" o_cpus=""
    for r in $(seq "$rounds"); do
      fresh "$work/out"
      timed o env JAVA_OPTS=-Xmx64m "$volume" get "$work/$f.luks" / "$work/out" --key-file "$work/key"
      s=$(same "$o" "$f round $r volume get -Xmx64m" "$work/out"); fresh "$work/out"
      o_all="$o_all $o" o_cpus="$o_cpus $o_cpu"
      echo "$f: round $r: volume get (-Xmx64m) $(cell "$o" "$o_cpu"); same files: $s"
    done
    echo "$f: median volume get (-Xmx64m) $(cell "$(median <<<"$o_all")" "$(median <<<"$o_cpus")")"
  done
  echo "# load after: $(uptime | sed 's/.*load/load/')"
  if [ -s "$work/problems" ]; then
    echo "# problems:"
    sed -e "s|$volume|bin/volume|g" -e "s|$work/|TMP/|g" -e 's/^/#   /' "$work/problems"
  fi
} | tee "$out"
echo "wrote bench/$out"
[ ! -s "$work/problems" ]
