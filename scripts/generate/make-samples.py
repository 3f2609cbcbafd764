#!/usr/bin/env python3
"""Writes the bundled sample logs in samples/ (deterministic: run it again, get the same bytes).

The samples are small, hand-written OpenAVT sessions that exercise what the reports show:
- ios-7f3a9c: content with pre-, mid- and post-roll ads (tracker 0 content, tracker 1 ads);
- android-42d1: pauses, a seek, rebuffers, quality changes, a mid-stream error, then a
  second playback on the same tracker (its MediaRequest and StreamLoad are rejected);
- web-c0ffee: an exit before start; web-0bad: a start failure;
- tv-5e11: a playback that continues from the 07h file into the 08h file, with a record
  that arrives late in the 08h file, which is two gzip members.
Records of the first two instruments interleave in the 07h file.

Value propositions (Tentacles) and app lifecycle, in the same files:
- app a-7f3a9c: watching a video with a pause, completed; browsing the catalog, cut by a
  background/foreground cycle (canceled, then restored under a new id) and completed; reading
  an article with a prohibited change (pause before start), left open when the log ends;
- app a-42d1: a video canceled, then a `complete` with no open session;
- app a-5e11: a video opened in the 07h file and completed in the 08h file.

Marconi players, in the same files:
- radio-1: a live station with metadata changes (one repeated), a rebuffer, an error and
  the recovery, continuing from the 07h file into the 08h file;
- pod-7: an on-demand item with progress, then a track change to the next episode.
"""
import gzip
import json
import pathlib

HOUR7 = 1763622000000  # 2025-11-20T07:00:00Z
SRC = "https://cdn.example/v/{}.m3u8"


def content(ms, instrument, action, **attrs):
    attrs.setdefault("isAdsTracker", False)
    return (ms, {"ts": ms, "instrument": instrument, "tracker": 0, "action": action, "attrs": attrs})


def ad(ms, instrument, action, **attrs):
    attrs.setdefault("isAdsTracker", True)
    return (ms, {"ts": ms, "instrument": instrument, "tracker": 1, "action": action, "attrs": attrs})


def ios_with_ads(t):
    i = "ios-7f3a9c"
    meta = dict(title="Episode 42", source=SRC.format(42), duration=1800000)
    ads = lambda roll: dict(adRoll=roll, adTitle="Spring sale", adDuration=15000)
    return [
        content(t + 0, i, "MediaRequest", **meta, position=0),
        content(t + 40, i, "PlayerSet", **meta, position=0),
        content(t + 180, i, "StreamLoad", **meta, position=0),
        content(t + 200, i, "BufferBegin", **meta, position=0),
        ad(t + 450, i, "AdBreakBegin", **ads("pre")),
        ad(t + 500, i, "AdBegin", **ads("pre"), adPosition=0),
        ad(t + 4250, i, "AdFirstQuartile", **ads("pre"), adPosition=3750),
        ad(t + 8000, i, "AdSecondQuartile", **ads("pre"), adPosition=7500),
        ad(t + 11750, i, "AdThirdQuartile", **ads("pre"), adPosition=11250),
        ad(t + 15500, i, "AdFinish", **ads("pre"), adPosition=15000),
        ad(t + 15520, i, "AdBreakFinish", **ads("pre")),
        content(t + 16100, i, "BufferFinish", **meta, position=0),
        content(t + 16150, i, "Start", **meta, position=0, bitrate=2400000, resolutionWidth=1280, resolutionHeight=720),
        content(t + 46150, i, "Ping", **meta, position=30000),
        content(t + 52000, i, "QualityChangeUp", **meta, position=35850, bitrate=4800000, resolutionWidth=1920, resolutionHeight=1080),
        content(t + 76150, i, "Ping", **meta, position=60000),
        ad(t + 90000, i, "AdBreakBegin", **ads("mid")),
        content(t + 90000, i, "PauseBegin", **meta, position=73850),
        ad(t + 90100, i, "AdBegin", **ads("mid"), adPosition=0),
        ad(t + 97000, i, "AdPauseBegin", **ads("mid"), adPosition=6900),
        ad(t + 101000, i, "AdPauseFinish", **ads("mid"), adPosition=6900),
        ad(t + 109200, i, "AdFinish", **ads("mid"), adPosition=15000),
        ad(t + 109300, i, "AdBegin", **ads("mid"), adPosition=0),
        ad(t + 124300, i, "AdFinish", **ads("mid"), adPosition=15000),
        ad(t + 124350, i, "AdBreakFinish", **ads("mid")),
        content(t + 124400, i, "PauseFinish", **meta, position=73850),
        content(t + 154400, i, "Ping", **meta, position=103850),
        content(t + 170000, i, "PauseBegin", **meta, position=119450),
        content(t + 185000, i, "PauseFinish", **meta, position=119450),
        content(t + 215000, i, "Ping", **meta, position=149450),
        content(t + 236000, i, "End", **meta, position=170450),
        ad(t + 236100, i, "AdBreakBegin", **ads("post")),
        ad(t + 236200, i, "AdBegin", **ads("post"), adPosition=0),
        ad(t + 251200, i, "AdFinish", **ads("post"), adPosition=15000),
        ad(t + 251250, i, "AdBreakFinish", **ads("post")),
    ]


