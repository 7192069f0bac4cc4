#!/usr/bin/env bash
# The files inside a volume, on FAT32, NTFS, ext4 and XFS:
# `volume get`, `ls -R` and `cat` reading a LUKS2 volume, against The Sleuth Kit (tsk_recover, fls),
# 7-Zip (7zz), debugfs (ext4) and the kernel (XFS, through a loop mount) on the same filesystem's
# plain image (already decrypted: they cannot open LUKS). Writes bench/results/<date>-files.txt.
# Each command is a fresh process run through bin/volume as users start it (its JDK 25, the vector
# module and the build's AOT cache where there are), wall time in seconds, ours and theirs
# alternating (odd rounds ours first, even rounds theirs first, in reverse), medians over --rounds:
#  (a) `volume get LUKS / DEST --key-file KEY` (unlock, decrypt, write every file) beside
#      - FAT32, NTFS, ext4: `tsk_recover -a PLAIN DEST2` and `7zz x -oDEST3 PLAIN` (7-Zip's own
#        metadata folders, [SYSTEM] of NTFS and [SYS] of ext4 with the journal, deleted first);
#      - ext4 also: `debugfs -R 'rdump / DEST4' PLAIN` (it puts the root's entries in DEST4);
#      - XFS: `cp -a MNT/. DEST2` out of a read-only loop mount of PLAIN (`losetup -r`, `mount -o
#        ro,norecovery`; neither TSK 4.11 nor 7-Zip reads XFS), goal ratio >= 0.5; the loop is
#        attached and mounted afresh before each cp and detached after it (not timed), so the
#        kernel's XFS caches are cold each time while the image file's host page cache is warm, as
#        it is for volume get reading the LUKS file;
#      ratio theirs / ours (> 1 = we are faster); every output is compared with the source tree by
#      `diff -r -q` (names, folders and bytes; not times), so they all hold the same files, and a
#      mismatch is written as NO; on ext4 with `-x lost+found` (mkfs.ext4 makes that folder, empty:
#      volume get, debugfs and 7zz copy it, tsk_recover does not);
#  (b) `volume ls -R LUKS --key-file KEY` beside `fls -r PLAIN`, both to /dev/null; on XFS instead
#      (an extra row) `find MNT -printf '%p %s %T@\n'` on a read-only loop mount
#      made afresh before each run, as in (a);
#  (c) `volume cat LUKS PATH --key-file KEY` of a 1 MiB file 6 folders deep beside `volume test
#      LUKS --key-file KEY` (the unlock alone): cat - test is what reading one file costs (goal:
#      <= 0.3 s); the cat's bytes are compared with the source file once (cmp);
#  (d) the whole get again with JAVA_OPTS=-Xmx64m: it must succeed in a small heap (same check);
#  (e) `rclone copy` of the whole tree from `volume browse LUKS --key-file KEY` (started
#      once, not timed; rclone's webdav backend, its default 4 transfers) beside `volume get` (goal:
#      ratio get / rclone >= 0.70). rclone's webdav backend paces its requests at least 10 ms
#      apart whatever --transfers says (Debian's 1.60 has no option for it), so a tree of many small
#      files measures that pacer: 20,000 files take 200 s or more from any server;
#  (f) `cp -a MNT/. DEST` out of `volume mount --files LUKS MNT --key-file KEY`, mounted
#      afresh before each cp (the kernel's FUSE caches cold; not timed), beside `volume get` (goal
#      >= 0.70);
#  (g) the files of 1 MiB or more downloaded by curl from `volume browse`, one client
#      alone, then 4 clients at once, each the same set: each client's time alone / its time among
#      four (goal >= 0.50 for every client: the server is not the bottleneck).
# --parts chooses which (default all: a,b,c,d,e,f,g); (e) needs rclone, (f) /dev/fuse and fuse3,
# (g) curl; without them their rows say why they are skipped.
# Setup, in a temporary folder under --dir (deleted at the end, also on failure or Ctrl-C, with any
# mount and loop device): bench/files/tree.py makes --files files (default 20,000) in nested folders
# up to 6 deep, sizes mixed (most 1-64 KiB, 1 in 200 of 1 MiB, 1 in 2500 of 16 MiB, a few empty or
# under 1 KiB), names long, spaced and a few non-ASCII, from a fixed --seed (48) so runs compare; then
#  - FAT32: `mkfs.fat -F 32` on a --size image (default 1G), filled by `mcopy -s -m` (mtools);
#  - NTFS: `mkntfs -F -f -Q` on a --size image, filled through an ntfs-3g FUSE mount (cp -a), when
#    /dev/fuse and ntfs-3g are there and our build reads NTFS (`volume fs` on a small mkntfs image
#    names it); else its rows say why they are skipped;
#  - ext4: `mkfs.ext4 -q -F -L VJCEFILES -d SRC` on a --size image (formats and copies in one step,
#    without root; -d keeps mtimes to the second), when our build reads ext4 (the same probe);
#  - XFS: as root, `losetup -f --show` on a --size image (at least 300M, mkfs.xfs's minimum),
#    `mkfs.xfs -f -L VJCEFILES` on the loop device, `mount`, `cp -a`, `umount` and the loop detached
#    (it stays attached only while mounted), when our build reads XFS (the same probe); else, or
#    when losetup or mount fail (no root, no loop devices in a container), its rows say why not;
#  - each plain image inside a LUKS2 volume of its size plus the 16 MiB header: `cryptsetup
#    luksFormat --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000` with a key file (an unlock
#    of a few ms, so the rows measure reading, not the KDF), written by `bin/volume encrypt PLAIN
#    LUKS --key-file KEY` (its oracle checks are in the tests; the outputs' diff checks it too).
# Every command runs under `timeout --foreground` (--timeout seconds, default 600; in the terminal's
# process group, so that Ctrl-C stops it) with stdin from /dev/null; a failure or timeout is
# written in its cell, its stderr under "# problems", and the exit status is 1 (debugfs exits 0 on
# errors: the diff catches them). Besides wall time, each cell gives the command's CPU seconds
# (user + system, with its children's; bash's `time`), steadier than wall time on a shared machine;
# the kernel's own work for a loop mount (XFS, the loop device's reads) is not in cp's or find's.
# Holds /tmp/vjce-build.lock for the whole run; needs about (2 x filesystems + 3) x --size free
# under --dir (checked first). Needs the jar (./mvnw -B -q package -DskipTests at the root),
# python3, mkfs.fat (Debian: dosfstools), mcopy (mtools), cryptsetup (cryptsetup-bin), tsk_recover
# and fls (sleuthkit), 7zz (7zip); for NTFS mkntfs and ntfs-3g (ntfs-3g); for ext4 mkfs.ext4 and
# debugfs (e2fsprogs); for XFS mkfs.xfs (xfsprogs), losetup and mount (util-linux, mount) and root.
# Develop with small sizes: --files 2000 --size 128M --rounds 1 takes about a minute (--size 320M
# for XFS).
#
#   bench/files.sh [--rounds N] [--files N] [--size SIZE] [--seed N] [--fs fat32,ntfs,ext4,xfs] [--parts a,b,c,d,e,f,g] [--dir DIR] [--timeout S]
#
# The browse and files-mount rows alone: bench/files.sh --fs ntfs --parts e,f,g
set -euo pipefail
cd "$(dirname "$0")"
rounds=3 files=20000 size=1G seed=48 fss=fat32,ntfs,ext4,xfs parts=a,b,c,d,e,f,g dir=/tmp tmo=600
usage="usage: bench/files.sh [--rounds N] [--files N] [--size SIZE] [--seed N] [--fs fat32,ntfs,ext4,xfs] [--parts a,b,c,d,e,f,g] [--dir DIR] [--timeout S]"
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }  # every option takes a value
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --fs) fss=$2; shift 2 ;;
    --parts) parts=$2; shift 2 ;;
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
  case "$f" in fat32|ntfs|ext4|xfs) ;; *) echo "--fs $f: fat32, ntfs, ext4 or xfs" >&2; exit 2 ;; esac
