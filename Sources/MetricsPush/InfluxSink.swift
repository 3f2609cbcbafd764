import Foundation

/// Writes line protocol to InfluxDB: 1.x's `POST /write?db=...` (with `rp=`, and a user whose
/// password comes as the secret), or 2.x's and 3.x's `POST /api/v2/write?org=...&bucket=...`
/// (the secret is the API token). `precision=ns` is added when the URL has no precision. Bodies
/// go gzip-compressed (`Content-Encoding: gzip`), which every InfluxDB since 1.0 accepts.
///
/// A 2xx is a delivery; a 5xx or no answer is `unreachable`; any other answer is `refused`,
/// with InfluxDB's error message (for a partial write it names the lines it dropped). A request
/// that is not answered in `timeout` seconds, connecting included, is `unreachable` with
/// `timed out after 30 s waiting for <url>`. Requests go through libcurl (``CurlPost``).
package struct InfluxSink: MetricsSink {
    package let name = "influx"
    /// The write URL, with `precision=ns` added when it has no precision.
    package let url: URL
    /// The value of the `Authorization` header, if any.
    private let authorization: String?
    /// Every form of the secret a server could echo (the secret, the `Authorization` value and
    /// its credentials): masked in whatever of a server's answer is shown (``shownAnswer(_:)``).
    private let secrets: [String]
    package let timeout: TimeInterval

    /// What a write URL is not.
    package struct AddressError: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The API a write URL speaks.
    package enum API: Sendable {
        /// InfluxDB 1.x: `/write?db=...`.
        case v1
        /// InfluxDB 2.x and 3.x: `/api/v2/write?org=...&bucket=...`.
        case v2
    }

    package let api: API

    /// - Parameters:
    ///   - url: a 1.x write URL (`http://127.0.0.1:8086/write?db=telemetry`, optionally `rp=` and
    ///     a user, `http://avt@host:8086/write?db=telemetry`) or a 2.x/3.x one
    ///     (`http://host:8086/api/v2/write?org=acme&bucket=telemetry`).
    ///   - secret: the 2.x token, or the 1.x user's password. Never in the URL: a URL with a
    ///     password (`user:password@`, `p=`) or a token is refused, so that it cannot end up in a
    ///     shell history or a process list.
    ///   - timeout: how long a whole request may take, connecting included, in seconds.
    package init(url: String, secret: String? = nil, timeout: TimeInterval = 30) throws(AddressError) {
        // The URL as messages show it: a password or token in it masked.
        let shown = Self.masked(url)
        guard var components = URLComponents(string: url), components.scheme == "http" || components.scheme == "https",
            components.host != nil
        else {
            throw AddressError(
                description: "\(shown) is not an http(s) URL such as http://127.0.0.1:8086/write?db=telemetry")
        }
        var items = components.queryItems ?? []
        func has(_ name: String) -> Bool { items.contains { $0.name == name && !($0.value ?? "").isEmpty } }
        if components.password != nil || has("p") || has("token") {
            throw AddressError(
                description:
                    "\(shown) holds a password or token: give it in a file (--influx-secret-file) or the AVT_REPLAY_INFLUX_SECRET environment variable"
            )
        }
        if components.path.hasSuffix("/api/v2/write") {
            guard has("org") || has("orgID"), has("bucket") else {
                throw AddressError(
                    description:
                        "\(shown) needs org= and bucket=, as in http://host:8086/api/v2/write?org=acme&bucket=telemetry"
                )
            }
            api = .v2
        } else {
            if components.path.isEmpty || components.path == "/" { components.path = "/write" }
            guard has("db") else {
                throw AddressError(
                    description:
                        "\(shown) has no db=: a write URL needs the database, as in http://127.0.0.1:8086/write?db=telemetry"
                )
            }
            api = .v1
        }
        if !items.contains(where: { $0.name == "precision" }) {
            items.append(URLQueryItem(name: "precision", value: "ns"))
        }
        components.queryItems = items
        let user = components.user
        components.user = nil
        guard let resolved = components.url else {
            throw AddressError(description: "\(shown) is not a valid URL")
        }
        switch (api, secret, user) {
        case (.v2, let token?, _):
            authorization = "Token " + token
        case (.v1, let password?, let user?):
            authorization = "Basic " + Self.base64(Array("\(user):\(password)".utf8))
        case (.v1, _?, nil):
            throw AddressError(
                description: "a password was given, but \(shown) names no user (http://USER@host:8086/write?db=...)")
        case (.v1, nil, _?):
            throw AddressError(description: "\(shown) names a user, but no password was given (--influx-secret-file)")
        case (.v2, nil, _):
            throw AddressError(
                description: "\(shown) is InfluxDB 2.x's API, which needs a token (--influx-secret-file)")
        default:
            authorization = nil
        }
        self.url = resolved
        self.timeout = timeout
        var secrets = [secret, authorization].compactMap { $0 }
        if let credentials = authorization?.split(separator: " ", maxSplits: 1).last {
            secrets.append(String(credentials))
        }
        // The longest first, so that no part of a longer one is left after a shorter is masked.
        self.secrets = Set(secrets.filter { !$0.isEmpty }).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    package func send(_ batch: [UInt8]) -> Delivery {
        var headers = ["Content-Type: text/plain; charset=utf-8"]
        var body = batch
        if let compressed = GzipBody.compress(batch) {
            body = compressed
            headers.append("Content-Encoding: gzip")
        }
        if let authorization { headers.append("Authorization: " + authorization) }
        let address = Self.masked(url.absoluteString)
        switch CurlPost.post(url: url.absoluteString, headers: headers, body: body, timeout: timeout) {
        case .failure(.timedOut):
            return .unreachable("timed out after \(timeoutText(timeout)) s waiting for \(address)")
        case .failure(.cannotConnect(let reason)):
            return .unreachable("cannot connect to \(address): \(reason)")
        case .failure(.other(let reason)):
            return .unreachable("\(reason) (\(address))")
        case .success(let answer):
            let text = shownAnswer(answer.body)
            switch answer.status {
            case 200..<300: return .delivered
            case 500...: return .unreachable("HTTP \(answer.status)\(text)")
            case 300..<400:
                let target = answer.location.map { " to \(Self.masked($0))" } ?? ""
                return .refused("HTTP \(answer.status): redirected\(target), which is not followed: give that URL")
            default: return .refused("HTTP \(answer.status)\(text)")
            }
        }
    }

    /// `url` as it may be shown: a password in its user information and the values of
    /// `p=`, `password=`, `token=` and `secret=` replaced by `***`
    /// (`http://user:***@host:8086/write?db=t&p=***`); the rest as given.
    package static func masked(_ url: String) -> String {
        var text = Substring(url)
        var prefix = ""
        if let schemeEnd = text.range(of: "://") {
            prefix = String(text[..<schemeEnd.upperBound])
            text = text[schemeEnd.upperBound...]
            let authorityEnd = text.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
            let authority = text[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                prefix += authority[...colon] + "***"
                text = text[at...]
            }
        }
        guard let question = text.firstIndex(of: "?") else { return prefix + text }
        let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
        let parameters = text[text.index(after: question)..<fragmentStart].split(
            separator: "&", omittingEmptySubsequences: false
        ).map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "="), parameter.index(after: equals) < parameter.endIndex,
                Self.secretParameters.contains(parameter[..<equals].lowercased())
            else { return String(parameter) }
            return parameter[...equals] + "***"
        }
        return prefix + text[...question] + parameters.joined(separator: "&") + text[fragmentStart...]
    }

    /// The query parameters that hold a secret, in lower case.
    private static let secretParameters: Set<String> = ["p", "password", "token", "secret"]

    /// RFC 4648 base64, for the `Basic` authorization header.
    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// InfluxDB's `{"error":"..."}`, as `: ...`.
    /// The most characters of a server's answer that are shown (printed, and kept in
    /// `run.json`): InfluxDB's messages are shorter; a longer one is cut, ending in `…`.
    package static let shownAnswerLimit = 500

    /// What a server answered, as it is shown: `": " + ` its `error` (InfluxDB's JSON) or its
    /// text, with every form of the secret masked (`***`), control characters (a terminal's
    /// escapes, line breaks) as spaces, and cut to ``shownAnswerLimit`` characters; empty for
    /// an empty answer.
    func shownAnswer(_ data: [UInt8]) -> String {
        guard !data.isEmpty else { return "" }
        var text = String(decoding: data.prefix(CurlPost.bodyLimit), as: UTF8.self)
        if let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any],
            let error = object["error"] as? String
        {
            text = error
        }
        // Masked before it is cut, so that no part of a secret is left at the cut.
        for secret in secrets { text = text.replacingOccurrences(of: secret, with: "***") }
        text = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        if text.count > Self.shownAnswerLimit { text = text.prefix(Self.shownAnswerLimit - 1) + "…" }
        return ": " + text
    }
}
