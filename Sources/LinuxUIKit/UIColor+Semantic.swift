import Foundation

extension UIColor {
    /// A dynamic colour with a light and a dark appearance (`.unspecified` resolves as light), and a dark elevated
    /// one (`darkElevated`, for `userInterfaceLevel == .elevated`) when it differs from `dark`.
    private static func appearance(
        light: UInt32, dark: UInt32, darkElevated: UInt32? = nil, alpha: CGFloat = 1, darkAlpha: CGFloat? = nil
    ) -> UIColor {
        let lightColor = UIColor(rgb: light, alpha: alpha)
        let darkColor = UIColor(rgb: dark, alpha: darkAlpha ?? alpha)
        guard let darkElevated else { return UIColor { $0.userInterfaceStyle == .dark ? darkColor : lightColor } }
        let elevatedColor = UIColor(rgb: darkElevated, alpha: darkAlpha ?? alpha)
        return UIColor { traits in
            guard traits.userInterfaceStyle == .dark else { return lightColor }
            return traits.userInterfaceLevel == .elevated ? elevatedColor : darkColor
        }
    }

    /// A fixed colour from `0xRRGGBB`.
    private convenience init(rgb: UInt32, alpha: CGFloat) {
        self.init(
            red: CGFloat((rgb >> 16) & 0xFF) / 255, green: CGFloat((rgb >> 8) & 0xFF) / 255,
            blue: CGFloat(rgb & 0xFF) / 255, alpha: alpha)
    }

    // MARK: System tint colours (dynamic: light / dark)

    /// System blue (light `#007AFF`, dark `#0A84FF`): the default tint colour of every view.
    public static let systemBlue = appearance(light: 0x007AFF, dark: 0x0A84FF)
    /// System red (light `#FF3B30`, dark `#FF453A`).
    public static let systemRed = appearance(light: 0xFF3B30, dark: 0xFF453A)
    /// System green (light `#34C759`, dark `#30D158`).
    public static let systemGreen = appearance(light: 0x34C759, dark: 0x30D158)
    /// System orange (light `#FF9500`, dark `#FF9F0A`).
    public static let systemOrange = appearance(light: 0xFF9500, dark: 0xFF9F0A)
    /// System yellow (light `#FFCC00`, dark `#FFD60A`).
    public static let systemYellow = appearance(light: 0xFFCC00, dark: 0xFFD60A)
    /// System pink (light `#FF2D55`, dark `#FF375F`).
    public static let systemPink = appearance(light: 0xFF2D55, dark: 0xFF375F)
    /// System purple (light `#AF52DE`, dark `#BF5AF2`).
    public static let systemPurple = appearance(light: 0xAF52DE, dark: 0xBF5AF2)
    /// System teal (light `#5AC8FA`, dark `#64D2FF`).
    public static let systemTeal = appearance(light: 0x5AC8FA, dark: 0x64D2FF)
    /// System indigo (light `#5856D6`, dark `#5E5CE6`).
    public static let systemIndigo = appearance(light: 0x5856D6, dark: 0x5E5CE6)
    /// System brown (light `#A2845E`, dark `#AC8E68`).
    public static let systemBrown = appearance(light: 0xA2845E, dark: 0xAC8E68)
    /// System mint (light `#00C7BE`, dark `#63E6E2`).
    public static let systemMint = appearance(light: 0x00C7BE, dark: 0x63E6E2)
    /// System cyan (light `#32ADE6`, dark `#64D2FF`).
    public static let systemCyan = appearance(light: 0x32ADE6, dark: 0x64D2FF)

    // MARK: Greys

    /// System grey (`#8E8E93` in both appearances).
    public static let systemGray = appearance(light: 0x8E8E93, dark: 0x8E8E93)
    /// System grey 2 (light `#AEAEB2`, dark `#636366`, dark elevated `#7C7C80`).
    public static let systemGray2 = appearance(light: 0xAEAEB2, dark: 0x636366, darkElevated: 0x7C7C80)
    /// System grey 3 (light `#C7C7CC`, dark `#48484A`, dark elevated `#545456`).
    public static let systemGray3 = appearance(light: 0xC7C7CC, dark: 0x48484A, darkElevated: 0x545456)
    /// System grey 4 (light `#D1D1D6`, dark `#3A3A3C`, dark elevated `#444446`).
    public static let systemGray4 = appearance(light: 0xD1D1D6, dark: 0x3A3A3C, darkElevated: 0x444446)
    /// System grey 5 (light `#E5E5EA`, dark `#2C2C2E`, dark elevated `#363638`).
    public static let systemGray5 = appearance(light: 0xE5E5EA, dark: 0x2C2C2E, darkElevated: 0x363638)
    /// System grey 6 (light `#F2F2F7`, dark `#1C1C1E`, dark elevated `#242426`).
    public static let systemGray6 = appearance(light: 0xF2F2F7, dark: 0x1C1C1E, darkElevated: 0x242426)

