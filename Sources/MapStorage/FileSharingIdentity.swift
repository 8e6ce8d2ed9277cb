import Foundation

/// The ``MapData/TileSource/sharingIdentity`` of a tileset file: its kind, absolute path, size and modification time
/// (so a file rewritten in place is new data); `nil` when the path is not a readable local file.
func fileSharingIdentity(kind: String, path: String) -> String? {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: absolute),
        let size = attributes[.size] as? NSNumber, let modified = attributes[.modificationDate] as? Date
    else { return nil }
    return "\(kind):\(absolute):\(size.int64Value):\(modified.timeIntervalSince1970)"
}
