#!/usr/bin/env bash
# The files mount with and without an OPEN and a RELEASE request per file (FileTreeMount's
# zero-message opens, FUSE_CAP_NO_OPEN_SUPPORT): `cp -a` of the whole mount, alternated mode by
# mode in one JVM (OpenRequestsBench in the fuse module's test classes), first after each mount
# and again after drop_caches (as root). The tree: bench/files/tree.py's --files files (default
# 5,000, seed 48) on an NTFS image made by mkntfs and filled through ntfs-3g, read plain (no
# cipher: the rows measure the FUSE path). Writes bench/results/<date>-fuse-open.txt.
# Needs /dev/fuse, fuse3, ntfs-3g and the build (./mvnw -B -q package -DskipTests).
#
#   bench/fuse-open.sh [--rounds N] [--files N]
set -euo pipefail
cd "$(dirname "$0")"
rounds=3 files=5000
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    *) echo "usage: bench/fuse-open.sh [--rounds N] [--files N]" >&2; exit 2 ;;
  esac
done
. ./jdk25.sh
jar=$(ls ../vectorjce-tool/target/vectorjce-tool-*-volume.jar 2>/dev/null | head -n 1)
classes=../vectorjce-fuse/target/test-classes
[ -n "$jar" ] && [ -f "$classes/org/vectorjce/fuse/OpenRequestsBench.class" ] \
  || { echo "not built: ./mvnw -B -q package -DskipTests" >&2; exit 2; }
for t in mkntfs ntfs-3g fusermount3; do
  command -v "$t" >/dev/null || { echo "$t not found (Debian: ntfs-3g, fuse3)" >&2; exit 2; }
done
[ -c /dev/fuse ] || { echo "no /dev/fuse" >&2; exit 2; }
work=$(mktemp -d)
cleanup() {
  for m in "$work/ntfs-3g" "$work/mnt"; do mountpoint -q "$m" 2>/dev/null && fusermount3 -u -z "$m"; done
  rm -rf "$work"
}
trap cleanup EXIT
python3 files/tree.py --files "$files" --seed 48 --max-bytes 200000000 "$work/src" >/dev/null
truncate -s 512M "$work/ntfs.img"
mkntfs -F -f -Q -L VJCEFILES "$work/ntfs.img" >/dev/null 2>&1
mkdir "$work/ntfs-3g"
ntfs-3g "$work/ntfs.img" "$work/ntfs-3g"
cp -a "$work/src/." "$work/ntfs-3g/"
fusermount3 -u "$work/ntfs-3g"
out="results/$(date -u +%Y-%m-%d-%H%M)-fuse-open.txt"
mkdir -p results
{
  echo "# cp -a out of FileTreeMount with and without OPEN/RELEASE requests, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(uname -r), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p)"
  echo "# at $(git -C .. rev-parse --short HEAD 2>/dev/null || echo '?'); command: bench/fuse-open.sh --rounds $rounds --files $files; tree: $(find "$work/src" -type f | wc -l) files, $(du -sm "$work/src" | cut -f1) MiB; load before: $(uptime | sed 's/.*load average: //')"
  echo "# seconds of wall time per cp -a (one JVM, both modes alternated; the first copy after each mount carries that mount's JIT warm-up)"
  "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$jar:$classes" org.vectorjce.fuse.OpenRequestsBench \
      "$work/ntfs.img" "$work" "$rounds"
  diff -r -q "$work/out" "$work/src" >/dev/null && echo "# the last copy equals the source tree (diff -r)" || echo "# the last copy DIFFERS from the source tree"
  echo "# load after: $(uptime | sed 's/.*load average: //')"
} | tee "$out"
echo "wrote bench/$out"
