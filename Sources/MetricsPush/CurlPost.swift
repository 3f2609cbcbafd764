import CCurl
import Foundation

/// One HTTP POST through libcurl's easy interface: MetricsPush's only C interop for HTTP.
///
/// libcurl blocks in `poll(2)` until the server answers or the deadline passes
/// (`CURLOPT_TIMEOUT_MS` for the whole request, `CURLOPT_CONNECTTIMEOUT_MS` for connecting),
/// so a request to a server that never answers takes the timeout and almost no processor
/// time. `CURLOPT_NOSIGNAL` keeps it from using signals for timeouts, as a threaded program must.
///
/// **Invariant:** every pointer handed to libcurl is valid for as long as libcurl may use it:
/// the URL, the body (`CURLOPT_COPYPOSTFIELDS`) and the headers' strings are copied by libcurl
/// when set; the header list, the error buffer and the answer's buffer outlive
/// `curl_easy_perform`, the only call that uses them, and the handle is cleaned up before they
/// go. Checked by `SinkTests` (a loopback InfluxDB that answers, refuses, fails or never
/// answers).
enum CurlPost {
    /// What the server answered.
    struct Answer {
        var status: Int
        /// The first ``bodyLimit`` bytes of the answer's body.
        var body: [UInt8]
        /// Where a redirect points.
        var location: String?
    }

    /// Why there was no answer.
    enum Failure: Error {
        /// The deadline passed, connecting or waiting for the answer.
        case timedOut
        /// The connection failed, with the system's reason (`Connection refused`).
        case cannotConnect(String)
        /// Anything else, in libcurl's words.
        case other(String)
    }

    /// How much of an answer's body is kept: InfluxDB's error messages are far shorter.
    static let bodyLimit = 64 << 10

    /// libcurl's global set-up, done once before the first handle (it is not thread-safe on
    /// every build, and a lazy global is initialised once).
    private static let ready: Bool = avt_curl_global_init() == CURLE_OK

    /// POSTs `body` to `url` with `headers` (`Name: value`), waiting at most `timeout` seconds
    /// for the whole request.
    static func post(url: String, headers: [String], body: [UInt8], timeout: Double) -> Result<Answer, Failure> {
        guard ready, let handle = curl_easy_init() else { return .failure(.other("libcurl cannot be set up")) }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        // Without `Expect:`, libcurl asks a large body's permission first and waits a second.
        for header in headers + ["Expect:"] {
            guard let longer = curl_slist_append(list, header) else {
                curl_slist_free_all(list)
                return .failure(.other("out of memory for the request's headers"))
            }
            list = longer
        }
        defer { curl_slist_free_all(list) }
        let milliseconds = max(1, Int((timeout * 1000).rounded(.up)))
        var options: [CURLcode] = [
            avt_curl_setopt_pointer(handle, CURLOPT_URL, url),
            avt_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            avt_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            avt_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
            avt_curl_setopt_long(handle, CURLOPT_POST, 1),
            avt_curl_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
            avt_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list),
        ]
        // An empty body still needs a pointer: libcurl would otherwise read the body from stdin.
        let bytes = body.isEmpty ? [0] : body
        options.append(
            bytes.withUnsafeBytes { avt_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
        if let failed = options.first(where: { $0 != CURLE_OK }) {
            return .failure(.other(String(cString: curl_easy_strerror(failed))))
        }
        var errors = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var answer = [CChar](repeating: 0, count: bodyLimit)
        var code = CURLE_OK
        var received = 0
        errors.withUnsafeMutableBufferPointer { errors in
            answer.withUnsafeMutableBufferPointer { answer in
                var collected = avt_curl_body(bytes: answer.baseAddress, capacity: answer.count, count: 0)
                withUnsafeMutablePointer(to: &collected) { collected in
                    code = avt_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                    if code == CURLE_OK { code = avt_curl_collect_body(handle, collected) }
                    if code == CURLE_OK { code = curl_easy_perform(handle) }
                    // Nothing may point at these buffers once this closure returns.
                    _ = avt_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil)
                    _ = avt_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, nil)
                    received = collected.pointee.count
                }
            }
        }
        switch code {
        case CURLE_OK:
            break
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(.timedOut)
        case CURLE_COULDNT_CONNECT:
            var number = 0
            _ = avt_curl_getinfo_long(handle, CURLINFO_OS_ERRNO, &number)
            return .failure(.cannotConnect(number == 0 ? "cannot connect" : String(cString: strerror(Int32(number)))))
        default:
            let text = String(decoding: errors.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.other(text.isEmpty ? String(cString: curl_easy_strerror(code)) : text))
        }
        var status = 0
        _ = avt_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var redirect: UnsafeMutablePointer<CChar>?
        _ = avt_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirect)
        return .success(
            Answer(
                status: status, body: answer.prefix(received).map { UInt8(bitPattern: $0) },
                location: redirect.map { String(cString: $0) }))
    }
}
