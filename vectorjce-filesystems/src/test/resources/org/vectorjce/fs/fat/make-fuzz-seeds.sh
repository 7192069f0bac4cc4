#!/bin/sh
# Makes FatFuzzTest's seeds: a FAT12, a FAT16 and a FAT32 image from mkfs.fat, filled by mcopy,
# each written as the fuzz input format (records of: sector number u32 LE, byte count u16 LE, bytes)
# holding only the image's non-zero 512-byte sectors. Run from this folder; needs mkfs.fat, mtools, python3.
set -e
export MTOOLS_SKIP_CHECK=1 TZ=UTC LANG=C.UTF-8
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/Sub"
printf 'hello\n' > "$work/src/hello.txt"
head -c 1300 /dev/zero | tr '\0' x > "$work/src/Long file name.txt"
printf y > "$work/src/Sub/Grüße.txt"
: > "$work/src/EMPTY"
mkfs.fat -C -F 12 -s 1 -r 16 -n SEED -i 1234ABCD "$work/f12.img" 64 >/dev/null
mkfs.fat -C -F 16 -s 1 -r 64 -n SEED -i 1234ABCD "$work/f16.img" 2200 >/dev/null
truncate -s 40M "$work/f32.img"
mkfs.fat -F 32 -s 1 -f 1 -R 8 -n SEED -i 1234ABCD "$work/f32.img" >/dev/null
for t in 12 16 32; do
    (cd "$work/src" && mcopy -s -m -i "$work/f$t.img" -- * ::/)
    python3 - "$work/f$t.img" "FatFuzzTestInputs/image/fat$t" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
out = bytearray()
s = 0
while s * 512 < len(data):
    if any(data[s * 512:(s + 1) * 512]):
        e = s
        while e * 512 < len(data) and any(data[e * 512:(e + 1) * 512]) and e - s < 64:
            e += 1
        chunk = data[s * 512:e * 512]
        out += struct.pack('<IH', s, len(chunk)) + chunk
        s = e
    else:
        s += 1
open(sys.argv[2], 'wb').write(out)
PY
done