def android_content(t):
    i = "android-42d1"
    m1 = dict(title="Live match", source=SRC.format("match-7"), duration=5400000)
    m2 = dict(title="Highlights", source=SRC.format("hl-7"), duration=300000)
    return [
        content(t + 0, i, "MediaRequest", **m1),
        content(t + 120, i, "PlayerSet", **m1),
        content(t + 300, i, "StreamLoad", **m1),
        content(t + 310, i, "BufferBegin", **m1, position=0),
        content(t + 1900, i, "BufferFinish", **m1, position=0),
        content(t + 1950, i, "Start", **m1, position=0, bitrate=1200000),
        content(t + 20000, i, "BufferBegin", **m1, position=18050),
        content(t + 22500, i, "BufferFinish", **m1, position=18050),
        content(t + 22600, i, "QualityChangeDown", **m1, position=18150, bitrate=800000),
        content(t + 31950, i, "Ping", **m1, position=27500),
        content(t + 40000, i, "PauseBegin", **m1, position=35550),
        content(t + 43000, i, "BufferBegin", **m1, position=35550),
        content(t + 44000, i, "BufferFinish", **m1, position=35550),
        content(t + 52000, i, "PauseFinish", **m1, position=35550),
        content(t + 60000, i, "SeekBegin", **m1, position=43550),
        content(t + 60050, i, "BufferBegin", **m1, position=600000),
        content(t + 61250, i, "BufferFinish", **m1, position=600000),
        content(t + 61300, i, "SeekFinish", **m1, position=600000),
        content(t + 75000, i, "QualityChangeUp", **m1, position=613700, bitrate=1200000),
        content(t + 90000, i, "BufferBegin", **m1, position=628700),
        content(t + 93500, i, "BufferFinish", **m1, position=628700),
        content(t + 95000, i, "Error", **m1, position=630200, errorDescription="HTTP 503 on segment 812"),
        content(t + 96000, i, "Stop", **m1, position=631200),
        content(t + 120000, i, "MediaRequest", **m2),
        content(t + 120200, i, "StreamLoad", **m2),
        content(t + 121000, i, "Start", **m2, position=0, bitrate=2400000),
        content(t + 151000, i, "Ping", **m2, position=30000),
        content(t + 170000, i, "SeekBegin", **m2, position=49000),
        content(t + 170900, i, "SeekFinish", **m2, position=240000),
        content(t + 200000, i, "Ping", **m2, position=269100),
        content(t + 230900, i, "End", **m2, position=300000),
    ]


