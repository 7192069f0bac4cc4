#!/usr/bin/env python3
"""Extracts cipher_testvec templates of Linux crypto/testmgr.h into the text format of ../linux-testmgr/README.md.

Usage: python3 extract_testmgr.py path/to/testmgr.h TEMPLATE... (writes TEMPLATE.txt here)
Used for the serpent_* templates; the older aes_* and tf_* files came from the same format.
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = "Linux kernel crypto/testmgr.h (linux-source-6.12 6.12.117, Debian bookworm-security)"


def c_bytes(expr):
    """Concatenated C string literals with \\x escapes (or zeroed_string) -> bytes."""
    expr = expr.strip()
    if expr == "zeroed_string":
        return None
    out = bytearray()
    for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', expr):
        i = 0
        while i < len(lit):
            if lit[i] == "\\" and lit[i + 1] == "x":
                out.append(int(lit[i + 2:i + 4], 16))
                i += 4
            elif lit[i] == "\\":
                raise SystemExit("unsupported escape in " + lit)
            else:
                out.append(ord(lit[i]))
                i += 1
    return bytes(out)


def template(text, name):
    start = text.index(f"cipher_testvec {name}[] = {{")
    first_line = text.count("\n", 0, start) + 1
    end = text.index("\n};", start)
    body = text[text.index("{", start + len(name)) + 1:end]
    last_line = text.count("\n", 0, end) + 2
    recs, depth, cur, comments, rec_comments = [], 0, None, [], []
    i = 0
    while i < len(body):
        if body.startswith("/*", i):
            j = body.index("*/", i)
            (rec_comments if depth >= 1 else comments).append(" ".join(body[i + 2:j].split()))
            i = j + 2
            continue
        ch = body[i]
        if ch == '"':
            j = i + 1
            while body[j] != '"':
                j += 2 if body[j] == "\\" else 1
            if cur is not None:
                cur += body[i:j + 1]
            i = j + 1
            continue
        if ch == "{":
            depth += 1
            if depth == 1:
                cur, rec_comments, comments = "", comments, []
            i += 1
            continue
        if ch == "}":
            depth -= 1
            if depth == 0:
                recs.append((cur, rec_comments))
                cur = None
            i += 1
            continue
        if cur is not None:
            cur += ch
        i += 1
    return recs, first_line, last_line


def fields(rec):
    out = {}
    for m in re.finditer(r"\.(\w+)\s*=\s*(.*?)(?=,\s*\.\w+\s*=|,?\s*$)", rec, re.S):
        out[m.group(1)] = m.group(2).strip().rstrip(",")
    return out


def main():
    text = pathlib.Path(sys.argv[1]).read_text(encoding="latin-1")
    for name in sys.argv[2:]:
        recs, a, b = template(text, name)
        lines = [f"# Extracted from {SOURCE}",
                 f"# template: {name}  (testmgr.h lines {a}-{b})",
                 f"# records: {len(recs)}",
                 "# Format: see ../linux-testmgr/README.md. Hex is lowercase. Each record: encrypt(KEY, IV, PLAINTEXT) == CIPHERTEXT.",
                 ""]
        for n, (rec, comments) in enumerate(recs):
            f = fields(rec)
            length = int(f["len"])
            key = c_bytes(f["key"]) if "key" in f else b""
            key = bytes(int(f.get("klen", "0"))) if key is None else key
            klen = int(f.get("klen", "0"))
            lines.append(f"COUNT = {n}")
            for c in comments:
                lines.append(f"COMMENT = {c}")
            lines.append(f"KEYLEN = {klen}")
            if len(key) < klen:
                raise SystemExit(f"{name} {n}: key shorter than klen")
            lines.append(f"KEY = {key[:klen].hex()}")
            for iv in ("iv", "iv_out"):
                if iv in f:
                    v = c_bytes(f[iv])
                    lines.append(f"{iv.upper()} = {(v if v is not None else bytes(16))[:16].hex()}")
            lines.append(f"LEN = {length}")
            for fld, label in (("ptext", "PLAINTEXT"), ("ctext", "CIPHERTEXT")):
                v = c_bytes(f[fld])
                v = bytes(length) if v is None else v
                if len(v) < length:
                    raise SystemExit(f"{name} {n}: {fld} shorter than len")
                lines.append(f"{label} = {v[:length].hex()}")
            if "fips_skip" in f:
                lines.append("FIPS_SKIP = 1")
            other = set(f) - {"key", "klen", "iv", "iv_out", "ptext", "ctext", "len", "fips_skip"}
            if other:
                raise SystemExit(f"{name} {n}: unhandled fields {other}")
            lines.append("")
        (HERE / f"{name}.txt").write_text("\n".join(lines))
        print(name, len(recs))


main()
