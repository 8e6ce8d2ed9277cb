import GoogleMaps

/// Google's cluster icons (google-maps-ios-utils' `GMUDefaultClusterIconGenerator`): sizes are put in buckets so
/// that few distinct icons exist. A cluster smaller than the first bucket shows its size ("7"); a larger one shows
/// the largest bucket it reaches ("100+" for 100…199 with the default buckets).
///
/// Default buckets 10, 50, 100, 200 and 1000 (the iOS library's; android-maps-utils uses 10, 20, 50, 100, 200, 500
/// and 1000, available through ``init(buckets:backgroundColors:)``), drawn as circles in #0099cc, #669900,
/// #ff8800, #cc0000 and #9933cc (buckets beyond the colours reuse the last one), 26 points across for small sizes
/// and 3 points wider per bucket, the label white and bold (14 pt). With background images, the label (bold 12 pt,
/// white) is centred on the bucket's image. Icons are cached by label.
///
/// Open, as the Objective-C class is: a subclass may override ``icon(forSize:)`` (or ``iconForSize(_:)``) and call
/// any of the initializers with `super.init`.
/// - Thread rules: main thread (main actor).
@preconcurrency @MainActor open class GMUDefaultClusterIconGenerator: GMUClusterIconGenerator {
    /// The buckets and what each is drawn on (set once by the initializer).
    private struct Appearance {
        var buckets: [Int]
        var images: [UIImage]?
        var colors: [UIColor]

        /// Checks `buckets` (and that there is an image or colour for each when given).
        init(_ buckets: [Int], images: [UIImage]? = nil, colors: [UIColor]? = nil) {
            if let images {
                precondition(
                    buckets.count == images.count,
                    "GMUDefaultClusterIconGenerator: \(buckets.count) buckets but \(images.count) background images")
            }
            if let colors {
                precondition(
                    buckets.count == colors.count,
                    "GMUDefaultClusterIconGenerator: \(buckets.count) buckets but \(colors.count) background colours")
            }
            self.buckets = GMUDefaultClusterIconGenerator.validated(buckets)
            self.images = images
            self.colors = colors ?? GMUDefaultClusterIconGenerator.defaultColors
        }
    }

    private let appearance: Appearance
    private var buckets: [Int] { appearance.buckets }
    private var backgroundImages: [UIImage]? { appearance.images }
    private var backgroundColors: [UIColor] { appearance.colors }
    private var cache: [String: UIImage] = [:]

    private nonisolated static let defaultColors: [UIColor] = [0x0099cc, 0x669900, 0xff8800, 0xcc0000, 0x9933cc].map(
        color(hex:))

    private nonisolated static func color(hex: Int) -> UIColor {
        let r = CGFloat((hex >> 16) & 0xff) / 255
        let g = CGFloat((hex >> 8) & 0xff) / 255
        let b = CGFloat(hex & 0xff) / 255
        return UIColor(red: r, green: g, blue: b, alpha: 1)
    }

    /// The default buckets and colours.
    public init() {
        appearance = Appearance([10, 50, 100, 200, 1000])
    }

    /// `buckets` (positive, strictly increasing) with the default colours.
    /// - Precondition: `buckets` is non-empty, positive and strictly increasing (Google raises an exception).
    public init(buckets: [Int]) {
        appearance = Appearance(buckets)
    }

    /// `buckets` drawn on `backgroundImages`, one image per bucket.
    /// - Precondition: valid buckets (see ``init(buckets:)``) and as many images as buckets.
    public init(buckets: [Int], backgroundImages: [UIImage]) {
        appearance = Appearance(buckets, images: backgroundImages)
    }

    /// `buckets` drawn as circles of `backgroundColors`, one colour per bucket.
    /// - Precondition: valid buckets (see ``init(buckets:)``) and as many colours as buckets.
    public init(buckets: [Int], backgroundColors: [UIColor]) {
        appearance = Appearance(buckets, colors: backgroundColors)
    }

    /// ``init(buckets:)`` with the buckets as `NSNumber`s, as the Objective-C library's `initWithBuckets:` is seen from
    /// Swift (code written for versions before 6 passes `[NSNumber]`). Each number's `intValue` is used.
    public init(buckets: [NSNumber]) {
        appearance = Appearance(buckets.map(\.intValue))
    }