    // MARK: Backgrounds

    /// Background of a plain screen (light white, dark black, dark elevated `#1C1C1E`: sheets and alerts).
    public static let systemBackground = appearance(light: 0xFFFFFF, dark: 0x000000, darkElevated: 0x1C1C1E)
    /// Background of content over ``systemBackground`` (light `#F2F2F7`, dark `#1C1C1E`, dark elevated `#2C2C2E`).
    public static let secondarySystemBackground = appearance(light: 0xF2F2F7, dark: 0x1C1C1E, darkElevated: 0x2C2C2E)
    /// Background of content over ``secondarySystemBackground`` (light white, dark `#2C2C2E`, dark elevated
    /// `#3A3A3C`).
    public static let tertiarySystemBackground = appearance(light: 0xFFFFFF, dark: 0x2C2C2E, darkElevated: 0x3A3A3C)
    /// Background of a grouped screen (light `#F2F2F7`, dark black, dark elevated `#1C1C1E`).
    public static let systemGroupedBackground = appearance(light: 0xF2F2F7, dark: 0x000000, darkElevated: 0x1C1C1E)
    /// Background of content over ``systemGroupedBackground`` (light white, dark `#1C1C1E`, dark elevated
    /// `#2C2C2E`).
    public static let secondarySystemGroupedBackground = appearance(
        light: 0xFFFFFF, dark: 0x1C1C1E, darkElevated: 0x2C2C2E)
    /// Background of content over ``secondarySystemGroupedBackground`` (light `#F2F2F7`, dark `#2C2C2E`, dark
    /// elevated `#3A3A3C`).
    public static let tertiarySystemGroupedBackground = appearance(
        light: 0xF2F2F7, dark: 0x2C2C2E, darkElevated: 0x3A3A3C)

    // MARK: Text and lines

    /// Primary text (light black, dark white).
    public static let label = appearance(light: 0x000000, dark: 0xFFFFFF)
    /// Secondary text (light `#3C3C43`, dark `#EBEBF5`, both at 60 % opacity).
    public static let secondaryLabel = appearance(light: 0x3C3C43, dark: 0xEBEBF5, alpha: 0.6)
    /// Tertiary text (light `#3C3C43`, dark `#EBEBF5`, both at 30 % opacity).
    public static let tertiaryLabel = appearance(light: 0x3C3C43, dark: 0xEBEBF5, alpha: 0.3)
    /// Quaternary text (light `#3C3C43`, dark `#EBEBF5`, both at 18 % opacity).
    public static let quaternaryLabel = appearance(light: 0x3C3C43, dark: 0xEBEBF5, alpha: 0.18)
    /// Placeholder text in text fields (light `#3C3C43`, dark `#EBEBF5`, both at 30 % opacity).
    public static let placeholderText = appearance(light: 0x3C3C43, dark: 0xEBEBF5, alpha: 0.3)
    /// Links (light `#007AFF`, dark `#0984FF`).
    public static let link = appearance(light: 0x007AFF, dark: 0x0984FF)
    /// Thin separator lines that let content show through (light `#3C3C43` at 29 %, dark `#545458` at 60 %).
    public static let separator = appearance(light: 0x3C3C43, dark: 0x545458, alpha: 0.29, darkAlpha: 0.6)
    /// Opaque separator lines (light `#C6C6C8`, dark `#38383A`).
    public static let opaqueSeparator = appearance(light: 0xC6C6C8, dark: 0x38383A)

    // MARK: Fills

    /// Fill of thin and small shapes (light `#787880` at 20 %, dark at 36 %).
    public static let systemFill = appearance(light: 0x787880, dark: 0x787880, alpha: 0.2, darkAlpha: 0.36)
    /// Fill of medium shapes (light `#787880` at 16 %, dark at 32 %).
    public static let secondarySystemFill = appearance(light: 0x787880, dark: 0x787880, alpha: 0.16, darkAlpha: 0.32)
    /// Fill of large shapes (light `#767680` at 12 %, dark at 24 %).
    public static let tertiarySystemFill = appearance(light: 0x767680, dark: 0x767680, alpha: 0.12, darkAlpha: 0.24)
    /// Fill of large areas with complex content (light `#747480` at 8 %, dark at 18 %).
    public static let quaternarySystemFill = appearance(
        light: 0x747480, dark: 0x747480, alpha: 0.08, darkAlpha: 0.18)

