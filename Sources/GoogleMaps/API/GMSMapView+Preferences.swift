import Foundation
import LinuxUIKit

/// Rendering frame rates for ``GMSMapView/preferredFrameRate`` (Google's `GMSFrameRate`).
public enum GMSFrameRate: UInt, Sendable {
    /// The minimum frame rate, to save power: Waymark draws at most 20 frames a second.
    case powerSave = 0
    /// A median frame rate, smoother while saving work: at most 30 frames a second.
    case conservative = 1
    /// The display's rate: 60 frames a second (the default).
    case maximum = 2

    /// Seconds between frames at this rate.
    var frameInterval: TimeInterval {
        switch self {
        case .powerSave: 1.0 / 20
        case .conservative: 1.0 / 30
        case .maximum: 1.0 / 60
        }
    }
}

/// Map capabilities that need a map ID or another setting on Google's SDK (Google's `GMSMapCapabilityFlags`).
public struct GMSMapCapabilityFlags: OptionSet, Sendable, Hashable {
    /// The flags' bits.
    public let rawValue: UInt
    /// Flags from bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Advanced markers are enabled (bit 0). Waymark has no advanced markers: never set.
    public static let advancedMarkers = GMSMapCapabilityFlags(rawValue: 1 << 0)
    /// Data-driven styling is enabled (bit 1). Waymark has none: never set.
    public static let dataDrivenStyling = GMSMapCapabilityFlags(rawValue: 1 << 1)
    /// Polylines stamped with a ``GMSSpriteStyle`` are drawn (bit 2): always set in Waymark, which draws them with or
    /// without a map ID.
    public static let spritePolylines = GMSMapCapabilityFlags(rawValue: 1 << 2)
}

/// How the safe area insets are added to ``GMSMapView/padding`` (Google's `GMSMapViewPaddingAdjustmentBehavior`).
public enum GMSMapViewPaddingAdjustmentBehavior: UInt, Sendable {
    /// The safe area insets are always added to the padding (the default).
    case always = 0
    /// Each edge uses the larger of its padding and its safe area inset.
    case automatic = 1
    /// The safe area is ignored: the padding alone (Google's behaviour before version 2.5).
    case never = 2
}

/// The map view's settings of this file, stored on the view.
struct MapViewPreferences {
    var preferredFrameRate: GMSFrameRate = .maximum
    var paddingAdjustmentBehavior: GMSMapViewPaddingAdjustmentBehavior = .always
}

extension GMSMapView {
    /// How often the map draws while it moves (Google's `preferredFrameRate`). Defaults to `.maximum` (60 frames a
    /// second); `.conservative` draws at most 30 and `.powerSave` at most 20: the window loop and `CADisplayLink`s
    /// then wait the longer interval between frames while this map is on screen.
    public var preferredFrameRate: GMSFrameRate {
        get { preferences.preferredFrameRate }
        set { preferences.preferredFrameRate = newValue }
    }

    /// The host draws no more often than ``preferredFrameRate`` allows while this map is in its window.
    package var preferredFrameInterval: TimeInterval { preferredFrameRate.frameInterval }

    /// The conditionally available capabilities of this map (Google's `mapCapabilities`): in Waymark always
    /// ``GMSMapCapabilityFlags/spritePolylines`` and nothing else, with or without a map ID, so
    /// ``GMSMapViewDelegate/mapView(_:didChange:)-(_,GMSMapCapabilityFlags)`` is never called (the capabilities never
    /// change).
    public var mapCapabilities: GMSMapCapabilityFlags { .spritePolylines }

    /// How the safe area insets are added to ``padding`` (Google's `paddingAdjustmentBehavior`). Defaults to
    /// `.always`. The padding the camera and the controls use (``layoutPadding``) follows it.
    public var paddingAdjustmentBehavior: GMSMapViewPaddingAdjustmentBehavior {
        get { preferences.paddingAdjustmentBehavior }
        set {
            guard newValue != preferences.paddingAdjustmentBehavior else { return }
            preferences.paddingAdjustmentBehavior = newValue
            paddingDidChange(from: padding)
        }
    }

    /// ``padding`` adjusted by the safe area as ``paddingAdjustmentBehavior`` says: what the camera's optical centre
    /// and the controls use.
    var layoutPadding: UIEdgeInsets { adjustedPadding(padding) }

    /// `insets` adjusted by the safe area as ``paddingAdjustmentBehavior`` says.
    func adjustedPadding(_ insets: UIEdgeInsets) -> UIEdgeInsets {
        let safe = safeAreaInsets
        switch paddingAdjustmentBehavior {
        case .never: return insets
        case .always:
            return UIEdgeInsets(
                top: insets.top + safe.top, left: insets.left + safe.left, bottom: insets.bottom + safe.bottom,
                right: insets.right + safe.right)
        case .automatic:
            return UIEdgeInsets(
                top: max(insets.top, safe.top), left: max(insets.left, safe.left),
                bottom: max(insets.bottom, safe.bottom), right: max(insets.right, safe.right))
        }
    }
}
