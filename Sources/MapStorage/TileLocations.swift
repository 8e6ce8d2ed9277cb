import MapData
import MapGeometry

extension MBTilesSource: TileLocating {
    /// `<path> tile z/x/y` (XYZ address; the row stored in the file is flipped).
    public func location(of address: TileID) -> String { "\(path) tile \(address)" }
}

extension PMTilesSource: TileLocating {
    /// `<path or URL> tile z/x/y`.
    public func location(of address: TileID) -> String { "\(path) tile \(address)" }
}
