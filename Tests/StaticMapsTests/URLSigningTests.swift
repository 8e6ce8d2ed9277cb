import Testing
import URLSigning

@Suite struct URLSigningTests {
    @Test func googlesDocumentedSigningExample() {
        // Google's URL-signing documentation: this key and URL give this signature.
        let secret = "vNIXE0xscrmjlyV-12Nj_BvUPaw="
        let url = "/maps/api/geocode/json?address=New+York&client=clientID"
        #expect(URLSigning.signature(pathAndQuery: url, secret: secret) == "chaRF2hTJKOScPr-RQCEhZbSzIE=")
        #expect(URLSigning.verify(pathAndQuery: url, signature: "chaRF2hTJKOScPr-RQCEhZbSzIE=", secret: secret))
        #expect(!URLSigning.verify(pathAndQuery: url + "x", signature: "chaRF2hTJKOScPr-RQCEhZbSzIE=", secret: secret))
        #expect(!URLSigning.verify(pathAndQuery: url, signature: "dhaRF2hTJKOScPr-RQCEhZbSzIE=", secret: secret))
        #expect(!URLSigning.verify(pathAndQuery: url, signature: "not base64!", secret: secret))
    }

    @Test func sha1AndBase64() {
        // FIPS 180 test vector.
        let digest = URLSigning.sha1(Array("abc".utf8))
        #expect(URLSigning.base64Encode(digest, urlSafe: false) == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
        #expect(URLSigning.base64Encode(digest, urlSafe: true) == "qZk-NkcGgWq6PiVxeFDCbJzQ2J0=")
        #expect(URLSigning.base64Decode("qZk-NkcGgWq6PiVxeFDCbJzQ2J0=") == digest)
        #expect(URLSigning.base64Decode("a") == nil)
        #expect(URLSigning.base64Encode([1, 2], urlSafe: true) == "AQI=")
    }
}
