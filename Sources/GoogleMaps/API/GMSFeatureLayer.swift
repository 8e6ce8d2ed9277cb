import Foundation
import LinuxUIKit

// Data-driven styling (Google's `FeatureLayer`, `FeatureStyle`, `FeatureType`, `PlaceFeature`, `DatasetFeature`):
// the API, so that code styling Google's boundaries and datasets compiles and runs as on iOS. Google draws these
// layers from its own boundary polygons and uploaded datasets, keyed by Google place IDs, for a map ID configured in
// the Cloud Console; Waymark's data has neither. Every feature layer is therefore unavailable (`isAvailable` false),
// as on iOS with a map ID that does not enable the layer: styling it changes nothing, no feature is tapped, and the
// map logs why once per layer (the "debug log" Google's samples point to).

/// The kind of a feature layer's features (Google's `FeatureType`, `GMSFeatureType`): an extensible string
/// constant.
public struct FeatureType: RawRepresentable, Hashable, Sendable {
    /// The type's name, as Google's string constants (`"ADMINISTRATIVE_AREA_LEVEL_1"`, …).
    public let rawValue: String
    /// A type from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A type from its name (the unlabelled form of ``init(rawValue:)``).
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// First-order civil divisions below the country (states, provinces).
    public static let administrativeAreaLevel1 = FeatureType("ADMINISTRATIVE_AREA_LEVEL_1")
    /// Second-order civil divisions (counties).
    public static let administrativeAreaLevel2 = FeatureType("ADMINISTRATIVE_AREA_LEVEL_2")
    /// Countries.
    public static let country = FeatureType("COUNTRY")
    /// Cities and towns.
    public static let locality = FeatureType("LOCALITY")
    /// Postal codes.
    public static let postalCode = FeatureType("POSTAL_CODE")
    /// School districts.
    public static let schoolDistrict = FeatureType("SCHOOL_DISTRICT")
    /// The features of an uploaded dataset.
    public static let dataset = FeatureType("DATASET")
}

/// A feature of a feature layer (Google's `Feature`, `GMSFeature`).
public protocol Feature: AnyObject {
    /// The feature's type.
    var featureType: FeatureType { get }
}

/// A boundary feature with a Google place ID (Google's `PlaceFeature`, `GMSPlaceFeature`). Waymark draws none; the
/// initializer is for tests, as Google's is.
/// - Thread rules: immutable, any thread.
public final class PlaceFeature: Feature, @unchecked Sendable {
    /// The feature's type.
    public let featureType: FeatureType
    /// The feature's Google place ID.
    public let placeID: String

    /// A feature for tests (Google's `init(featureType:placeID:)`).
    public init(featureType: FeatureType, placeID: String) {
        self.featureType = featureType
        self.placeID = placeID
    }
}

/// A feature of an uploaded dataset (Google's `DatasetFeature`, `GMSDatasetFeature`). Waymark draws none; the
/// initializer is for tests.
/// - Thread rules: immutable, any thread.
public final class DatasetFeature: Feature, @unchecked Sendable {
    /// Always ``FeatureType/dataset``.
    public let featureType = FeatureType.dataset
    /// The dataset's ID.
    public let datasetID: String
    /// The feature's attributes, as uploaded.
    public let datasetAttributes: [String: String]

    /// A feature for tests.
    public init(datasetID: String, datasetAttributes: [String: String]) {
        self.datasetID = datasetID
        self.datasetAttributes = datasetAttributes
    }
}

/// How a feature is drawn (Google's `FeatureStyle`, `GMSFeatureStyle`): immutable.
/// - Thread rules: immutable, any thread.
open class FeatureStyle: @unchecked Sendable {
    /// The polygon fill; nil leaves the default.
    public internal(set) var fillColor: UIColor?
    /// The outline; nil leaves the default.
    public internal(set) var strokeColor: UIColor?
    /// The outline's width in points (0 or more).
    public internal(set) var strokeWidth: CGFloat
    /// The radius of point features in points (0 or more; dataset points).
    public internal(set) var pointRadius: CGFloat

    /// A style of `fill`, `stroke` and `strokeWidth` (points; negative counts as 0).
    public init(fill: UIColor?, stroke: UIColor?, strokeWidth: CGFloat) {
        fillColor = fill
        strokeColor = stroke
        self.strokeWidth = max(0, strokeWidth.isFinite ? strokeWidth : 0)
        pointRadius = 0
    }

