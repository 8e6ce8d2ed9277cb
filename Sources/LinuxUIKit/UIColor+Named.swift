import Foundation

// `UIColor(named:)` over Xcode asset catalogs copied beside the app: a colour set is a folder `NAME.colorset` holding
// `Contents.json` (Xcode's format), found in the directories `UIImage(named:)` searches, or in an `.xcassets` folder
// (or a group folder inside it) there. A dark-appearance entry makes the colour dynamic, as on iOS.

extension UIColor {
    /// The colour set `name` of an asset catalog, as UIKit's `init?(named:)`; nil when no colour set has that name or
    /// its `Contents.json` cannot be read (as on iOS, silently).
    ///
    /// Searched in ``UIImage``'s search directories (``UIImage/registerSearchDirectory(_:)``, the main bundle's
    /// resources, the working directory): `name.colorset` there, or inside an `.xcassets` folder there (group folders
    /// two levels deep). Components may be written as Xcode writes them: `"0.250"`, `"0x40"` or `"64"`. An entry with
    /// a `luminosity: dark` appearance is used in dark mode (``UITraitCollection/userInterfaceStyle``). A colour set
    /// found is read once and cached by name, as named images are.
    /// - Thread rules: any thread.
    public convenience init?(named name: String) {
        guard !name.isEmpty, !name.contains("/"), let (light, dark) = Self.colorSet(named: name) else { return nil }
        if let dark {
            self.init(dynamicProvider: { $0.userInterfaceStyle == .dark ? dark : light })
        } else {
            self.init(cgColor: light.cgColor)
        }
    }

    /// The colour sets found so far, by name (emptied with the search directories, as ``UIImage``'s named images).
    static let namedCache = LockedBox<[String: (UIColor, UIColor?)]>([:])

    /// The colour set `name`, read once (misses are not cached).
    private static func colorSet(named name: String) -> (UIColor, UIColor?)? {
        if let known = namedCache.withLock({ $0[name] }) { return known }
        guard let file = colorSetFile(named: name), let colors = readColorSet(file) else { return nil }
        namedCache.withLock { $0[name] = colors }
        return colors
    }

    /// The `Contents.json` of the colour set `name`, or nil.
    private static func colorSetFile(named name: String) -> String? {
        let fm = FileManager.default
        let folder = name + ".colorset"
        func find(in dir: String, depth: Int) -> String? {
            let direct = (dir as NSString).appendingPathComponent(folder + "/Contents.json")
            if fm.fileExists(atPath: direct) { return direct }
            guard depth > 0, let entries = try? fm.contentsOfDirectory(atPath: dir) else { return nil }
            for entry in entries.sorted() where !entry.contains(".") || entry.hasSuffix(".xcassets") {
                let sub = (dir as NSString).appendingPathComponent(entry)
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: sub, isDirectory: &isDir), isDir.boolValue else { continue }
                if let found = find(in: sub, depth: depth - 1) { return found }
            }
            return nil
        }
        for dir in UIImage.searchDirectories {
            if let found = find(in: dir, depth: 0) { return found }
            guard let entries = try? fm.contentsOfDirectory(atPath: dir) else { continue }
            for catalog in entries.sorted() where catalog.hasSuffix(".xcassets") {
                if let found = find(in: (dir as NSString).appendingPathComponent(catalog), depth: 2) { return found }
            }
        }
        return nil
    }

    /// The any-appearance colour and the dark one (if any) of a colour set's `Contents.json`.
    private static func readColorSet(_ path: String) -> (UIColor, UIColor?)? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20,
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = root["colors"] as? [[String: Any]]
        else { return nil }
        var light: UIColor?
        var dark: UIColor?
        for entry in entries {
            guard let color = entry["color"] as? [String: Any], let parsed = parse(color) else { continue }
            let appearances = entry["appearances"] as? [[String: Any]] ?? []
            let isDark = appearances.contains {
                ($0["appearance"] as? String) == "luminosity" && ($0["value"] as? String) == "dark"
            }
            if isDark {
                dark = dark ?? parsed
            } else if appearances.isEmpty {
                light = light ?? parsed
            }
        }
        guard let light = light ?? dark else { return nil }
        return (light, dark)
    }

    /// A colour of Xcode's `color` object: `components` red, green, blue, alpha (or white, alpha).
    private static func parse(_ color: [String: Any]) -> UIColor? {
        guard let components = color["components"] as? [String: Any] else { return nil }
        func value(_ key: String) -> CGFloat? {
            let raw: String
            if let s = components[key] as? String {
                raw = s.trimmingCharacters(in: .whitespaces)
            } else if let n = components[key] as? NSNumber {
                raw = n.stringValue
            } else {
                return nil
            }
            if raw.lowercased().hasPrefix("0x"), let v = Int(raw.dropFirst(2), radix: 16) {
                return CGFloat(min(max(v, 0), 255)) / 255
            }
            guard let v = Double(raw), v.isFinite else { return nil }
            // Xcode writes 0…1 with a decimal point, or whole numbers 0…255.
            return raw.contains(".") || v <= 1 && key == "alpha"
                ? CGFloat(min(max(v, 0), 1)) : CGFloat(min(max(v, 0), 255)) / 255
        }
        let alpha = value("alpha") ?? 1
        if let red = value("red"), let green = value("green"), let blue = value("blue") {
            return UIColor(red: red, green: green, blue: blue, alpha: alpha)
        }
        if let white = value("white") { return UIColor(white: white, alpha: alpha) }
        return nil
    }
}
