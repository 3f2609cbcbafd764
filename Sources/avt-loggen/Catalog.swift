/// The content, ads and error texts the generated players pick from, built from the seed.
///
/// Texts are stored already JSON-encoded (quoted and escaped), so writing a record is
/// a copy. Some titles hold commas, quotes and non-ASCII letters on purpose: reports
/// must quote and escape them.
struct Catalog {
    struct Content {
        var title: [UInt8]
        var source: [UInt8]
        /// Milliseconds; 0 for a live stream, which reports no duration.
        var duration: Int64
    }

    struct Ad {
        var id: [UInt8]
        var title: [UInt8]
        var creativeId: [UInt8]
        var advertiser: [UInt8]
        var system: [UInt8]
        var duration: Int64
        var bitrate: Int64
    }

    var contents: [Content] = []
    var ads: [Ad] = []
    var errors: [[UInt8]] = []
    var startErrors: [[UInt8]] = []

    init(rng: inout SplitMix64) {
        let shows = [
            "The Long Night", "Harbor Lights", "Café \"Noir\"", "Northern Line", "Saltwater",
            "Los Años Dorados", "Under the Bridge", "Kitchen Wars", "Mørke Skoger", "Orbit",
            "The Quiet Agent", "Desert Run", "Zürich Files", "Paper Towns, Revisited", "Blue Hour",
            "Night Shift", "Wild Coast", "Tokyo 東京 Stories", "Cold Case Unit", "Garden Rescue",
        ]
        let hosts = ["cdn.example.com", "vod.example.net", "edge-eu.example.org", "media.example.tv"]
        let extensions = ["m3u8", "mpd", "m3u8", "m3u8"]
        for index in 0..<600 {
            let show = shows[rng.below(shows.count)]
            var duration: Int64
            var title: String
            switch rng.weighted([28, 46, 18, 8]) {
            case 0:
                duration = rng.between(45_000...330_000)
                title = show + ": clip \(index)"
            case 1:
                duration = rng.between(1_200_000...3_300_000)
                title = show + " S\(rng.below(8) + 1)E\(rng.below(12) + 1)"
            case 2:
                duration = rng.between(4_800_000...9_000_000)
                title = show + " (the movie)"
            default:
                duration = 0
                title = show + " — live"
            }
            let path = duration == 0 ? "live" : "vod"
            let source =
                "https://\(hosts[index % hosts.count])/\(path)/\(String(rng.next() >> 16, radix: 16))/master.\(extensions[index % 4])?token=\(String(rng.next() >> 24, radix: 36))"
            contents.append(Content(title: Self.json(title), source: Self.json(source), duration: duration))
        }
        let advertisers = ["Acme Corp", "Globex", "Initech", "Umbrella, Ltd.", "Soylent", "Hooli", "Stark Ind."]
        for index in 0..<120 {
            let advertiser = advertisers[rng.below(advertisers.count)]
            ads.append(
                Ad(
                    id: Self.json("ad-\(100_000 + index)"),
                    title: Self.json(advertiser + " spot \(index % 17)"),
                    creativeId: Self.json("cr-\(String(rng.next() >> 40, radix: 16))"),
                    advertiser: Self.json(advertiser),
                    system: Self.json(["GDFP", "FreeWheel", "SpotX", "Innovid"][rng.below(4)]),
                    duration: [15_000, 15_000, 20_000, 30_000, 30_000, 6_000][rng.below(6)],
                    bitrate: [800_000, 1_200_000, 2_000_000][rng.below(3)]
                ))
        }
        errors = [
            "The operation couldn’t be completed. (CoreMediaErrorDomain error -12660.)",
            "The network connection was lost.",
            "Response code 404 (Not Found) for segment https://cdn.example.com/seg/1234.ts",
            "ExoPlaybackException: Source error, HttpDataSourceException: timeout",
            "MEDIA_ERR_DECODE: \"decoder failed\" on frame 1842",
            "DRM license request failed: 403",
        ].map(Self.json)
        startErrors = [
            "The operation couldn’t be completed. (CoreMediaErrorDomain error -12938.)",
            "Manifest load failed: HTTP 403 Forbidden",
            "MEDIA_ERR_SRC_NOT_SUPPORTED",
            "Geo-blocked: content not available in your region",
            "Entitlement check failed (code=ENT-401)",
        ].map(Self.json)
    }

    /// `text` as a JSON string, quotes included.
    static func json(_ text: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                let hex = Array("0123456789abcdef".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}
