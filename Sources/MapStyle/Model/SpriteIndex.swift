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
    /// The columns that stretch when the image is fitted to text (`stretchX`): `[start, end]` pairs in image
    /// pixels, ascending, within `0...width`. Empty: the whole width stretches. Defaults to empty.
    public var stretchX: [[Double]] = []
    /// The rows that stretch when the image is fitted to text (`stretchY`), as ``stretchX``. Defaults to empty.
    public var stretchY: [[Double]] = []
    /// The part of the image text is fitted into (`content`): `[left, top, right, bottom]` in image pixels, or
    /// `nil` for none. Defaults to `nil`.
    public var content: [Double]? = nil
    /// How the fitted width may change (`textFitWidth`: `"stretchOrShrink"`, `"stretchOnly"` or
    /// `"proportional"`), or `nil` when not given. Defaults to `nil`.
    public var textFitWidth: String? = nil
    /// How the fitted height may change (`textFitHeight`), as ``textFitWidth``. Defaults to `nil`.
    public var textFitHeight: String? = nil

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
            var image = SpriteImage(
                x: values["x"]!, y: values["y"]!, width: values["width"]!, height: values["height"]!,
                pixelRatio: ratio > 0 ? ratio : 1, sdf: e["sdf"]?.boolValue ?? false)
            readStretchMetadata(e, name: name, into: &image)
            images[name] = image
        }
    }
}

extension SpriteIndex {
    /// Reads `stretchX`, `stretchY`, `content`, `textFitWidth` and `textFitHeight` of one entry (MapLibre's
    /// stretchable images); a malformed value is left out with a warning, and the image is kept.
    fileprivate mutating func readStretchMetadata(_ e: [String: JSONValue], name: String, into image: inout SpriteImage)
    {
        func zones(_ key: String, limit: Int) -> [[Double]] {
            guard let value = e[key] else { return [] }
            guard case .array(let items) = value else {
                diagnostics.append(
                    .init(.warning, path: "\(name).\(key)", "expected an array of [start, end] pairs; ignored"))
                return []
            }
            var result: [[Double]] = []
            for item in items {
                guard case .array(let pair) = item, pair.count == 2, let a = pair[0].numberValue,
                    let b = pair[1].numberValue, a.isFinite, b.isFinite, 0 <= a, a <= b, b <= Double(limit),
                    a >= (result.last?[1] ?? 0)
                else {
                    diagnostics.append(
                        .init(
                            .warning, path: "\(name).\(key)",
                            "expected ascending [start, end] pairs within 0...\(limit); ignored"))
                    return []
                }
                result.append([a, b])
            }
            return result
        }
        image.stretchX = zones("stretchX", limit: image.width)
        image.stretchY = zones("stretchY", limit: image.height)
        if let value = e["content"] {
            if case .array(let items) = value, items.count == 4,
                case let numbers = items.compactMap(\.numberValue), numbers.count == 4,
                numbers.allSatisfy(\.isFinite), numbers[0] <= numbers[2], numbers[1] <= numbers[3]
            {
                image.content = numbers
            } else {
                diagnostics.append(
                    .init(.warning, path: "\(name).content", "expected [left, top, right, bottom]; ignored"))
            }
        }
        for key in ["textFitWidth", "textFitHeight"] {
            guard let value = e[key] else { continue }
            guard case .string(let mode) = value, ["stretchOrShrink", "stretchOnly", "proportional"].contains(mode)
            else {
                diagnostics.append(
                    .init(
                        .warning, path: "\(name).\(key)",
                        "expected \"stretchOrShrink\", \"stretchOnly\" or \"proportional\"; ignored"))
                continue
            }
            if key == "textFitWidth" { image.textFitWidth = mode } else { image.textFitHeight = mode }
        }
    }
}
