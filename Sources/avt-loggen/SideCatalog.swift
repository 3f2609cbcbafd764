/// The value propositions (Tentacles) and the radio and on-demand audio (Marconi) the
/// generated apps and players pick from, built from the seed.
///
/// As in ``Catalog``, texts are stored already JSON-encoded, so writing a record is a copy.
struct SideCatalog {
    /// One value proposition: `"name":"…"` and `"attrs":{…}`, ready to copy.
    struct Proposition {
        var kind: PropositionKind
        var name: [UInt8]
        var attrs: [UInt8]
        /// How long the user is typically busy with it, in ms (video: its length).
        var length: Int64
    }

    enum PropositionKind: Int, CaseIterable {
        case watchingVideo, browsingCatalog, readingArticle, searchingContent, purchasingSubscription
    }

    /// A song: `"title":…,"artist":…,"album":…,"artwork":…` (no braces).
    struct Song {
        var fields: [UInt8]
        var duration: Int64
    }

    /// An on-demand item: the whole `"meta":{…}` member, kind `digital`.
    struct DigitalItem {
        var meta: [UInt8]
        var duration: Int64
    }

    var propositions: [[Proposition]] = []
    var songs: [Song] = []
    /// `,"station":"…","kind":"live"}` to close a live item's meta.
    var stations: [[UInt8]] = []
    var digitalItems: [DigitalItem] = []
    var radioErrors: [[UInt8]] = []
    var triggers: [[UInt8]] = []

    static let languages = ["en", "es", "de", "fr", "pt", "it", "nl", "ja"]
    static let sections = ["series", "movies", "kids", "sports", "news", "live", "documentaries", "my-list"]

