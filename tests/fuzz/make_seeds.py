#!/usr/bin/env python3
"""tests/fuzz/make_seeds.py: writes the seed corpora of the fuzz targets.

The seeds are committed (corpus/<target>/); rerun this only to change them.
Each seed is a well-formed input in the target's format, written here from
the formats' documentation (lua/codec.cpp, core/transport/wire.cpp, core/coll/coll.cpp,
fuzz_unpack.cpp, datatype_model.hpp),
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


# ---- random datatype constructors (fuzz_datatype.cpp; the format is
# tests/fuzz/datatype_model.hpp's decode: a constructor byte, its arguments,
# its old type(s); then the count, the buffer's seed, a partial length)
def leaf(i):  # index in the model's kBasics, then kPairs
    return bytes([0, i])


CHAR, INT_, LONG, FLOAT, DOUBLE_, LDOUBLE, CFC, CLDC = 0, 3, 4, 6, 7, 8, 12, 14
DOUBLE_INT, LONG_DOUBLE_INT, TWO_INT = 16, 20, 18


def d(v):  # a displacement in elements (Reader::disp)
    return (v * 8) & 0xFF


def h(v):  # a displacement in bytes (Reader::hdisp)
    return (v * 4) & 0xFF


def tail(count, seed=0x10, part=7):
    return bytes([count, seed, part])


def lists(*blocks):  # indexed, hindexed, struct: (blocklength, disp, hdisp) each
    return bytes([len(blocks)]) + b"".join(bytes([b, d(x), h(y)]) for b, x, y in blocks) + b"\0"


DATATYPE = {
    "int_x3": leaf(INT_) + tail(3),
    "long_double_int": leaf(LONG_DOUBLE_INT) + tail(2),
    "long_double_complex": leaf(CLDC) + tail(1, 0x21),
    "longs_fit": bytes([1, 3]) + leaf(LONG) + tail(2, 0x20),
    "longs_too_big": bytes([1, 3]) + leaf(LONG) + tail(2, 0x21),
    "vector_negative_stride": bytes([2, 3, 2, d(-3), 0]) + leaf(DOUBLE_) + tail(2),
    "hvector_holes": bytes([3, 2, 1, 0, h(20)]) + leaf(FLOAT) + tail(3),
    "indexed_zero_block": bytes([4]) + lists((2, 4, 0), (0, 0, 0), (1, -2, 0)) + leaf(FLOAT) + tail(2),
    "hindexed_negative": bytes([5]) + lists((1, 0, 12), (2, 0, -8)) + leaf(INT_) + tail(2),
    "indexed_block": bytes([6, 2, 3, d(3), 0, d(-1), 0, d(0), 0]) + leaf(DOUBLE_INT) + tail(1),
    "hindexed_block": bytes([7, 2, 2, 0, h(-16), 0, h(8)]) + leaf(CFC) + tail(2),
    "struct_mixed": bytes([8]) + lists((1, 0, 0), (2, 0, 8), (1, 0, -4)) + b"\0"
    + leaf(CHAR) + leaf(DOUBLE_) + leaf(TWO_INT) + tail(2),
    "subarray_c": bytes([9, 2, 3, 2, 1, 3, 2, 1, 0, 0]) + leaf(INT_) + tail(2),
    "subarray_fortran": bytes([9, 3, 2, 2, 1, 1, 1, 0, 2, 1, 1, 0, 1]) + leaf(CHAR) + tail(1),
    "darray_block_cyclic": bytes([10, 2, 3, 1, 1, 4, 11, 0, 0, 1]) + leaf(DOUBLE_) + tail(1),
    "darray_fortran": bytes([10, 2, 4, 2, 1, 2, 1, 1, 0, 0x13]) + leaf(INT_) + tail(1),
    "resized_moved": bytes([11, h(-8), h(24)]) + leaf(DOUBLE_INT) + tail(3),
    "resized_negative_extent": bytes([11, h(4), h(-12)]) + leaf(INT_) + tail(3),
    "nested": bytes([1, 2, 11, 0, h(12), 2, 2, 1, d(2), 0]) + leaf(FLOAT) + tail(2),
    "dup_of_struct": bytes([12, 8]) + lists((1, 0, 2), (1, 0, 0)) + b"\0" + leaf(CHAR) + leaf(LDOUBLE) + tail(2),
    "contiguous_zero": bytes([2, 3, 1, d(2), 0, 1, 0]) + leaf(INT_) + tail(2),
    "bad_count": bytes([2, 0xFF, 1, d(1), 0]) + leaf(INT_) + tail(1),
    "bad_subarray_start": bytes([9, 1, 2, 1, 3, 0, 0]) + leaf(INT_) + tail(1),
    "bad_darray_grid": bytes([10, 1, 3, 1, 1, 0xDD, 0]) + leaf(INT_) + tail(1),
    "null_oldtype": bytes([1, 2]) + bytes([0, 0xFE]) + tail(1),
    "freed_oldtype": bytes([1, 2, 0xF0, 1, 1, 0, 0]) + leaf(INT_) + tail(1),
    "huge_hvector": bytes([3, 3, 1, 0, 0x7F]) + leaf(INT_) + tail(1),
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
    write("fuzz_datatype", DATATYPE)
    print("seeds written under", os.path.join(HERE, "corpus"))
