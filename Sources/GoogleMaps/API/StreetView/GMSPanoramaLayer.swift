import Foundation
import LinuxUIKit

/// The layer key of ``GMSPanoramaLayer/cameraHeading``.
public let kGMSLayerPanoramaHeadingKey = "cameraHeading"
/// The layer key of ``GMSPanoramaLayer/cameraPitch``.
public let kGMSLayerPanoramaPitchKey = "cameraPitch"
/// The layer key of ``GMSPanoramaLayer/cameraZoom``.
public let kGMSLayerPanoramaZoomKey = "cameraZoom"
/// The layer key of ``GMSPanoramaLayer/cameraFOV``.
public let kGMSLayerPanoramaFOVKey = "cameraFOV"

/// A panorama view's layer (Google's `GMSPanoramaLayer`): the camera's fields as layer properties. Setting one sets
/// the view's camera (normalised as ``GMSPanoramaCamera``), which calls the delegate's `didMove`.
/// - Thread rules: main actor, as Waymark's Core Animation.
@preconcurrency @MainActor open class GMSPanoramaLayer: CALayer {
    /// The view this layer belongs to.
    weak var panoramaView: GMSPanoramaView?

    private var camera: GMSPanoramaCamera { panoramaView?.camera ?? GMSPanoramaCamera(heading: 0, pitch: 0, zoom: 1) }

    private func set(heading: Double? = nil, pitch: Double? = nil, zoom: Float? = nil, fov: Double? = nil) {
        guard let view = panoramaView else { return }
        let c = view.camera
        view.camera = GMSPanoramaCamera(
            heading: heading ?? c.orientation.heading, pitch: pitch ?? c.orientation.pitch, zoom: zoom ?? c.zoom,
            fov: fov ?? c.fov)
    }

    /// The camera's heading, degrees clockwise from north.
    open var cameraHeading: CLLocationDirection {
        get { camera.orientation.heading }
        set { set(heading: newValue) }
    }

    /// The camera's pitch, degrees.
    open var cameraPitch: Double {
        get { camera.orientation.pitch }
        set { set(pitch: newValue) }
    }

    /// The camera's zoom, `[1, 5]`.
    open var cameraZoom: Float {
        get { camera.zoom }
        set { set(zoom: newValue) }
    }

    /// The camera's field of view, degrees, `[1, 160]`.
    open var cameraFOV: Double {
        get { camera.fov }
        set { set(fov: newValue) }
    }
}