done
for p in ${parts//,/ }; do
  case "$p" in [a-g]) ;; *) echo "--parts $p: a, b, c, d, e, f or g" >&2; exit 2 ;; esac
done
part() { [[ ",$parts," == *",$1,"* ]]; }
need() { command -v "$1" >/dev/null || { echo "bench/files.sh needs $1 (Debian: $2)" >&2; exit 2; }; }
need python3 python3; need mkfs.fat dosfstools; need mcopy mtools; need cryptsetup cryptsetup-bin
need tsk_recover sleuthkit; need fls sleuthkit; need 7zz 7zip; need timeout coreutils; need numfmt coreutils
need diff diffutils; need cmp diffutils; need mountpoint util-linux; need flock util-linux
jar=../vectorjce-tool/target/vectorjce-tool-0.1.0-SNAPSHOT-volume.jar
[ -f "$jar" ] || { echo "missing $jar: run ./mvnw -B -q package -DskipTests at the root first" >&2; exit 2; }
volume=$PWD/../bin/volume
export LC_ALL=C.UTF-8  # the same names through mtools, ntfs-3g, tsk_recover, 7zz, debugfs and diff

exec 9>/tmp/vjce-build.lock
flock -n 9 || { echo "bench/files.sh: waiting for /tmp/vjce-build.lock (a build or benchmark holds it)" >&2; flock 9; }
mkdir -p "$dir"
work=$(mktemp -d "$dir/vjce-files.XXXXXX")
# Unmounts the NTFS or XFS image if it is still mounted, waits for its ntfs-3g (started by this
# script, its pid in ntfs3g.pid), detaches the XFS image's loop device (attached by this script, its
# name in loop), then deletes the folder without crossing into a mount.
cleanup() {
  local pid
  for f in browse.pid files.pid; do
    [ -f "$work/$f" ] && kill -TERM "$(cat "$work/$f")" 2>/dev/null || true
  done
  if mountpoint -q "$work/mnt" 2>/dev/null; then
    umount "$work/mnt" 2>/dev/null || fusermount -u "$work/mnt" 2>/dev/null || umount -l "$work/mnt" 2>/dev/null || true
  fi
  if [ -f "$work/loop" ]; then
    losetup -d "$(cat "$work/loop")" 2>/dev/null || true  # when still busy (a lazy umount), detached once free
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
# source tree (diff -r -q: the same names, folders and bytes; any further arguments are diff's,
# -x lost+found on ext4), else NO with the number of differences, its files and bytes and the first
# difference (all go to the problems, labelled $2).
same() {
  local d n label dest
  [[ "$1" =~ ^[0-9.]+$ ]] || { echo "-"; return; }
  label=$2 dest=$3
  shift 3
  if d=$(diff -r -q "$@" "$work/src" "$dest" 2>&1); then echo yes; return; fi
  n=$(printf '%s\n' "$d" | wc -l)
  { echo "$label: $n differences from the source tree:"; printf '%s\n' "$d" | head -n 20 | sed 's/^/    /'; } >>"$work/problems"
  echo "NO ($n differences; $(find "$dest" -type f 2>/dev/null | wc -l) files, $(find "$dest" -type f -printf '%s\n' 2>/dev/null | awk '{ s += $1 } END { print s + 0 }') bytes; first: $(printf '%s\n' "$d" | head -n 1 | sed "s|$work/||g"))"
}
fresh() { rm -rf "$@"; sync -f "$work"; }
# The name in the rows of (a)'s command WHO (ours, tsk, 7zz, debugfs, cp).
label() { case "$1" in ours) echo "volume get" ;; tsk) echo tsk_recover ;; debugfs) echo "debugfs rdump" ;; cp) echo "cp -a" ;; *) echo "$1" ;; esac; }
# xfs_mount: the plain XFS image on a free read-only loop device (losetup -r; its name in $work/loop,
# for the trap), mounted at $work/mnt with -o ro,norecovery (nothing written, no log replayed); on a
# failure it says why in $work/err, undoes what it did and returns 1. xfs_umount unmounts and
# detaches: the loop stays attached only while the image is mounted, and each mount starts with the
# XFS caches (inodes, folders, file pages) and the loop device's empty; the host's page cache of the
# image file stays warm, as it does for the LUKS file volume get reads.
xfs_mount() {
  local l
  l=$(losetup -r -f --show "$work/xfs.img" 2>"$work/err") || { sed -i '1s/^/losetup: /' "$work/err"; return 1; }
  echo "$l" >"$work/loop"
  mkdir -p "$work/mnt"
  mount -o ro,norecovery "$l" "$work/mnt" 2>"$work/err" && return 0
  sed -i '1s/^/mount: /' "$work/err"
  xfs_umount
  return 1
}
xfs_umount() {
  if mountpoint -q "$work/mnt"; then umount "$work/mnt"; fi
  if [ -f "$work/loop" ]; then losetup -d "$(cat "$work/loop")"; rm -f "$work/loop"; fi
}
# xfs_timed VAR CMD...: timed, the plain XFS image mounted read-only (ro,norecovery) afresh around
# CMD (the mount and unmount not timed); a failed mount is written as fail(mount) with its error.
xfs_timed() {
  local _v=$1
  if ! xfs_mount; then
    { echo "losetup -r / mount -o ro,norecovery of the plain XFS image failed:"; tail -n 3 "$work/err" | sed 's/^/    /'; } >>"$work/problems"
    printf -v "$_v" 'fail(mount)'; printf -v "${_v}_cpu" -
    return 0
  fi
  timed "$@"
  xfs_umount
}