def web_exits(t):
    return [
        content(t + 0, "web-c0ffee", "MediaRequest", title="Trailer", source=SRC.format("trailer-3")),
        content(t + 90, "web-c0ffee", "PlayerSet", title="Trailer", source=SRC.format("trailer-3")),
        content(t + 400, "web-c0ffee", "StreamLoad", title="Trailer", source=SRC.format("trailer-3")),
        content(t + 420, "web-c0ffee", "BufferBegin", title="Trailer", source=SRC.format("trailer-3"), position=0),
        content(t + 6200, "web-c0ffee", "Stop", title="Trailer", source=SRC.format("trailer-3"), position=0),
        content(t + 1000, "web-0bad", "MediaRequest", title="Documentary", source=SRC.format("doc-1")),
        content(t + 1350, "web-0bad", "StreamLoad", title="Documentary", source=SRC.format("doc-1")),
        content(t + 1400, "web-0bad", "BufferBegin", title="Documentary", source=SRC.format("doc-1"), position=0),
        content(t + 9400, "web-0bad", "Error", title="Documentary", source=SRC.format("doc-1"), errorDescription="DRM license request failed"),
    ]


def tv_across_hours(t):
    i = "tv-5e11"
    m = dict(title="Film \"Night, Day\"", source=SRC.format("film-9"), duration=6000000)
    records = [
        content(t + 0, i, "MediaRequest", **m),
        content(t + 500, i, "StreamLoad", **m),
        content(t + 520, i, "BufferBegin", **m, position=0),
        content(t + 2520, i, "BufferFinish", **m, position=0),
        content(t + 2600, i, "Start", **m, position=0, bitrate=6000000),
    ]
    position = 0
    for k in range(1, 45):  # a Ping every 30 s, from 07:57 into 08:19
        position += 30000
        records.append(content(t + 2600 + 30000 * k, i, "Ping", **m, position=position))
    records.append(content(t + 1500000, i, "End", **m, position=1497400))
    return records


def vp(ms, app, name, action, attrs=None, trigger=None, action_attrs=None):
    record = {"ts": ms, "type": "vp", "app": app, "name": name, "action": action}
    if attrs is not None:
        record["attrs"] = attrs
    if trigger is not None:
        record["trigger"] = trigger
    if action_attrs is not None:
        record["actionAttrs"] = action_attrs
    return (ms, record)


def lifecycle(ms, app, event):
    return (ms, {"ts": ms, "type": "app", "app": app, "event": event})


def value_propositions(t):
    a = "a-7f3a9c"
    video = {"videoName": "Episode 42", "language": "en", "duration": 1800}
    catalog = {"section": "series"}
    article = {"articleId": 7}
    b = "a-42d1"
    match = {"videoName": "Live match", "language": "es", "duration": 5400.0}
    return [
        vp(t + 0, a, "watchingVideo", "open", video),
        vp(t + 16150, a, "watchingVideo", "start", video, trigger="automatically"),
        vp(t + 90000, a, "watchingVideo", "pause", video, action_attrs={"position": 73.85}),
        vp(t + 124400, a, "watchingVideo", "start", video),
        vp(t + 236000, a, "watchingVideo", "complete", video, trigger="automatically"),
        vp(t + 260000, a, "browsingCatalog", "open", catalog),
        vp(t + 262000, a, "browsingCatalog", "start", catalog),
        lifecycle(t + 300000, a, "willResignActive"),
        lifecycle(t + 420000, a, "didBecomeActive"),
        vp(t + 480000, a, "browsingCatalog", "complete", catalog),
        vp(t + 500000, a, "readingArticle", "open", article),
        vp(t + 501000, a, "readingArticle", "pause", article),
        vp(t + 503000, a, "readingArticle", "start", article),
        vp(t + 30000, b, "watchingVideo", "open", match),
        vp(t + 31950, b, "watchingVideo", "start", match),
        vp(t + 126000, b, "watchingVideo", "cancel", match, trigger="errorShown"),
        vp(t + 127000, b, "watchingVideo", "complete", match),
    ]


def value_proposition_across_hours(t):
    c = "a-5e11"
    film = {"videoName": "Film \"Night, Day\"", "language": "fr"}
    return [
        vp(t + 0, c, "watchingVideo", "open", film),
        vp(t + 2600, c, "watchingVideo", "start", film),
        vp(t + 400000, c, "watchingVideo", "pause", film),
        vp(t + 460000, c, "watchingVideo", "start", film),
        vp(t + 1500000, c, "watchingVideo", "complete", film),
    ]


