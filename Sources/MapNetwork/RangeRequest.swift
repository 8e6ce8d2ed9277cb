import Foundation
import MapData

/// The answer to a byte-range request (``HTTPLoader/fetchRange(_:offset:length:priority:completion:)``).
public struct RangeResponse: Sendable, Equatable {
    /// The bytes of the range (fewer than asked when the file ends inside it).
    public var bytes: [UInt8]
    /// The resource's `ETag`, or `nil` (a changed ETag means the file was replaced).
    public var etag: String?
    /// Whether the server ignored `Range` and answered `200` with the whole file (the range was cut out of it; a
    /// reader may keep the whole body instead of asking again).
    public var servedWholeFile: Bool
    /// The whole body of a `200` answer, `nil` for `206`.
    public var wholeFile: [UInt8]?
    /// The resource's total size: the `Content-Range` total of a `206`, the body's size for a `200`, else `nil`.
    public var totalLength: UInt64? = nil
    /// The answer's headers, names lower-cased (`Cache-Control`, `Last-Modified`, …). Default none.
    public var headers: [String: String] = [:]
}

extension HTTPLoader {
    /// GETs `length` bytes at `offset` with `Range: bytes=offset-(offset+length−1)` (RFC 9110 §14): a `206` gives
    /// the range; a `200` gives the whole file, detected and cut down (``RangeResponse/servedWholeFile``); any other
    /// status fails naming the URL. The whole-file answer is bounded by ``HTTPLoaderOptions/maxResponseBytes``.
    /// - Parameters:
    ///   - url: `http(s)://`.
    ///   - offset: first byte, `>= 0`.
    ///   - length: bytes wanted, `>= 1`.
    ///   - priority: as ``fetch(_:headers:priority:completion:)``. Default 0.
    ///   - completion: the range or the error; not called after a cancel.
    /// - Returns: the cancelling handle.
    @discardableResult
    public func fetchRange(
        _ url: URL, offset: UInt64, length: Int, priority: Double = 0,
        completion: @escaping @Sendable (Result<RangeResponse, HTTPError>) -> Void
    ) -> TileRequestHandle {
        let length = max(length, 1)
        let (end, overflow) = offset.addingReportingOverflow(UInt64(length) - 1)
        guard !overflow else {
            completion(.failure(HTTPError(url: url.absoluteString, message: "range at \(offset) is past any file")))
            return .completed
        }
        let last = end
        return fetch(url, headers: ["Range": "bytes=\(offset)-\(last)"], priority: priority) { result in
            completion(
                result.flatMap { response in
                    let etag = response.header("etag")
                    switch response.status {
                    case 206:
                        let total = response.header("content-range")?.split(separator: "/").last.flatMap {
                            UInt64($0)
                        }
                        return .success(
                            RangeResponse(
                                bytes: Array(response.body.prefix(length)), etag: etag, servedWholeFile: false,
                                wholeFile: nil, totalLength: total, headers: response.headers))
                    case 200:
                        let body = response.body
                        let start = Int(min(offset, UInt64(body.count)))
                        let end = min(start + length, body.count)
                        return .success(
                            RangeResponse(
                                bytes: Array(body[start..<end]), etag: etag, servedWholeFile: true, wholeFile: body,
                                totalLength: UInt64(body.count), headers: response.headers))
                    default:
                        return .failure(
                            HTTPError(
                                url: url.absoluteString, message: "range request answered HTTP \(response.status)",
                                status: response.status))
                    }
                })
        }
    }

    /// ``fetchRange(_:offset:length:priority:completion:)`` and wait (range readers on worker threads).
    /// - Throws: ``HTTPError``.
    public func readRange(_ url: URL, offset: UInt64, length: Int) throws(HTTPError) -> RangeResponse {
        let box = ResultBox<RangeResponse>()
        fetchRange(url, offset: offset, length: length) { box.set($0) }
        return try box.wait()
    }
}