# goal Q MIN: met when the ratio Q is at least MIN, NOT met below, - when there is none.
goal() { awk -v q="$1" -v m="$2" 'BEGIN { if (q !~ /^[0-9.]+$/) print "-"; else if (q + 0 >= m + 0) print "met"; else print "NOT met" }'; }
# browse_start FS: volume browse of FS's LUKS volume in the background (its pid in browse.pid, for
# the trap); sets url to the address it prints on stdout, or returns 1 with why in $work/err.
browse_start() {
  local pid
  "$volume" browse "$work/$1.luks" --key-file "$work/key" </dev/null >"$work/browse.out" 2>"$work/err" &
  pid=$!
  echo "$pid" >"$work/browse.pid"
  url=""
  for _ in $(seq 300); do
    url=$(grep -m 1 -o 'https\?://[^ ]*' "$work/browse.out" 2>/dev/null || true)
    [ -n "$url" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  browse_stop
  echo "no address on stdout in 30 s: $(tail -n 1 "$work/err")" >>"$work/err"
  return 1
}
# browse_stop: SIGTERM to the browse server, and waits for it (it finishes what is in flight).
browse_stop() {
  local pid
  [ -f "$work/browse.pid" ] || return 0
  pid=$(cat "$work/browse.pid")
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -f "$work/browse.pid"
}
# files_mount FS: volume mount --files of FS's LUKS volume at $work/mnt in the background (its pid in
# files.pid); returns when mounted, or 1 with why in $work/err. files_umount: fusermount3 -u, and
# waits for the command to exit.
files_mount() {
  local pid
  mkdir -p "$work/mnt"
  "$volume" mount --files "$work/$1.luks" "$work/mnt" --key-file "$work/key" </dev/null >/dev/null 2>"$work/err" &
  pid=$!
  echo "$pid" >"$work/files.pid"
  for _ in $(seq 300); do
    mountpoint -q "$work/mnt" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  files_umount
  return 1
}
files_umount() {
  local pid
  mountpoint -q "$work/mnt" && fusermount3 -u "$work/mnt" 2>/dev/null
  [ -f "$work/files.pid" ] || return 0
  pid=$(cat "$work/files.pid")
  wait "$pid" 2>/dev/null || true
  rm -f "$work/files.pid"
}

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
# reads NAME SIZE MKFS...: whether our build reads NAME (volume fs names it) on a SIZE probe image
# made by MKFS... PROBE.
reads() {
  local name=$1 psize=$2 probe
  shift 2
  truncate -s "$psize" "$work/probe.img"
  step "$@" "$work/probe.img" >/dev/null
  probe=$("$volume" fs "$work/probe.img" --json 2>/dev/null </dev/null || true)
  rm -f "$work/probe.img"
  grep -qi "\"filesystem\":\"$name" <<<"$probe"
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
      reads ntfs 16M mkntfs -F -f -Q || { skip[ntfs]="no NTFS driver yet (volume fs does not name NTFS on an mkntfs image)"; continue; }
      truncate -s "$bytes" "$work/ntfs.img"
      step mkntfs -F -f -Q -L VJCEFILES "$work/ntfs.img" >/dev/null
      mkdir -p "$work/mnt"
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
    ext4)
      if ! command -v mkfs.ext4 >/dev/null || ! command -v debugfs >/dev/null; then
        skip[ext4]="mkfs.ext4 or debugfs not found (Debian: e2fsprogs)"; continue
      fi
      reads ext4 16M mkfs.ext4 -q -F || { skip[ext4]="no ext4 driver (volume fs does not name ext4 on an mkfs.ext4 image)"; continue; }
      truncate -s "$bytes" "$work/ext4.img"
      # formats and copies the tree in one step, without root or a mount (mtimes to the second)
      t_fill=$(step mkfs.ext4 -q -F -L VJCEFILES -d "$work/src" "$work/ext4.img")
      t_enc=$(luks ext4)
      setup_note[ext4]="mkfs.ext4 -q -F -d $t_fill s; luksFormat and volume encrypt $t_enc s"
      ;;
    xfs)
      command -v mkfs.xfs >/dev/null || { skip[xfs]="mkfs.xfs not found (Debian: xfsprogs)"; continue; }
      [ "$bytes" -ge $((300 << 20)) ] || { skip[xfs]="--size $size is under mkfs.xfs's minimum of 300M"; continue; }
      reads xfs 300M mkfs.xfs -f -q || { skip[xfs]="no XFS driver yet (volume fs does not name XFS on an mkfs.xfs image)"; continue; }
      [ "$(id -u)" = 0 ] || { skip[xfs]="not root (the image is filled, and read for the comparison, through losetup and mount)"; continue; }
      truncate -s "$bytes" "$work/xfs.img"
      # made on a loop device as a user would, filled by the kernel's XFS through a mount
      if ! loop=$(losetup -f --show "$work/xfs.img" 2>"$work/err"); then
        skip[xfs]="losetup -f --show failed: $(tail -n 1 "$work/err")"; rm -f "$work/xfs.img"; continue
      fi
      echo "$loop" >"$work/loop"
      step mkfs.xfs -f -q -L VJCEFILES "$loop" >/dev/null
      mkdir -p "$work/mnt"
      if ! mount "$loop" "$work/mnt" 2>"$work/err"; then
        skip[xfs]="mount failed: $(tail -n 1 "$work/err")"; xfs_umount; rm -f "$work/xfs.img"; continue
      fi
      t_fill=$(step cp -a "$work/src/." "$work/mnt/")
      step umount "$work/mnt" >/dev/null
      xfs_umount  # detaches the loop device
      t_enc=$(luks xfs)
      setup_note[xfs]="mkfs.xfs -f -q on a loop device, mount, cp -a $t_fill s, umount, detached; luksFormat and volume encrypt $t_enc s"
      ;;
  esac
