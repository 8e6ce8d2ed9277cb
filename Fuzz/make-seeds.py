#!/usr/bin/env python3
"""Writes the hand-crafted libFuzzer seeds in Fuzz/corpus/mvt/ (small MVT 2.1 tiles). Run from the repo root."""
import os
import struct


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def ld(field, payload):
    return key(field, 2) + varint(len(payload)) + payload


def vint(field, n):
    return key(field, 0) + varint(n)


def zz(n):
    return (n << 1) ^ (n >> 63) if n < 0 else n << 1


def packed(field, ints):
    return ld(field, b"".join(varint(i) for i in ints))


def cmd(cid, count):
    return cid | count << 3


def feature(fid, gtype, geometry, tags=()):
    out = vint(1, fid) if fid is not None else b""
    if tags:
        out += packed(2, tags)
    return out + vint(3, gtype) + packed(4, geometry)


def value(kind, v):
    if kind == "string":
        return ld(1, v.encode())
    if kind == "float":
        return key(2, 5) + struct.pack("<f", v)
    if kind == "double":
        return key(3, 1) + struct.pack("<d", v)
    if kind == "int":
        return vint(4, v & 0xFFFFFFFFFFFFFFFF)
    if kind == "uint":
        return vint(5, v)
    if kind == "sint":
        return vint(6, zz(v))
    return vint(7, 1 if v else 0)


def layer(name, features, keys=(), values=(), extent=4096, version=2):
    out = vint(15, version) + ld(1, name.encode())
    for f in features:
        out += ld(2, f)
    for k in keys:
        out += ld(3, k.encode())
    for v in values:
        out += ld(4, value(*v))
    return out + vint(5, extent)


def tile(*layers):
    return b"".join(ld(3, l) for l in layers)


def square(x, y, w, clockwise=True):
    pts = [(x, y), (x + w, y), (x + w, y + w), (x, y + w)] if clockwise else [(x, y), (x, y + w), (x + w, y + w), (x + w, y)]
    return pts


def ring_commands(pts, cursor):
    out = []
    cx, cy = cursor
    x, y = pts[0]
    out += [cmd(1, 1), zz(x - cx), zz(y - cy)]
    cx, cy = x, y
    out.append(cmd(2, len(pts) - 1))
    for x, y in pts[1:]:
        out += [zz(x - cx), zz(y - cy)]
        cx, cy = x, y
    out.append(cmd(7, 1))
    return out, (cx, cy)


def polygon(rings):
    out, cursor = [], (0, 0)
    for r in rings:
        c, cursor = ring_commands(r, cursor)
        out += c
    return out


seeds = {
    "point.mvt": tile(layer("poi", [feature(1, 1, [cmd(1, 1), zz(25), zz(17)], [0, 0])], ["name"], [("string", "Kauppatori")])),
    "multipoint.mvt": tile(layer("p", [feature(7, 1, [cmd(1, 3), zz(5), zz(7), zz(3), zz(2), zz(-1), zz(-4)])])),
    "lines.mvt": tile(layer("road", [feature(None, 2, [cmd(1, 1), zz(2), zz(2), cmd(2, 2), zz(0), zz(8), zz(8), zz(0),
                                                      cmd(1, 1), zz(-100), zz(4000), cmd(2, 1), zz(4300), zz(100)])])),
    "polygon-hole.mvt": tile(layer("water", [feature(3, 3, polygon([square(0, 0, 100), square(20, 20, 10, clockwise=False),
                                                                   square(200, 200, 50)]))], extent=512)),
    "clipped.mvt": tile(layer("land", [feature(4, 3, polygon([square(-128, -128, 4096 + 256)]))])),
    "values.mvt": tile(layer("v", [feature(9, 1, [cmd(1, 1), 2, 2], list(range(14)))],
                             ["s", "f", "d", "i", "u", "z", "b"],
                             [("string", "x"), ("float", 3.5), ("double", -1.25), ("int", -5), ("uint", 2 ** 63),
                              ("sint", -87948), ("bool", True)])),
    "two-layers.mvt": tile(layer("a", [feature(1, 1, [cmd(1, 1), 2, 2])], version=1),
                           layer("b", [feature(2, 0, [cmd(1, 1), 4, 4])])),
}
os.makedirs("Fuzz/corpus/mvt", exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join("Fuzz/corpus/mvt", name), "wb") as f:
        f.write(data)
