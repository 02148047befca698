import Foundation
@testable import StickerKit
import Testing
import TestSupport

/// The files a rendition makes (style, format, preset, card) and the full-frame masks are
/// kept in the disk cache beside the results, so a rerun with them need not make them again.
@Suite struct RenditionCacheTests {
    let rendition = StickerRendition(style: StickerStyle(outline: 4), format: .webp(quality: nil), writesCard: true)

    /// The keys of the rendition's files and of the mask for each photo in `folder`.
    private func keys(_ folder: URL) throws -> [(name: String, files: CacheKey, mask: CacheKey)] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let result = CacheKey(content: ContentHash(of: try Data(contentsOf: folder.appendingPathComponent(name))),
                                  fingerprint: PhotoProcessor().fingerprint)
            return (OutputNaming.removingExtension(name), CacheKey(rendering: result, as: try #require(rendition.fingerprint)),
                    CacheKey(rendering: result, as: FullFrameMask.fingerprint))
        }
    }

    /// The rendition files the cache keeps under `key`, if an intact entry holds them.
    private func keptFiles(_ key: CacheKey, in cache: URL) -> StickerRendition.Files? {
        (try? InputFile.read(ResultCache.entryURL(key, in: cache).path)).flatMap(DiskCacheEntry.decodeFiles)
    }

    /// The mask the cache keeps under `key`, if an intact entry holds it.
    private func keptMask(_ key: CacheKey, in cache: URL) -> Data? {
        (try? InputFile.read(ResultCache.entryURL(key, in: cache).path)).flatMap(DiskCacheEntry.decodeMask)
    }

    private func run(_ folder: URL, cache: URL, output: URL, masks: URL) async -> [ManifestItem] {
        let pipeline = BatchPipeline(processor: PhotoProcessor(), cache: ResultCache(directory: cache), outputDirectory: output,
                                     maskDirectory: masks, rendition: rendition)
        var items: [ManifestItem] = []
        _ = await pipeline.run(BatchInputs([.path(folder.path)], rendition: rendition)) { event in
            if case .finished(let item) = event { items.append(item) }
            if case .cached(let item) = event { items.append(item) }
        }
        return items
    }

    /// The first run keeps exactly the files it wrote; the second writes what the cache
    /// holds (entries replaced here by stand-ins, so nothing made anew could pass).
    @Test func aRerunWritesTheKeptFilesAndMasks() async throws {
        let photos = PipelineTests.photoFolder(count: 2)
        let cacheFolder = TestFiles.temporaryFolder("cache")
        let (out1, masks1) = (TestFiles.temporaryFolder("out1"), TestFiles.temporaryFolder("masks1"))
        #expect(await run(photos, cache: cacheFolder, output: out1, masks: masks1).count == 2)
        for (name, filesKey, maskKey) in try keys(photos) {
            let kept = try #require(keptFiles(filesKey, in: cacheFolder))
            #expect(kept.sticker == (try Data(contentsOf: out1.appendingPathComponent(name + ".webp"))))
            #expect(kept.card == (try Data(contentsOf: out1.appendingPathComponent(name + ".card.png"))))
            #expect(keptMask(maskKey, in: cacheFolder) == (try Data(contentsOf: masks1.appendingPathComponent(name + ".png"))))
            let standIn = StickerRendition.Files(sticker: Data("sticker \(name)".utf8), width: 7, height: 5,
                                                 card: Data("card \(name)".utf8))
            try DiskCacheEntry.encode(standIn).write(to: ResultCache.entryURL(filesKey, in: cacheFolder))
            try DiskCacheEntry.encode(mask: Data("mask \(name)".utf8)).write(to: ResultCache.entryURL(maskKey, in: cacheFolder))
        }
        let (out2, masks2) = (TestFiles.temporaryFolder("out2"), TestFiles.temporaryFolder("masks2"))
        let items = await run(photos, cache: cacheFolder, output: out2, masks: masks2)
        #expect(items.count == 2 && items.allSatisfy { $0.status == .cached && $0.width == 7 && $0.height == 5 })
        for (name, _, _) in try keys(photos) {
            #expect(try Data(contentsOf: out2.appendingPathComponent(name + ".webp")) == Data("sticker \(name)".utf8))
            #expect(try Data(contentsOf: out2.appendingPathComponent(name + ".card.png")) == Data("card \(name)".utf8))
            #expect(try Data(contentsOf: masks2.appendingPathComponent(name + ".png")) == Data("mask \(name)".utf8))
        }
    }

    /// A damaged entry is a miss: the files are made again, the same bytes, and kept again.
    @Test(arguments: PipelineTests.EntryDamage.allCases)
    func aDamagedEntryIsMadeAgain(_ damage: PipelineTests.EntryDamage) async throws {
        let photos = PipelineTests.photoFolder(count: 1)
        let cacheFolder = TestFiles.temporaryFolder("cache")
        let (out1, masks1) = (TestFiles.temporaryFolder("out1"), TestFiles.temporaryFolder("masks1"))
        _ = await run(photos, cache: cacheFolder, output: out1, masks: masks1)
        let (name, filesKey, maskKey) = try #require(try keys(photos).first)
        for key in [filesKey, maskKey] {
            let entry = ResultCache.entryURL(key, in: cacheFolder)
            var bytes = try Data(contentsOf: entry)
            damage.apply(to: &bytes)
            try bytes.write(to: entry)
        }
        let (damagedFiles, damagedMask) = (keptFiles(filesKey, in: cacheFolder), keptMask(maskKey, in: cacheFolder))
        #expect(damagedFiles == nil && damagedMask == nil)
        let (out2, masks2) = (TestFiles.temporaryFolder("out2"), TestFiles.temporaryFolder("masks2"))
        #expect(await run(photos, cache: cacheFolder, output: out2, masks: masks2).first?.status == .cached)
        for file in [name + ".webp", name + ".card.png"] {
            let (again, first) = (try Data(contentsOf: out2.appendingPathComponent(file)),
                                  try Data(contentsOf: out1.appendingPathComponent(file)))
            #expect(again == first, "\(file)")
        }
        let mask = try Data(contentsOf: masks2.appendingPathComponent(name + ".png"))
        #expect(mask == (try Data(contentsOf: masks1.appendingPathComponent(name + ".png"))))
        let (filesAgain, maskAgain) = (keptFiles(filesKey, in: cacheFolder), keptMask(maskKey, in: cacheFolder))
        #expect(filesAgain != nil && maskAgain == mask)
    }

    /// Every choice that changes the files changes the fingerprint; the tray icon (made
    /// anew for the first input) does not; a plain PNG sticker has none (nothing is made).
    @Test func theFingerprintNamesEveryChoiceThatChangesTheFiles() {
        #expect(StickerRendition().fingerprint == nil)
        #expect(StickerRendition(writesTrayIcon: false).fingerprint == nil)
        let variants = [
            StickerRendition(style: StickerStyle(outline: 4)),
            StickerRendition(style: StickerStyle(outline: 5)),
            StickerRendition(style: StickerStyle(outline: 4, outlineColor: [0, 0, 0])),
            StickerRendition(style: StickerStyle(outline: 4, shadow: true)),
            StickerRendition(style: StickerStyle(shadow: true)),
            StickerRendition(format: .webp(quality: nil)),
            StickerRendition(format: .webp(quality: 90)),
            StickerRendition(format: .webp(quality: 80)),
            StickerRendition(preset: .telegram),
            StickerRendition(preset: .imessage(size: 300)),
            StickerRendition(preset: .imessage(size: 408)),
            StickerRendition(writesCard: true),
            StickerRendition(style: StickerStyle(outline: 4), writesCard: true),
        ]
        let fingerprints = variants.compactMap(\.fingerprint)
        #expect(fingerprints.count == variants.count && Set(fingerprints).count == variants.count)
        #expect(StickerRendition(preset: .whatsapp, writesTrayIcon: false).fingerprint
                == StickerRendition(preset: .whatsapp).fingerprint)
    }

    /// An entry of one kind is never read as another (a result, a rendition's files, a mask).
    @Test func entriesDecodeOnlyAsTheirOwnKind() throws {
        let files = StickerRendition.Files(sticker: Data([1, 2, 3]), width: 3, height: 1, card: nil)
        let filesEntry = try DiskCacheEntry.encode(files), maskEntry = try DiskCacheEntry.encode(mask: Data([9, 8]))
        #expect(DiskCacheEntry.decodeFiles(filesEntry) == files)
        #expect(DiskCacheEntry.decodeMask(maskEntry) == Data([9, 8]))
        #expect(DiskCacheEntry.decode(filesEntry) == nil && DiskCacheEntry.decode(maskEntry) == nil)
        #expect(DiskCacheEntry.decodeFiles(maskEntry) == nil && DiskCacheEntry.decodeMask(filesEntry) == nil)
    }

    /// An entry whose metadata names lengths its payload does not have (the checksum covers
    /// only the payload) is a miss, however large the numbers.
    @Test(arguments: [(3, 1), (4, 2), (Int.max, 1), (-1, 6), (3, Int.min), (Int.min, Int.max)])
    func lengthsThatDoNotAddUpAreAMiss(sticker: Int, card: Int) throws {
        let files = StickerRendition.Files(sticker: Data([1, 2, 3]), width: 3, height: 1, card: Data([4, 5]))
        let entry = try DiskCacheEntry.encode(files)
        let header = 6 + 8
        let length = entry[6..<header].reduce(0) { $0 << 8 | Int($1) }
        let json = String(decoding: entry[header..<header + length], as: UTF8.self)
        #expect(json.contains("\"sticker\":3") && json.contains("\"card\":2"))
        let lying = Data(json.replacingOccurrences(of: "\"sticker\":3", with: "\"sticker\":\(sticker)")
            .replacingOccurrences(of: "\"card\":2", with: "\"card\":\(card)").utf8)
        var forged = entry.prefix(6)
        forged.append(contentsOf: (0..<8).reversed().map { UInt8(truncatingIfNeeded: lying.count >> ($0 * 8)) })
        forged.append(lying)
        forged.append(entry[(header + length)...])
        #expect(DiskCacheEntry.decodeFiles(forged) == nil)
    }

    /// A result entry whose metadata names sizes no photo could have (edited by hand: the
    /// checksum covers only the PNG) is a miss, not a trap or an exabyte mask.
    @Test(arguments: [(["sourceWidth"], Forged.integer(Int.max)), (["sourceHeight"], .integer(0)), (["scale"], .real(1e300)),
                      (["scale"], .real(-1)), (["crop", "x"], .integer(Int.min)), (["crop", "width"], .integer(0)),
                      (["width"], .integer(-3))])
    func resultEntriesWithSizesNoPhotoHasAreAMiss(field: [String], forged: Forged) async throws {
        let scene = Scene(width: 160, height: 120, background: .gradient([230, 226, 220], [190, 186, 180]),
                          shapes: [(.disc(x: 80, y: 60, radius: 30), [200, 40, 40])])
        let result = CachedResult(try await PhotoProcessor().process(TestFiles.png(scene.render().image)))
        let entry = try DiskCacheEntry.encode(result)
        #expect(DiskCacheEntry.decode(entry) == result)
        let header = 6 + 8
        let length = entry[6..<header].reduce(0) { $0 << 8 | Int($1) }
        var envelope = try #require(JSONSerialization.jsonObject(with: entry[header..<header + length]) as? [String: Any])
        var metadata = try #require(envelope["result"] as? [String: Any])
        if field.count == 2 {
            var inner = try #require(metadata[field[0]] as? [String: Any])
            inner[field[1]] = forged.value
            metadata[field[0]] = inner
        } else {
            metadata[field[0]] = forged.value
        }
        envelope["result"] = metadata
        let lying = try JSONSerialization.data(withJSONObject: envelope)
        var forged = entry.prefix(6)
        forged.append(contentsOf: (0..<8).reversed().map { UInt8(truncatingIfNeeded: lying.count >> ($0 * 8)) })
        forged.append(lying)
        forged.append(entry[(header + length)...])
        #expect(DiskCacheEntry.decode(forged) == nil, "\(String(decoding: lying, as: UTF8.self))")
    }

    /// A number written into a forged entry's metadata.
    enum Forged: Sendable {
        case integer(Int), real(Double)

        var value: Any {
            switch self {
            case .integer(let value): value
            case .real(let value): value
            }
        }
    }
}