    init(rng: inout SplitMix64, catalog: Catalog) {
        // Triggers, by index: 0 is "none" (Tentacles' default, `clicked`), then these.
        triggers = ["", "clicked", "automatically", "userBack", "errorShown", "deepLink", "timeout"].map(Catalog.json)

        var videos: [Proposition] = []
        for index in 0..<400 {
            let content = catalog.contents[index % catalog.contents.count]
            var attrs = Array("\"attrs\":{\"videoName\":".utf8) + content.title
            attrs += ",\"videoId\":\"v-\(10_000 + index)\",\"language\":".utf8
            attrs += Catalog.json(Self.languages[rng.weighted([40, 20, 10, 10, 8, 5, 4, 3])])
            if content.duration > 0 {
                // Whole seconds mostly; now and then a float, which the session key compares as equal.
                if rng.chance(perMille: 150) {
                    attrs += ",\"duration\":\(content.duration / 1000).0".utf8
                } else {
                    attrs += ",\"duration\":\(content.duration / 1000)".utf8
                }
            } else {
                attrs += ",\"live\":true".utf8
            }
            attrs += "}".utf8
            let length = content.duration > 0 ? content.duration : rng.between(300_000...3_600_000)
            videos.append(
                Proposition(
                    kind: .watchingVideo, name: Array("\"name\":\"watchingVideo\"".utf8), attrs: attrs, length: length))
        }
        var browsing: [Proposition] = []
        for section in Self.sections {
            for layout in ["grid", "rail"] {
                // A nested filter (value-proposition attributes may nest), its keys in another
                // order on rails, so that only comparing them as JSON values finds the same one.
                let filters =
                    layout == "grid"
                    ? "{\"sort\":\"popular\",\"sections\":[\"\(section)\"]}"
                    : "{\"sections\":[\"\(section)\"],\"sort\":\"popular\"}"
                let attrs = "\"attrs\":{\"section\":\"\(section)\",\"layout\":\"\(layout)\",\"filters\":\(filters)}"
                browsing.append(
                    Proposition(
                        kind: .browsingCatalog, name: Array("\"name\":\"browsingCatalog\"".utf8),
                        attrs: Array(attrs.utf8),
                        length: 90_000))
            }
        }
        var articles: [Proposition] = []
        let categories = ["sports", "culture", "tech", "world", "local", "business"]
        for index in 0..<300 {
            var attrs = Array("\"attrs\":{\"articleId\":\(70_000 + index * 7),\"category\":".utf8)
            attrs += Catalog.json(categories[rng.below(categories.count)])
            attrs += ",\"premium\":\(rng.chance(perMille: 200))}".utf8
            articles.append(
                Proposition(
                    kind: .readingArticle, name: Array("\"name\":\"readingArticle\"".utf8), attrs: attrs,
                    length: rng.between(20_000...420_000)))
        }
        var searches: [Proposition] = []
        let queries = [
            "harbor lights", "café noir", "los años dorados", "mørke skoger", "tokyo 東京", "cold case", "garden",
            "\"night shift\"", "kids, animation", "live football", "orbit s2", "zürich",
        ]
        for query in queries {
            var attrs = Array("\"attrs\":{\"query\":".utf8) + Catalog.json(query)
            attrs += ",\"source\":\"searchBar\"}".utf8
            searches.append(
                Proposition(
                    kind: .searchingContent, name: Array("\"name\":\"searchingContent\"".utf8), attrs: attrs,
                    length: 25_000))
        }
        var purchases: [Proposition] = []
        for (plan, price) in [("monthly", "9.99"), ("annual", "99.9"), ("family", "14.99"), ("sports-pass", "29.5")] {
            for currency in ["EUR", "USD", "GBP"] {
                // `currency` and `Currency`: keys that the capitalise-keys middleware makes one.
                let attrs =
                    "\"attrs\":{\"plan\":\"\(plan)\",\"price\":\(price),\"currency\":\"\(currency)\",\"Currency\":\"\(currency.lowercased())\"}"
                purchases.append(
                    Proposition(
                        kind: .purchasingSubscription, name: Array("\"name\":\"purchasingSubscription\"".utf8),
                        attrs: Array(attrs.utf8), length: 60_000))
            }
        }
        propositions = [videos, browsing, articles, searches, purchases]

        // Songs: titles and artists from word lists, some with commas, quotes and accents.
        let adjectives = [
            "Blue", "Night", "Golden", "Silent", "Electric", "Paper", "Northern", "Wild", "Velvet", "Broken",
            "Summer", "Midnight", "Crystal", "Lonely", "Neon", "Última", "Sweet", "Cold",
        ]
        let nouns = [
            "Drive", "Hour", "Tide", "Heart", "Lights", "River", "Dreams", "Road", "Sky", "Fire", "Canción", "City",
            "Rain", "Garden", "Echo", "Morning, Again", "Waves",
        ]
        let artists = [
            "Ana Lu", "The Rovers", "Kai", "Mira", "DJ Nørd", "Los Hermanos \"Ruiz\"", "Sound Collective", "Élodie",
            "Marcus & The Tides", "Yuki 雪", "Band of Ghosts", "Cardinal, North", "Tessa Vey", "Orquesta Sol",
        ]
        for index in 0..<400 {
            let title = adjectives[rng.below(adjectives.count)] + " " + nouns[rng.below(nouns.count)]
            let artist = artists[rng.below(artists.count)]
            var fields = Array("\"title\":".utf8) + Catalog.json(title)
            fields += ",\"artist\":".utf8 + Catalog.json(artist)
            fields += ",\"album\":".utf8 + Catalog.json("\(nouns[index % nouns.count]) Sessions, Vol. \(1 + index % 5)")
            fields += ",\"artwork\":\"https://img.example.fm/a/\(String(rng.next() >> 24, radix: 16)).jpg\"".utf8
            songs.append(Song(fields: fields, duration: rng.between(150_000...330_000)))
        }
        let stationNames = [
            "WXYZ", "Radio Norte", "Jazz FM 24/7", "Klassik Radio", "Rádio Comercial", "NRJ Berlin", "Cadena Ser",
            "Indie 101.5", "Soul Café", "Lounge, Chill & More", "Rock Antenne", "Radio 東京",
        ]
        stations = stationNames.map {
            Array(",\"station\":".utf8) + Catalog.json($0) + Array(",\"kind\":\"live\"}".utf8)
        }

        // On-demand: podcast episodes, and the songs again as tracks of a streaming service.
        let shows = [
            ("Morning Brief", "Ana Ortega", "PodNet"), ("Tech Talk", "Sam Lee", "PodNet"),
            ("True Crime Files", "J. Marlowe", "Audio Hub"), ("Fútbol Total", "Carlos Ruiz", "Onda Pod"),
            ("The History Hour", "Dr. Helen Park", "Audio Hub"), ("Science, Simply", "Priya N.", "PodNet"),
            ("Kids' Stories", "Aunt Mo", "Family Audio"), ("Wirtschaft kompakt", "Jens Bauer", "Hörwelt"),
        ]
        for index in 0..<240 {
            let show = shows[index % shows.count]
            var meta = Array("\"meta\":{\"title\":".utf8)
            meta += Catalog.json("\(show.0) #\(index / shows.count + 1)")
            meta += ",\"artist\":".utf8 + Catalog.json(show.1)
            meta += ",\"station\":".utf8 + Catalog.json(show.2)
            meta += ",\"kind\":\"digital\"}".utf8
            digitalItems.append(DigitalItem(meta: meta, duration: rng.between(600_000...4_200_000)))
        }
        for song in songs.prefix(200) {
            let meta =
                Array("\"meta\":{".utf8) + song.fields + Array(",\"station\":\"On Demand\",\"kind\":\"digital\"}".utf8)
            digitalItems.append(DigitalItem(meta: meta, duration: song.duration))
        }
        radioErrors = [
            "stream stalled", "The network connection was lost.", "HTTP 503 Service Unavailable",
            "AVPlayerItem failed (AVFoundationErrorDomain -11800)", "ExoPlayer: Source error, unexpected end of stream",
        ].map(Catalog.json)
    }
}
