#!/bin/sh
# Makes fuzz-seed.blocks.gz, the XfsFuzzTest volume: a 300 MiB XFS image (mkfs.xfs's minimum)
# filled through a loop mount, kept as its non-zero 4 KiB blocks (u32 big-endian block number,
# then the block). Run as root, from this folder.
set -e
img=$(mktemp /tmp/xfsseed.XXXXXX)
mnt=$(mktemp -d /tmp/xfsseedmnt.XXXXXX)
truncate -s 300M "$img"
mkfs.xfs -f -q -L FUZZ -m uuid=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0 "$img"
loop=$(losetup -f --show "$img")
mount -t xfs "$loop" "$mnt"
mkdir -p "$mnt/a/b/c" "$mnt/block" "$mnt/leaf"
echo deep > "$mnt/a/b/c/deep.txt"
for i in $(seq 1 5); do echo "s$i" > "$mnt/a/s$i"; done
for i in $(seq 1 60); do echo "b$i" > "$mnt/block/entry-$i"; done
for i in $(seq 1 400); do : > "$mnt/leaf/a-longer-name-for-a-leaf-directory-$i"; done
python3 -c "
import os
f = open('$mnt/frag', 'wb')
for i in range(40):
    f.seek(i * 8192); f.write(bytes([i]) * 4096)
f.truncate(40 * 8192 + 100000)
"
ln -s a/b/c "$mnt/fast"
ln -s "$(printf 'x%.0s' $(seq 1 300))" "$mnt/remote"
ln "$mnt/a/s1" "$mnt/hard"
umount "$mnt"
losetup -d "$loop"
python3 - "$img" <<'PY'
import gzip, struct, sys
out = gzip.open('fuzz-seed.blocks.gz', 'wb', 9)
with open(sys.argv[1], 'rb') as f:
    n = 0
    while True:
        b = f.read(4096)
        if not b:
            break
        if any(b):
            out.write(struct.pack('>I', n) + b)
        n += 1
out.close()
PY
rm -f "$img"
rmdir "$mnt"
