import MapData

extension MBTilesSource: TileLocating {
    /// `<path> tile z/x/y` (XYZ address; the row stored in the file is flipped).
    public func location(of address: TileAddress) -> String { "\(path) tile \(address)" }
}
