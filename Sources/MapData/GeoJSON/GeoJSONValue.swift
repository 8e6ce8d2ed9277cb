import MapJSON

/// A JSON value as the GeoJSON reader takes it: the shared ``JSONValue`` of `MapJSON` (RFC 8259; numbers are
/// `Double`, duplicate object keys keep the last value, nesting is limited so deep input is an error, never a stack
/// overflow). Callers that already hold parsed JSON (a style's inline `data`) pass it as is.
public typealias GeoJSONValue = JSONValue