def marconi(ms, player, event, meta=None, progress=None, error=None):
    record = {"ts": ms, "type": "marconi", "player": player, "event": event}
    if meta is not None:
        record["meta"] = meta
    if progress is not None:
        record["progress"] = progress
    if error is not None:
        record["error"] = error
    return (ms, record)


def radio(t):
    p = "radio-1"
    song = lambda title, artist: {"title": title, "artist": artist, "station": "WXYZ", "kind": "live"}
    a, b, c, d = song("Blue", "Ana Lu"), song("Night Drive", "The Rovers"), song("Morning, Again", "Kai"), song("Tide", "Mira")
    return [
        marconi(t + 0, p, "bufferingStarted"),
        marconi(t + 800, p, "bufferingEnded", meta=a),
        marconi(t + 1000, p, "startPlaying"),
        marconi(t + 180000, p, "newMeta", meta=b),
        marconi(t + 185000, p, "newMeta", meta=b),
        marconi(t + 300000, p, "bufferingStarted"),
        marconi(t + 302500, p, "bufferingEnded", meta=b),
        marconi(t + 420000, p, "newMeta", meta=c),
        marconi(t + 500000, p, "error", error="stream stalled"),
        marconi(t + 505000, p, "bufferingStarted"),
        marconi(t + 506000, p, "bufferingEnded", meta=c),
    ] + [
        marconi(t + 600000 + 240000 * k, p, "newMeta", meta=[d, a, b][k % 3]) for k in range(15)
    ]


def podcast(t):
    p = "pod-7"
    e12 = {"title": "Episode 12", "artist": "Host", "station": "PodNet", "kind": "digital"}
    e13 = {"title": "Episode 13", "artist": "Host", "station": "PodNet", "kind": "digital"}
    records = [marconi(t + 0, p, "bufferingStarted"), marconi(t + 1200, p, "bufferingEnded", meta=e12)]
    for k in range(1, 7):
        records.append(marconi(t + 1200 + 10000 * k, p, "progress", progress=10.0 * k - 0.5))
    records.append(marconi(t + 70000, p, "trackChanged", meta=e13))
    for k in range(1, 4):
        records.append(marconi(t + 70000 + 10000 * k, p, "progress", progress=10.0 * k))
    return records


def write(path, records, late=(), members=1):
    """Writes records sorted by time, except those in `late`, which come last (a late batch),
    as `members` gzip members one after the other (as a log appended to after rotation)."""
    ordered = sorted((r for r in records if r[0] not in late), key=lambda r: r[0]) + [r for r in records if r[0] in late]
    lines = [json.dumps(r[1], separators=(",", ":")) + "\n" for r in ordered]
    size = -(-len(lines) // members)
    with open(path, "wb") as raw:
        for start in range(0, len(lines), size):
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                gz.write("".join(lines[start:start + size]).encode())


def main():
    out = pathlib.Path(__file__).resolve().parents[2] / "samples"
    out.mkdir(exist_ok=True)
    tv = tv_across_hours(HOUR7 + 57 * 60000)
    hour8 = HOUR7 + 3600000
    tv += value_proposition_across_hours(HOUR7 + 57 * 60000)
    tv += radio(HOUR7 + 10 * 60000)
    tv7 = [r for r in tv if r[0] < hour8]
    tv8 = [r for r in tv if r[0] >= hour8]
    late = {tv8[2][0]}  # one 08h record uploaded after the ones that follow it
    hour7 = ios_with_ads(HOUR7 + 5 * 60000) + android_content(HOUR7 + 5 * 60000 + 30000) + web_exits(HOUR7 + 20 * 60000) + tv7
    hour7 += value_propositions(HOUR7 + 5 * 60000) + podcast(HOUR7 + 40 * 60000)
    write(out / "avt-2025112007.jsonl.gz", hour7)
    write(out / "avt-2025112008.jsonl.gz", tv8, late=late, members=2)


if __name__ == "__main__":
    main()
