/// One image in a sprite sheet: its rectangle in the sheet and how to draw it (style spec "Sprite → Index file").
public struct SpriteImage: Sendable, Equatable {
    /// Left edge in the sheet, in sheet pixels (≥ 0).
    public var x: Int
    /// Top edge in the sheet, in sheet pixels (≥ 0).
    public var y: Int
    /// Width in sheet pixels (> 0).
    public var width: Int
    /// Height in sheet pixels (> 0).
    public var height: Int
    /// Sheet pixels per screen point (1 for `sprite.png`, 2 for `sprite@2x.png`). Defaults to 1.
    public var pixelRatio: Double
    /// Whether the image is a signed-distance field recoloured by `icon-color`. Defaults to `false`.
    public var sdf: Bool

    /// Creates an entry.
    /// - Parameters:
    ///   - x: left edge in sheet pixels.
    ///   - y: top edge in sheet pixels.
    ///   - width: width in sheet pixels.
    ///   - height: height in sheet pixels.
    ///   - pixelRatio: sheet pixels per point. Defaults to 1.
    ///   - sdf: whether it is a signed-distance field. Defaults to `false`.
    public init(x: Int, y: Int, width: Int, height: Int, pixelRatio: Double = 1, sdf: Bool = false) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.pixelRatio = pixelRatio
        self.sdf = sdf
    }
}

/// A sprite index (`sprite.json`): image names to their rectangles in the sprite sheet.
public struct SpriteIndex: Sendable {
    /// The images by name.
    public var images: [String: SpriteImage]
    /// Entries that were skipped, with the JSON path (`images.name.width`) of each problem.
    public var diagnostics: [StyleDiagnostic]

    /// Parses a sprite index; malformed entries are skipped with a diagnostic.
    /// - Parameter json: the parsed `sprite.json`.
    public init(json: JSONValue) {
        images = [:]
        diagnostics = []
        guard case .object(let entries) = json else {
            diagnostics.append(.init(.error, path: "", "a sprite index must be an object, found \(json.typeName)"))
            return
        }
        for name in entries.keys.sorted() {
            guard case .object(let e) = entries[name]! else {
                diagnostics.append(.init(.error, path: name, "expected object; image skipped"))
                continue
            }
            var values: [String: Int] = [:]
            var ok = true
            for key in ["x", "y", "width", "height"] {
                guard let n = e[key]?.numberValue, n >= 0, n == n.rounded(), n < 1e6,
                    key == "x" || key == "y" || n > 0
                else {
                    diagnostics.append(
                        .init(.error, path: "\(name).\(key)", "expected a non-negative integer; image skipped"))
                    ok = false
                    break
                }
                values[key] = Int(n)
            }
            guard ok else { continue }
            let ratio = e["pixelRatio"]?.numberValue ?? 1
            images[name] = SpriteImage(
                x: values["x"]!, y: values["y"]!, width: values["width"]!, height: values["height"]!,
                pixelRatio: ratio > 0 ? ratio : 1, sdf: e["sdf"]?.boolValue ?? false)
        }
    }
}