done

out="results/$(date -u +%Y-%m-%d-%H%M)-files.txt"
mkdir -p results
{
  echo "# Files inside a LUKS2 volume: bin/volume get, ls -R and cat vs tsk_recover -a, 7zz x, debugfs rdump (ext4) and fls -r on the plain image, and cp -a and find on a read-only loop mount of it (XFS); AOT cache: $(ls ../vectorjce-tool/target/*-volume.aot 2>/dev/null || echo none)"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(awk '/MemTotal/ { printf "%d MiB", $2 / 1024 }' /proc/meminfo), $(uname -r), $dir on $(df -PT "$dir" | awk 'NR == 2 { print $2 }')"
  echo "# $("$volume" --version 2>/dev/null </dev/null | paste -sd ' ' | sed 's/ Java /, Java /') at $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C .. diff --quiet HEAD 2>/dev/null || echo '+changes'); JAVA_OPTS: ${JAVA_OPTS:-none}"
  echo "# $(cryptsetup --version); $(mcopy --version | head -n 1); ${mkfs_fat:-mkfs.fat}; $(command -v ntfs-3g >/dev/null && ntfs-3g --version 2>&1 | head -n 1 || echo 'no ntfs-3g'); $(fls -V); $(7zz | sed -n 2p | cut -d: -f1 | sed 's/ *$//')"
  # sed -n 1p, not head: head's early exit would end mke2fs by SIGPIPE before its second line (pipefail)
  echo "# $(command -v mkfs.ext4 >/dev/null && mkfs.ext4 -V 2>&1 | sed -n '1s/^mke2fs/mkfs.ext4 (mke2fs)/p' || echo 'no mkfs.ext4'); $(command -v debugfs >/dev/null && debugfs -V 2>&1 | sed -n 1p || echo 'no debugfs'); $(command -v mkfs.xfs >/dev/null && mkfs.xfs -V || echo 'no mkfs.xfs'); $(command -v losetup >/dev/null && losetup --version || echo 'no losetup')"
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
  echo "# seconds of wall time per fresh process (cpu: its user + system seconds, with its children's); ratio = theirs / ours (> 1 = we are faster), of wall times; outputs: diff -r -q against the source tree (yes = the same names, folders and bytes; 7zz's [SYSTEM] folder of NTFS metadata files and [SYS] folder of the ext4 journal, which the others hide, are deleted first; on ext4 the empty lost+found that mkfs.ext4 makes is left out: diff -x lost+found)"

  if part a; then
    echo "## (a) every file out: volume get LUKS / DEST --key-file KEY (decrypting) vs tsk_recover -a PLAIN DEST2 and 7zz x -oDEST3 PLAIN; ext4 also debugfs -R 'rdump / DEST4' PLAIN; XFS instead cp -a MNT/. DEST2 out of a read-only loop mount of PLAIN, mounted afresh before each cp (XFS caches cold, the image file's page cache warm; goal ratio >= 0.50)"
    for f in ${fss//,/ }; do
      [ -z "${skip[$f]:-}" ] || { echo "$f: skipped: ${skip[$f]}"; continue; }
      case "$f" in ext4) comps="tsk 7zz debugfs" x=(-x lost+found) ;; xfs) comps=cp x=() ;; *) comps="tsk 7zz" x=() ;; esac
      declare -A w=() w_cpu=() ok=() all=() cpus=()
      for r in $(seq "$rounds"); do
        if [ $((r % 2)) = 1 ]; then order="ours $comps"; else order="$(tr ' ' '\n' <<<"ours $comps" | tac | paste -sd ' ')"; fi
        for who in $order; do
          fresh "$work/out"
          case "$who" in
            ours)    timed v "$volume" get "$work/$f.luks" / "$work/out" --key-file "$work/key" ;;
            tsk)     timed v tsk_recover -a "$work/$f.img" "$work/out" ;;
            7zz)     timed v 7zz x -y -o"$work/out" "$work/$f.img"
                     rm -rf "$work/out/[SYSTEM]" "$work/out/[SYS]" ;;  # 7-Zip's NTFS metadata files ($MFT, ...), ext's journal, which the others hide
            debugfs) mkdir "$work/out"  # rdump writes the root's entries into an existing folder
                     timed v debugfs -R "rdump / \"$work/out\"" "$work/$f.img" ;;
            cp)      xfs_timed v cp -a "$work/mnt/." "$work/out" ;;
          esac
          w[$who]=$v w_cpu[$who]=$v_cpu all[$who]="${all[$who]:-} $v" cpus[$who]="${cpus[$who]:-} $v_cpu"
          ok[$who]=$(same "$v" "$f round $r $(label "$who")" "$work/out" "${x[@]}")
        done
        fresh "$work/out"
        line="$f: round $r ($order): volume get $(cell "${w[ours]}" "${w_cpu[ours]}")"
        for c in $comps; do line+=", $(label "$c") $(cell "${w[$c]}" "${w_cpu[$c]}") (ratio $(ratio "${w[$c]}" "${w[ours]}"))"; done
        line+="; same files: volume get ${ok[ours]}"
        for c in $comps; do line+=", $(label "$c") ${ok[$c]}"; done
        echo "$line"
      done
      mo=$(median <<<"${all[ours]}")
      line="$f: median volume get $(cell "$mo" "$(median <<<"${cpus[ours]}")")"
      for c in $comps; do
        m=$(median <<<"${all[$c]}")
        line+=", $(label "$c") $(cell "$m" "$(median <<<"${cpus[$c]}")") (ratio $(ratio "$m" "$mo"))"
      done
      if [ "$f" = xfs ]; then
        line+="; goal ratio >= 0.50: $(awk -v q="$(ratio "$m" "$mo")" 'BEGIN { if (q !~ /^[0-9.]+$/) print "-"; else if (q >= 0.5) print "met"; else print "NOT met" }')"
      fi
      echo "$line"
      unset w w_cpu ok all cpus
    done
  fi

  if part b; then
    echo "## (b) the whole listing: volume ls -R LUKS --key-file KEY vs fls -r PLAIN, both to /dev/null; XFS (TSK does not read XFS) vs find MNT -printf '%p %s %T@\\n' on a read-only loop mount of PLAIN, mounted afresh before each find"
    for f in ${fss//,/ }; do
      [ -z "${skip[$f]:-}" ] || { echo "$f: skipped: ${skip[$f]}"; continue; }
      if [ "$f" = xfs ]; then
        theirs=(xfs_timed t find "$work/mnt" -printf '%p %s %T@\n') their="find -printf"
      else
        theirs=(timed t fls -r "$work/$f.img") their="fls -r"
      fi
      o_all="" o_cpus="" t_all="" t_cpus=""
      for r in $(seq "$rounds"); do
        if [ $((r % 2)) = 1 ]; then
          timed o "$volume" ls -R "$work/$f.luks" --key-file "$work/key"; "${theirs[@]}"
        else
          "${theirs[@]}"; timed o "$volume" ls -R "$work/$f.luks" --key-file "$work/key"
        fi
        o_all="$o_all $o" o_cpus="$o_cpus $o_cpu" t_all="$t_all $t" t_cpus="$t_cpus $t_cpu"
        echo "$f: round $r: volume ls -R $(cell "$o" "$o_cpu"), $their $(cell "$t" "$t_cpu") (ratio $(ratio "$t" "$o"))"
      done
      mo=$(median <<<"$o_all") mt=$(median <<<"$t_all")
      echo "$f: median volume ls -R $(cell "$mo" "$(median <<<"$o_cpus")"), $their $(cell "$mt" "$(median <<<"$t_cpus")") (ratio $(ratio "$mt" "$mo"))"
    done
  fi

  if part c; then
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
  fi

  if part d; then
    echo "## (d) volume get LUKS / DEST --key-file KEY with JAVA_OPTS=-Xmx64m"
    for f in ${fss//,/ }; do
      [ -z "${skip[$f]:-}" ] || { echo "$f: skipped: ${skip[$f]}"; continue; }
      o_all="" o_cpus=""
      for r in $(seq "$rounds"); do
        fresh "$work/out"
        timed o env JAVA_OPTS=-Xmx64m "$volume" get "$work/$f.luks" / "$work/out" --key-file "$work/key"
        x=(); [ "$f" != ext4 ] || x=(-x lost+found)
        s=$(same "$o" "$f round $r volume get -Xmx64m" "$work/out" "${x[@]}"); fresh "$work/out"
        o_all="$o_all $o" o_cpus="$o_cpus $o_cpu"
        echo "$f: round $r: volume get (-Xmx64m) $(cell "$o" "$o_cpu"); same files: $s"
      done
      echo "$f: median volume get (-Xmx64m) $(cell "$(median <<<"$o_all")" "$(median <<<"$o_cpus")")"
    done
  fi

  if part e || part f || part g; then
    for f in ${fss//,/ }; do
      [ -z "${skip[$f]:-}" ] || { echo "## (e-g) $f: skipped: ${skip[$f]}"; continue; }
      xl=(); [ "$f" != ext4 ] || xl=(-x lost+found)
      if part e; then
        echo "## (e) $f: rclone copy of the whole tree from volume browse LUKS --key-file KEY (started once, not timed; rclone's webdav backend, 4 transfers) vs volume get LUKS / DEST --key-file KEY; goal ratio get / rclone >= 0.70"
        if ! command -v rclone >/dev/null; then
          echo "$f: skipped: rclone not found (Debian: rclone)"
        elif ! browse_start "$f"; then
          echo "$f: skipped: volume browse did not start: $(tail -n 1 "$work/err")"
        else
          g_all="" r_all="" g_cpus="" r_cpus=""
          for r in $(seq "$rounds"); do
            for who in $( [ $((r % 2)) = 1 ] && echo "get rclone" || echo "rclone get" ); do
              fresh "$work/out"
              if [ "$who" = get ]; then
                timed g "$volume" get "$work/$f.luks" / "$work/out" --key-file "$work/key"; sg=$(same "$g" "$f round $r volume get" "$work/out" "${xl[@]}")
              else
                timed rc env RCLONE_CONFIG_VJ_TYPE=webdav RCLONE_CONFIG_VJ_URL="$url" rclone copy vj: "$work/out"
                sr=$(same "$rc" "$f round $r rclone copy" "$work/out" "${xl[@]}")
              fi
            done
            fresh "$work/out"
            g_all="$g_all $g" r_all="$r_all $rc" g_cpus="$g_cpus $g_cpu" r_cpus="$r_cpus $rc_cpu"
            echo "$f: round $r: volume get $(cell "$g" "$g_cpu"), rclone copy $(cell "$rc" "$rc_cpu") (ratio $(ratio "$g" "$rc")); same files: volume get $sg, rclone $sr"
          done
          mg=$(median <<<"$g_all") mr=$(median <<<"$r_all") q=$(ratio "$mg" "$mr")
          echo "$f: median volume get $(cell "$mg" "$(median <<<"$g_cpus")"), rclone copy $(cell "$mr" "$(median <<<"$r_cpus")") (ratio $q; goal >= 0.70: $(goal "$q" 0.70))"
          browse_stop
        fi
      fi
      if part f; then
        echo "## (f) $f: cp -a MNT/. DEST out of volume mount --files LUKS MNT --key-file KEY (mounted afresh before each cp, not timed) vs volume get LUKS / DEST --key-file KEY; goal ratio get / cp >= 0.70"
        if [ ! -c /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
          echo "$f: skipped: no /dev/fuse or fusermount3 (Debian: fuse3)"
        else
          g_all="" c_all="" g_cpus="" c_cpus="" failed=""
          for r in $(seq "$rounds"); do
            for who in $( [ $((r % 2)) = 1 ] && echo "get cp" || echo "cp get" ); do
              fresh "$work/out"
              if [ "$who" = get ]; then
                timed g "$volume" get "$work/$f.luks" / "$work/out" --key-file "$work/key"; sg=$(same "$g" "$f round $r volume get" "$work/out" "${xl[@]}")
              elif files_mount "$f"; then
                timed c cp -a "$work/mnt/." "$work/out"
                files_umount
                sc=$(same "$c" "$f round $r cp -a from the files mount" "$work/out" "${xl[@]}")
              else
                failed=$(tail -n 1 "$work/err"); break 2
              fi
            done
            fresh "$work/out"
            g_all="$g_all $g" c_all="$c_all $c" g_cpus="$g_cpus $g_cpu" c_cpus="$c_cpus $c_cpu"
            echo "$f: round $r: volume get $(cell "$g" "$g_cpu"), cp -a $(cell "$c" "$c_cpu") (ratio $(ratio "$g" "$c")); same files: volume get $sg, cp -a $sc"
          done
          if [ -n "$failed" ]; then
            echo "$f: volume mount --files did not mount: $failed"
          else
            mg=$(median <<<"$g_all") mc=$(median <<<"$c_all") q=$(ratio "$mg" "$mc")
            echo "$f: median volume get $(cell "$mg" "$(median <<<"$g_cpus")"), cp -a $(cell "$mc" "$(median <<<"$c_cpus")") (ratio $q; goal >= 0.70: $(goal "$q" 0.70))"
          fi
        fi
      fi
      if part g; then
        big=$(find "$work/src" -type f -size +1023k | wc -l)
        big_bytes=$(find "$work/src" -type f -size +1023k -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
        echo "## (g) $f: the $big files of 1 MiB or more ($((big_bytes >> 20)) MiB) by curl from volume browse: one client alone, then 4 at once, each the same set; goal: each client's time alone / among four >= 0.50"
        if ! command -v curl >/dev/null; then
          echo "$f: skipped: curl not found (Debian: curl)"
        elif ! browse_start "$f"; then
          echo "$f: skipped: volume browse did not start: $(tail -n 1 "$work/err")"
        else
          # one curl config: every file's URL (each path segment percent-encoded) to /dev/null
          find "$work/src" -type f -size +1023k -printf '%P\n' | python3 -c '
import sys, urllib.parse
base = sys.argv[1]
for line in sys.stdin:
    print("url = \"%s%s\"\noutput = \"/dev/null\"" % (base, urllib.parse.quote(line.rstrip("\n"))))' "$url" >"$work/curl.cfg"
          for r in $(seq "$rounds"); do
            timed one curl -sSf -K "$work/curl.cfg"
            pids=()
            for i in 1 2 3 4; do
              ( timed t curl -sSf -K "$work/curl.cfg"; echo "$t" >"$work/four.$i" ) &
              pids+=($!)
            done
            wait "${pids[@]}"  # the four clients (not the browse server, also a child)
            line="$f: round $r: one client $(cell "$one" "$one_cpu"); four at once:" worst=""
            for i in 1 2 3 4; do
              t=$(cat "$work/four.$i") q=$(ratio "$one" "$t")
              line+=" $t s (ratio $q)"
              worst=$(awk -v a="$worst" -v b="$q" 'BEGIN { if (a == "" || (b ~ /^[0-9.]+$/ && b + 0 < a + 0) || b !~ /^[0-9.]+$/) print b; else print a }')
            done
            w_all="${w_all:-} $worst"
            echo "$line; slowest client's ratio $worst"
          done
          mw=$(median <<<"$w_all")
          echo "$f: median of the slowest client's ratio $mw (goal >= 0.50: $(goal "$mw" 0.50))"
          unset w_all
          browse_stop
        fi
      fi
    done
  fi

  echo "# load after: $(uptime | sed 's/.*load/load/')"
  if [ -s "$work/problems" ]; then
    echo "# problems:"
    sed -e "s|$volume|bin/volume|g" -e "s|$work/|TMP/|g" -e 's/^/#   /' "$work/problems"
  fi
} | tee "$out"
echo "wrote bench/$out"
[ ! -s "$work/problems" ]
