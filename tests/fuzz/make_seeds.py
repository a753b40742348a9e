#!/usr/bin/env python3
"""tests/fuzz/make_seeds.py: writes the seed corpora of the fuzz targets.

The seeds are committed (corpus/<target>/); rerun this only to change them.
Each seed is a well-formed input in the target's format, written here from
the formats' documentation (lua/codec.cpp, core/transport/wire.cpp, core/coll/coll.cpp,
fuzz_unpack.cpp),
so the fuzzer starts from the shapes real peers send.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FR, MSG = b"@@FR@@", b"@@MSG@@"


def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


# ---- the Lua value codec ----
def enc(v):
    if v is None:
        return b"N"
    if v is True:
        return b"T"
    if v is False:
        return b"F"
    if isinstance(v, int):
        return b"I" + struct.pack("<q", v)
    if isinstance(v, float):
        return b"D" + struct.pack("<d", v)
    if isinstance(v, (str, bytes)):
        b = v.encode() if isinstance(v, str) else v
        return b"S" + varint(len(b)) + b
    if isinstance(v, list):
        if len(v) >= 2 and all(type(x) is int for x in v):
            return b"A" + varint(len(v)) + b"".join(struct.pack("<q", x) for x in v)
        if len(v) >= 2 and all(type(x) is float for x in v):
            return b"R" + varint(len(v)) + b"".join(struct.pack("<d", x) for x in v)
        return b"H" + varint(len(v)) + varint(0) + b"".join(enc(x) for x in v)
    if isinstance(v, dict):
        return b"H" + varint(0) + varint(len(v)) + b"".join(enc(k) + enc(x) for k, x in v.items())
    raise TypeError(v)


def enc_error(cls, func, message):
    return b"E" + varint(cls) + varint(len(func)) + func + varint(len(message)) + message


CODEC = {
    "nil": enc(None), "true": enc(True), "false": enc(False),
    "int": enc(42), "negint": enc(-2**63), "float": enc(3.5), "nan": enc(float("nan")),
    "string": enc("hello"), "binary": enc(b"\0\xff\x01"), "empty_string": enc(""),
    "ints": enc([1, 2, 3, 4]), "floats": enc([0.5, 1.5, -2.0]),
    "mixed_seq": enc([1, "two", 3.0, True, None]),
    "record": enc({"x": 1, "name": "a b", 7: [1, 2], 2.5: False}),
    "nested": enc({"a": {"b": {"c": [[1, 2], [3.0, 4.0]]}}}),
    "tagged_block": enc([7, [1, 2, 3]]),
    "error": enc_error(17, b"MPI_Allreduce", b"rank 2: attempt to add a string"),
    "long_string": enc("x" * 300),
}

# ---- the data-plane envelope and collective payloads ----
def header(kind=0, ack=0, source=0, tag=0, epoch=0, context=4, seq=0):
    return struct.pack("<HBBiiIQQ", 0x4C4D, kind, ack, source, tag, epoch, context, seq)


def pack(parts):
    return varint(len(parts)) + b"".join(varint(len(p)) + p for p in parts)


WIRE = {
    "data": header(source=1, tag=5, context=4, seq=9),
    "ssend": header(ack=1, source=2, tag=0, context=4 * 7 + 1, seq=3, epoch=12),
    "ack": header(kind=1, source=1, seq=3),
    # flag bit 1: a --check type signature follows the Lamport clock (kind, unit, repeats, text)
    "signed": header(ack=2, source=1, tag=5, context=4, seq=9) + struct.pack("<Q", 0)
    + struct.pack("<BQq", 4, 0xFEED, 2) + b"MPI_Send of 2 x MPI_INT",
    "packed_empty": pack([]),
    "packed_blocks": pack([enc(1), enc("two"), b""]),
    "partials": pack([b"D" + enc([1, 2]), b"E" + pack([b"17", b"MPI_Reduce", b"bad operand"])]),
}


def msg(*frames):
    return FR.join(frames)


ENGINE = {
    "one": msg(header(source=1, tag=5, seq=1), enc("hi")),
    "ordered": MSG.join([msg(header(source=1, tag=5, seq=i), enc(i)) for i in range(1, 4)]),
    "two_sources": MSG.join([msg(header(source=1, tag=1, seq=1), enc(1)),
                             msg(header(source=2, tag=1, seq=1), enc(2))]),
    "ssend_and_ack": MSG.join([msg(header(ack=1, source=2, tag=3, seq=8), enc("s")),
                               msg(header(kind=1, source=1, seq=4), b"")]),
    "self": msg(header(ack=1, source=0, tag=2, seq=5), enc([1, 2])),
    "malformed": MSG.join([header(source=1), msg(header(source=9), b"x"),
                           msg(b"short", b"x"), msg(header(source=1, tag=4), b"a", b"b"),
                           msg(header(source=1, tag=4, seq=2), enc(True))]),
    "coll_lane": msg(header(source=2, tag=-7, context=4 * 3 + 1, epoch=2), pack([enc(1)])),
}


# ---- a received message into a derived datatype (fuzz_unpack.cpp's format:
# constructor byte, its arguments, nested types, then count, then the bytes)
INT, DOUBLE = bytes([0, 6]), bytes([0, 13])
UNPACK = {
    "int_x3": INT + bytes([3]) + bytes(range(12)),
    "int_truncated": INT + bytes([1]) + bytes(8),
    "int_short": INT + bytes([3]) + bytes(5),
    "vector_2_1_2": bytes([2, 2, 1, 16]) + INT + bytes([2]) + bytes(range(16)),
    "indexed_double": bytes([4, 2, 1, 0, 2, 24]) + DOUBLE + bytes([2]) + bytes(range(48)),
    "struct_int_double": bytes([7, 1, 1, 0]) + INT + bytes([1, 64]) + DOUBLE + bytes([2]) + bytes(range(24)),
    "subarray_4x4": bytes([8, 1, 4, 2, 1, 4, 2, 1, 0]) + INT + bytes([1]) + bytes(range(16)),
    "resized_int_8": bytes([9, 0, 64]) + INT + bytes([3]) + bytes(range(12)),
    "negative_stride": bytes([3, 3, 1, 0xE0]) + DOUBLE + bytes([1]) + bytes(range(24)),
}


def write(target, seeds):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    write("fuzz_codec", CODEC)
    write("fuzz_wire", WIRE)
    write("fuzz_engine", ENGINE)
    write("fuzz_unpack", UNPACK)
    print("seeds written under", os.path.join(HERE, "corpus"))