    /// The default style: no fill, no stroke, width 0 (Google's `init()`, "a default style").
    public convenience init() {
        self.init(fill: nil, stroke: nil, strokeWidth: 0)
    }

    /// A copy (Google's `mutableCopy()` gives the mutable form).
    public func mutableCopy() -> MutableFeatureStyle {
        let copy = MutableFeatureStyle(fill: fillColor, stroke: strokeColor, strokeWidth: strokeWidth)
        copy.pointRadius = pointRadius
        return copy
    }
}

/// A ``FeatureStyle`` whose properties can be set (Google's `MutableFeatureStyle`).
/// - Thread rules: one thread at a time.
public final class MutableFeatureStyle: FeatureStyle, @unchecked Sendable {
    /// The polygon fill; nil leaves the default.
    public override var fillColor: UIColor? {
        get { super.fillColor }
        set { super.fillColor = newValue }
    }
    /// The outline; nil leaves the default.
    public override var strokeColor: UIColor? {
        get { super.strokeColor }
        set { super.strokeColor = newValue }
    }
    /// The outline's width in points (negative counts as 0).
    public override var strokeWidth: CGFloat {
        get { super.strokeWidth }
        set { super.strokeWidth = max(0, newValue.isFinite ? newValue : 0) }
    }
    /// The radius of point features in points (negative counts as 0).
    public override var pointRadius: CGFloat {
        get { super.pointRadius }
        set { super.pointRadius = max(0, newValue.isFinite ? newValue : 0) }
    }
}

/// The features of one type on a map, styled by a closure (Google's `FeatureLayer`, `GMSFeatureLayer`). Get it from
/// ``GMSMapView/featureLayer(of:)`` or ``GMSMapView/datasetFeatureLayer(of:)``.
///
/// Always unavailable on Waymark (see GMSFeatureLayer.swift): ``isAvailable`` is false, ``style`` is stored but
/// styles nothing, and setting it logs once why.
/// - Thread rules: main actor, as the map.
@preconcurrency @MainActor public final class FeatureLayer<T> {
    /// The type of the layer's features.
    public let featureType: FeatureType
    /// Whether the layer can be styled and tapped: false on Waymark (no Google boundaries or datasets).
    public let isAvailable = false
    /// What the layer is, for the log line ("Administrative Area Level 2", "dataset X").
    private let name: String
    private var warned = false

    /// The style of each feature, or nil for the default; stored, but nothing is drawn (the layer is unavailable:
    /// the first assignment logs why).
    public var style: ((T) -> FeatureStyle?)? {
        didSet {
            guard !warned else { return }
            warned = true
            GMSLog.warning(
                "FeatureLayer \(name) is not available: Waymark's map data has no Google boundaries or datasets, so "
                    + "data-driven styling draws nothing (isAvailable is false)")
        }
    }

    /// A layer for tests (Google's `init(featureType:)`).
    public init(featureType: FeatureType) {
        self.featureType = featureType
        name = featureType.rawValue
    }

    init(featureType: FeatureType, name: String) {
        self.featureType = featureType
        self.name = name
    }
}

extension GMSMapView {
    /// The map's layer of `featureType` boundaries (Google's `featureLayer(of:)`): the same object for the same
    /// type. Unavailable on Waymark (``FeatureLayer/isAvailable`` is false).
    public func featureLayer(of featureType: FeatureType) -> FeatureLayer<PlaceFeature> {
        if let known = featureLayers[featureType.rawValue] as? FeatureLayer<PlaceFeature> { return known }
        let layer = FeatureLayer<PlaceFeature>(featureType: featureType, name: featureType.rawValue)
        featureLayers[featureType.rawValue] = layer
        return layer
    }

    /// The map's layer of the dataset `datasetID` (Google's `datasetFeatureLayer(of:)`): the same object for the
    /// same dataset. Unavailable on Waymark (``FeatureLayer/isAvailable`` is false).
    public func datasetFeatureLayer(of datasetID: String) -> FeatureLayer<DatasetFeature> {
        let key = "dataset:" + datasetID
        if let known = featureLayers[key] as? FeatureLayer<DatasetFeature> { return known }
        let layer = FeatureLayer<DatasetFeature>(featureType: .dataset, name: "dataset \(datasetID)")
        featureLayers[key] = layer
        return layer
    }
}
