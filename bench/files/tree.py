#!/usr/bin/env python3
"""The file tree bench/files.sh puts into its images: the same tree for the same arguments.

    tree.py DIR --files N --seed S --max-bytes B

Makes DIR (which must not exist) holding N files in nested folders up to 6 deep (N // 20
folders), sizes mixed as on a user's disk: 3 % of 0-1023 bytes (some empty), most
log-uniform in 1-64 KiB, N/200 of 1 MiB and N/2500 of 16 MiB (at least one of each), with names
as people give them (long, spaced, mixed case, a few non-ASCII), modification times on even
seconds (FAT keeps 2 s) between 2000 and 2025. Contents are slices of a seeded random pool, at a
random offset per file, so two files of one size differ. One 1 MiB file lies in the deepest
folder: its path in the tree is the last line printed, after a summary line. Exits 2, writing
nothing, when the files would take more than --max-bytes.
"""
import argparse
import os
import random
import sys

KIB, MIB = 1 << 10, 1 << 20
DEPTH = 6

FILE_NAMES = [
    "IMG_{:04d}.JPG", "report {} (final).docx", "notes-{}.txt", "{}.bin", "Mixed Case {}.PDF",
    "a long file name that goes well past eight dot three {}.tar.gz", "data_{}.csv", "index{}.html",
    "photo {}.jpeg", "README-{}", "budget 2024 v{}.xlsx", "song {} - track.mp3", "lib{}.so.1",
]
NON_ASCII = ["données {}.csv", "Übersicht {}.txt", "日本語 {}.txt", "résumé {}.pdf"]
FOLDER_NAMES = ["Folder {}", "src{}", "2024-{}", "Photos {}", "Documents {}", "backup_{}", "x{}",
                "Projects and Things {}", "Dossier été {}"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--files", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--max-bytes", type=int, required=True)
    a = ap.parse_args()
    if a.files < 10:
        sys.exit("tree.py: --files must be at least 10")
    rnd = random.Random(a.seed)

    # folders: a chain to the full depth first, then each under a random folder not yet DEPTH deep
    folders = [""]  # relative paths; "" is the root
    depth = {"": 0}
    n = 0

    def folder_name():
        nonlocal n
        n += 1
        return rnd.choice(FOLDER_NAMES).format(n)

    parent = ""
    for _ in range(DEPTH):
        p = folder_name() if parent == "" else parent + "/" + folder_name()
        folders.append(p)
        depth[p] = depth[parent] + 1
        parent = p
    deepest = parent
    shallow = [f for f in folders if depth[f] < DEPTH]
    for _ in range(max(0, a.files // 20 - DEPTH)):
        par = rnd.choice(shallow)
        p = folder_name() if par == "" else par + "/" + folder_name()
        folders.append(p)
        depth[p] = depth[par] + 1
        if depth[p] < DEPTH:
            shallow.append(p)

    # sizes: the big ones first, then the rest
    n16 = max(1, round(a.files / 2500))
    n1 = max(1, round(a.files / 200))
    sizes = [16 * MIB] * n16 + [MIB] * (n1 - 1)  # the last 1 MiB file is the deep one, below
    while len(sizes) < a.files - 1:
        if rnd.random() < 0.03:
            sizes.append(rnd.randrange(0, KIB))
        else:
            sizes.append(int(KIB * 64 ** rnd.random()))
    rnd.shuffle(sizes)
    total = sum(sizes) + MIB
    if total > a.max_bytes:
        print(f"tree.py: {a.files} files take {total / MIB:.0f} MiB, more than {a.max_bytes / MIB:.0f} MiB",
              file=sys.stderr)
        sys.exit(2)

    pool = rnd.randbytes(4 * MIB)
    os.makedirs(a.dir)
    for f in folders[1:]:
        os.mkdir(os.path.join(a.dir, f))

    def write(path, size):
        with open(path, "wb") as out:
            left = size
            while left > 0:
                off = rnd.randrange(len(pool))
                k = min(left, len(pool) - off)
                out.write(pool[off:off + k])
                left -= k
        t = rnd.randrange(946684800, 1735689600) & ~1  # 2000-01-01 .. 2025-01-01, even seconds
        os.utime(path, (t, t))

    for i, size in enumerate(sizes):
        pattern = rnd.choice(NON_ASCII) if rnd.random() < 0.02 else rnd.choice(FILE_NAMES)
        write(os.path.join(a.dir, rnd.choice(folders), pattern.format(i)), size)
    target = deepest + "/deep target 1MiB.bin"
    write(os.path.join(a.dir, target), MIB)
    for f in reversed(folders[1:]):
        t = rnd.randrange(946684800, 1735689600) & ~1
        os.utime(os.path.join(a.dir, f), (t, t))
    print(f"{a.files} files in {len(folders) - 1} folders up to {DEPTH} deep, {total} bytes "
          f"({n16} of 16 MiB, {n1} of 1 MiB), seed {a.seed}")
    print("/" + target)


if __name__ == "__main__":
    main()
