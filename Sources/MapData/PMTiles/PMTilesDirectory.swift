/// The hard limits a PMTiles reader enforces, so that a hostile or corrupt archive (over HTTP in particular) gives an
/// error instead of a hang or an unbounded allocation. Waymark's own; the defaults fit planet-scale archives.
public struct PMTilesLimits: Sendable, Equatable {
    /// The largest directory (root or leaf) read, as stored, in bytes. Default 16 MiB.
    public var maxDirectoryBytes: Int = 16 << 20
    /// The largest directory after decompression, in bytes. Default 64 MiB.
    public var maxInflatedDirectoryBytes: Int = 64 << 20
    /// The most entries one directory may hold. Default 2,097,152 (each decoded entry takes 24 bytes).
    public var maxEntries: Int = 1 << 21
    /// How many levels of leaf directories below the root are followed (the spec's writers use one). Default 4.
    public var maxLeafDepth: Int = 4
    /// The largest metadata JSON read, as stored and inflated, in bytes. Default 16 MiB.
    public var maxMetadataBytes: Int = 16 << 20
    /// The largest tile read, as stored and inflated, in bytes. Default 64 MiB.
    public var maxTileBytes: Int = 64 << 20

    /// The defaults above.
    public init() {}
}

/// One directory entry (spec "Directories"): a run of tiles, or (run length 0) a pointer to a leaf directory.
public struct PMTilesEntry: Sendable, Equatable {
    /// The first tile id the entry covers.
    public var tileID: UInt64
    /// Offset of the payload: into the tile data section for tiles, into the leaf section for leaves.
    public var offset: UInt64
    /// The payload's length in bytes, `> 0`.
    public var length: UInt32
    /// How many consecutive tile ids share the payload (≥ 1); 0 marks a leaf directory pointer.
    public var runLength: UInt32

    /// Creates an entry.
    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.length = length
        self.runLength = runLength
    }

    /// Whether this entry points at a leaf directory.
    public var isLeaf: Bool { runLength == 0 }
}

/// Encoding, decoding and searching of PMTiles v3 directories (spec "Directories"), uncompressed form: a varint
/// entry count, then the column of tile-id deltas, the column of run lengths, of lengths, and of offsets (`offset + 1`,
/// or 0 meaning "right after the previous entry's payload").
public enum PMTilesDirectory {
    /// Decodes an uncompressed directory.
    /// - Parameters:
    ///   - bytes: the directory after internal decompression.
    ///   - archive: the archive's name for errors.
    ///   - limits: the entry limit (``PMTilesLimits/maxEntries``).
    /// - Returns: the entries, with strictly increasing tile ids.
    /// - Throws: ``PMTilesError`` `.badDirectory` (varint longer than 10 bytes or beyond 64 bits, truncated columns,
    ///   an entry count larger than the bytes can hold, tile ids not increasing or overflowing, a zero length, a
    ///   first offset of 0, run lengths or lengths beyond 32 bits, offsets overflowing) or `.limitExceeded`.
    /// Never allocates more than the entry count the input's size allows (each entry takes at least 4 bytes).
    public static func decode(_ bytes: [UInt8], archive: String, limits: PMTilesLimits = PMTilesLimits()) throws
        -> [PMTilesEntry]
    {
        var index = 0
        func fail(_ detail: String) -> PMTilesError {
            PMTilesError(archive: archive, reason: .badDirectory, detail: detail)
        }
        func varint() throws -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard index < bytes.count else { throw fail("truncated at byte \(index) of \(bytes.count)") }
                let byte = bytes[index]
                index += 1
                if shift == 63 && byte > 1 { throw fail("varint overflows 64 bits at byte \(index - 1)") }
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
                if shift > 63 { throw fail("varint longer than 10 bytes at byte \(index - 1)") }
            }
        }
        let rawCount = try varint()
        guard rawCount <= UInt64(limits.maxEntries) else {
            throw PMTilesError(
                archive: archive, reason: .limitExceeded,
                detail: "directory with \(rawCount) entries (limit \(limits.maxEntries))")
        }
        let count = Int(rawCount)
        guard count <= (bytes.count - index) / 4 else {
            throw fail("\(count) entries cannot fit in \(bytes.count - index) bytes")
        }
        var entries = [PMTilesEntry](
            repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var lastID: UInt64 = 0
        for i in 0..<count {
            let delta = try varint()
            guard i == 0 || delta > 0 else { throw fail("entry \(i): tile ids not strictly increasing") }
            let (id, overflow) = lastID.addingReportingOverflow(delta)
            guard !overflow else { throw fail("entry \(i): tile id overflows") }
            entries[i].tileID = id
            lastID = id
        }
        for i in 0..<count {
            let run = try varint()
            guard run <= UInt64(UInt32.max) else { throw fail("entry \(i): run length \(run) beyond 32 bits") }
            entries[i].runLength = UInt32(run)
        }
        for i in 0..<count {
            let length = try varint()
            guard length > 0, length <= UInt64(UInt32.max) else {
                throw fail("entry \(i): length \(length) outside 1...\(UInt32.max)")
            }
            entries[i].length = UInt32(length)
        }
        for i in 0..<count {
            let value = try varint()
            if value == 0 {
                guard i > 0 else { throw fail("entry 0: offset 0 (\"after the previous entry\") has no previous") }
                let (next, overflow) = entries[i - 1].offset.addingReportingOverflow(UInt64(entries[i - 1].length))
                guard !overflow else { throw fail("entry \(i): offset overflows") }
                entries[i].offset = next
            } else {
                entries[i].offset = value - 1
            }
            guard entries[i].offset <= UInt64(Int64.max) else { throw fail("entry \(i): offset beyond 63 bits") }
        }
        return entries
    }

    /// Encodes entries (sorted by tile id) into the uncompressed directory form; an offset equal to the end of the
    /// previous entry's payload is written as 0.
    public static func encode(_ entries: [PMTilesEntry]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 6 + 4)
        func varint(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                out.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
        }
        varint(UInt64(entries.count))
        var lastID: UInt64 = 0
        for e in entries {
            varint(e.tileID - lastID)
            lastID = e.tileID
        }
        for e in entries { varint(UInt64(e.runLength)) }
        for e in entries { varint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            if i > 0 && e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
                varint(0)
            } else {
                varint(e.offset + 1)
            }
        }
        return out
    }

    /// The entry that covers `tileID` (spec "Searching"): an entry with that id, or the last entry before it when that
    /// entry is a leaf pointer or its run reaches `tileID`; `nil` otherwise.
    /// - Parameters:
    ///   - tileID: the Hilbert tile id to look up (``PMTilesTileID/id(of:)``).
    ///   - entries: sorted by strictly increasing tile id (as ``decode(_:archive:limits:)`` returns them).
    /// - Returns: the covering entry (a leaf pointer when ``PMTilesEntry/isLeaf``: search that leaf directory
    ///   next), or `nil` when no entry covers `tileID`.
    public static func find(_ tileID: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var low = 0
        var high = entries.count - 1
        while low <= high {
            let mid = (low + high) >> 1
            let id = entries[mid].tileID
            if id < tileID {
                low = mid + 1
            } else if id > tileID {
                high = mid - 1
            } else {
                return entries[mid]
            }
        }
        guard high >= 0 else { return nil }
        let candidate = entries[high]
        if candidate.runLength == 0 || tileID - candidate.tileID < UInt64(candidate.runLength) { return candidate }
        return nil
    }
}