    /// ``init(buckets:backgroundImages:)`` with `NSNumber` buckets, as the Objective-C library takes them.
    public init(buckets: [NSNumber], backgroundImages: [UIImage]) {
        appearance = Appearance(buckets.map(\.intValue), images: backgroundImages)
    }

    /// ``init(buckets:backgroundColors:)`` with `NSNumber` buckets, as the Objective-C library takes them.
    public init(buckets: [NSNumber], backgroundColors: [UIColor]) {
        appearance = Appearance(buckets.map(\.intValue), colors: backgroundColors)
    }

    private nonisolated static func validated(_ buckets: [Int]) -> [Int] {
        precondition(!buckets.isEmpty, "GMUDefaultClusterIconGenerator: buckets must not be empty")
        precondition(
            buckets.allSatisfy { $0 > 0 }, "GMUDefaultClusterIconGenerator: buckets must be positive: \(buckets)")
        precondition(
            zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 },
            "GMUDefaultClusterIconGenerator: buckets must be strictly increasing: \(buckets)")
        return buckets
    }

    /// The label of a cluster of `size` items: the size below the first bucket, else "N+" for the largest bucket N
    /// at most `size` (Waymark's own accessor).
    public func label(forSize size: Int) -> String {
        size < buckets[0] ? "\(size)" : "\(buckets[bucketIndex(for: size)])+"
    }

    /// The index of the largest bucket at most `size` (0 below the first bucket).
    private func bucketIndex(for size: Int) -> Int {
        var index = 0
        while index + 1 < buckets.count && buckets[index + 1] <= size { index += 1 }
        return index
    }

    /// The icon of a cluster of `size` items (cached per label), as the Objective-C library's `iconForSize:`.
    open func icon(forSize size: UInt) -> UIImage {
        let size = Int(clamping: size)
        let text = label(forSize: size)
        let index = bucketIndex(for: size)
        let key = "\(index)|\(text)"
        if let cached = cache[key] { return cached }
        let image: UIImage
        if let backgroundImages {
            image = drawLabel(text, on: backgroundImages[index])
        } else {
            image = drawCircle(text, color: backgroundColors[min(index, backgroundColors.count - 1)], bucket: index)
        }
        cache[key] = image
        return image
    }

    /// ``icon(forSize:)`` under version 6's name (what the renderer calls); sizes below 0 as 0. A subclass overriding
    /// ``icon(forSize:)`` is drawn through this too.
    open func iconForSize(_ size: Int) -> UIImage? { icon(forSize: UInt(max(0, size))) }

    private func attributes(size: CGFloat) -> [NSAttributedString.Key: Any] {
        [.font: UIFont.boldSystemFont(ofSize: size), .foregroundColor: UIColor.white]
    }

    private func drawCircle(_ text: String, color: UIColor, bucket: Int) -> UIImage {
        let attrs = attributes(size: 14)
        let textSize = text.size(withAttributes: attrs)
        let side = max(20, max(textSize.width, textSize.height)) + CGFloat(3 * bucket + 6)
        let rect = CGRect(x: 0, y: 0, width: side, height: side)
        return UIGraphicsImageRenderer(size: rect.size).image { context in
            context.cgContext.setFillColor(color.cgColor)
            context.cgContext.fillEllipse(in: rect)
            text.draw(in: Self.centred(textSize, in: rect), withAttributes: attrs)
        }
    }

    private func drawLabel(_ text: String, on image: UIImage) -> UIImage {
        let attrs = attributes(size: 12)
        let textSize = text.size(withAttributes: attrs)
        let rect = CGRect(origin: .zero, size: image.size)
        return UIGraphicsImageRenderer(size: rect.size).image { _ in
            image.draw(in: rect)
            text.draw(in: Self.centred(textSize, in: rect), withAttributes: attrs)
        }
    }

    private static func centred(_ size: CGSize, in rect: CGRect) -> CGRect {
        CGRect(
            x: ((rect.width - size.width) / 2).rounded(.down), y: ((rect.height - size.height) / 2).rounded(.down),
            width: size.width.rounded(.up), height: size.height.rounded(.up))
    }
}
