#!/usr/bin/env python3
"""Rewrites a weft stage file with some fields changed and a valid checksum,
so that the reader's checks past the checksum are what the test exercises.

usage: patch-stage.py IN OUT [FIELD=VALUE ...] [--truncate-body N]
FIELD is a header field (dim hidden layers heads kv_heads vocab seq_len
arch name_len stage num_stages first_layer end_layer) or @OFFSET:i32|u32|u8
(a byte offset); --truncate-body N drops N bytes before the checksum."""
import struct
import sys

FNV_OFFSET, FNV_PRIME = 0xcbf29ce484222325, 0x100000001b3

args = sys.argv[1:]
src, dst, edits = args[0], args[1], args[2:]
data = bytearray(open(src, "rb").read())
body = data[:-8]
assert body[:8] == b"WEFTSTG1", "not a stage file"
name_len = struct.unpack_from("<I", body, 51)[0]
spec = 55 + name_len
fields = {"dim": (12, "i"), "hidden": (16, "i"), "layers": (20, "i"),
          "heads": (24, "i"), "kv_heads": (28, "i"), "vocab": (32, "i"),
          "seq_len": (36, "i"), "arch": (49, "B"), "name_len": (51, "I"),
          "stage": (spec, "i"), "num_stages": (spec + 4, "i"),
          "first_layer": (spec + 8, "i"), "end_layer": (spec + 12, "i")}
kinds = {"i32": "i", "u32": "I", "u8": "B"}
i = 0
while i < len(edits):
    edit = edits[i]
    if edit == "--truncate-body":
        body = body[:len(body) - int(edits[i + 1])]
        i += 2
        continue
    key, value = edit.split("=")
    if key.startswith("@"):
        offset, kind = key[1:].split(":")
        offset, fmt = int(offset), kinds[kind]
    else:
        offset, fmt = fields[key]
    struct.pack_into("<" + fmt, body, offset, int(value, 0))
    i += 1
h = FNV_OFFSET
for b in body:
    h = ((h ^ b) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
open(dst, "wb").write(bytes(body) + struct.pack("<Q", h))