    // MARK: LinuxUIKit's own control colours

    /// A colour of LinuxUIKit's own views that follows the appearance: `light` (the look Waymark's controls always
    /// had, near iOS's) in a light or unspecified style, `dark` (iOS's dark value of the semantic colour the control
    /// uses) in a dark one.
    static func control(light: UIColor, dark: UIColor) -> UIColor {
        UIColor { $0.userInterfaceStyle == .dark ? dark : light }
    }

    /// A grey of LinuxUIKit's own views: `white` in a light style, `dark` (an iOS dark value) in a dark one.
    static func control(white: CGFloat, dark: UIColor) -> UIColor {
        control(light: UIColor(white: white, alpha: 1), dark: dark)
    }

    /// iOS's light `tertiaryLabel`: `#3C3C43` at 30 %.
    static let lightTertiaryLabel = UIColor(rgb: 0x3C3C43, alpha: 0.3)
    /// iOS's light `separator`: `#3C3C43` at 29 %.
    static let lightSeparator = UIColor(rgb: 0x3C3C43, alpha: 0.29)
    /// iOS's light `opaqueSeparator`: `#C6C6C8`.
    static let lightOpaqueSeparator = UIColor(rgb: 0xC6C6C8, alpha: 1)
    /// iOS's light `systemGray4`: `#D1D1D6`.
    static let lightGray4 = UIColor(rgb: 0xD1D1D6, alpha: 1)
    /// iOS's light `systemFill`: `#787880` at 20 %.
    static let lightFill = UIColor(rgb: 0x787880, alpha: 0.2)
    /// iOS's light `secondarySystemFill`: `#787880` at 16 %.
    static let lightSecondaryFill = UIColor(rgb: 0x787880, alpha: 0.16)
    /// iOS's light `tertiarySystemFill`: `#767680` at 12 %.
    static let lightTertiaryFill = UIColor(rgb: 0x767680, alpha: 0.12)
    /// iOS's dark `secondaryLabel`: `#EBEBF5` at 60 %.
    static let darkSecondaryLabel = UIColor(rgb: 0xEBEBF5, alpha: 0.6)
    /// iOS's dark `tertiarySystemFill`: `#767680` at 24 %.
    static let darkTertiaryFill = UIColor(rgb: 0x767680, alpha: 0.24)
    /// iOS's dark `opaqueSeparator`: `#38383A`.
    static let darkSeparator = UIColor(rgb: 0x38383A, alpha: 1)

    // MARK: Fixed text colours

    /// Text on dark backgrounds in any appearance: white at 60 %.
    public static let lightText = UIColor(white: 1, alpha: 0.6)
    /// Text on light backgrounds in any appearance: black.
    public static let darkText = UIColor.black

    // MARK: Hue, saturation, brightness

    /// Reads the colour as hue, saturation, brightness (the HSB/HSV model) and alpha, as UIKit's
    /// `getHue(_:saturation:brightness:alpha:)`; a dynamic colour is resolved against
    /// ``UITraitCollection/current`` first. Hue is in `0..<1` (0 for greys), the others in `0...1`. Any pointer may be
    /// nil.
    /// - Returns: always `true`: every colour here is in a compatible RGB colour space.
    @discardableResult
    public func getHue(
        _ hue: UnsafeMutablePointer<CGFloat>?, saturation: UnsafeMutablePointer<CGFloat>?,
        brightness: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        let (r, g, b, a) = rgba
        let maxC = max(r, g, b)
        let minC = min(r, g, b)
        let delta = maxC - minC
        var h: CGFloat = 0
        if delta > 0 {
            if maxC == r {
                h = (g - b) / delta
            } else if maxC == g {
                h = (b - r) / delta + 2
            } else {
                h = (r - g) / delta + 4
            }
            h /= 6
            if h < 0 { h += 1 }
        }
        hue?.pointee = h
        saturation?.pointee = maxC > 0 ? delta / maxC : 0
        brightness?.pointee = maxC
        alpha?.pointee = a
        return true
    }
}
