import Foundation
import StickerKit
import Testing
import TestSupport

/// The command run end to end as a user runs it: the built binary, real files, exit codes.
@Suite struct CommandLineTests {
    let runner = CommandRunner()

    /// A folder of `count` distinct generated JPEG photos.
    static func photos(_ count: Int, size: Int = 160) -> URL {
        let folder = TestFiles.temporaryFolder("cli-photos")
        for index in 0..<count {
            let color = SIMD3<Float>(Float(30 + index * 23 % 200), Float(80 + index * 11 % 100), 170)
            let disc = Scene.Shape.disc(x: Double(size) / 2, y: Double(size) * 0.37, radius: Double(size) / 5 + Double(index % 5))
            var scene = Scene(width: size, height: size * 3 / 4, background: .gradient([235, 230, 222], [200, 196, 190]),
                              shapes: [(disc, color)])
            scene.seed = UInt64(index + 1)
            try? TestFiles.jpeg(scene.render().image).write(to: folder.appendingPathComponent(String(format: "p%03d.jpg", index)))
        }
        return folder
    }

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func helpMatchesTheGoldenFile() throws {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/help.txt")
        let result = try runner.run(["--help"])
        #expect(result.status == 0)
        // The default job count is this machine's; the golden file says N.
        let help = result.standardOutput.replacingOccurrences(of: "here \(AvailableProcessors.count))", with: "here N)")
        #expect(help == (try String(contentsOf: golden, encoding: .utf8)))
    }

    /// Pinned to one CPU (`taskset`, as a container's cpuset pins a job), the default is one
    /// photo at a time, not the machine's core count.
    @Test func theDefaultJobCountIsTheCPUsTheProcessMayUse() throws {
        let taskset = "/usr/bin/taskset"
        try #require(FileManager.default.isExecutableFile(atPath: taskset), "taskset (util-linux) is missing")
        // The first CPU this process may use (a CI container may be pinned to others than 0).
        let allowed = try String(contentsOfFile: "/proc/self/status", encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("Cpus_allowed_list:") }?.dropFirst("Cpus_allowed_list:".count)
        let cpu = try #require(allowed?.split(whereSeparator: { !$0.isNumber }).first)
        let pinned = try CommandRunner(executable: URL(fileURLWithPath: taskset)).run(["-c", String(cpu), runner.executable.path, "--help"])
        #expect(pinned.status == 0, "\(pinned.standardError)")
        #expect(pinned.standardOutput.contains("(default: the CPUs this process may use, here 1)"), "\(pinned.standardOutput)")
    }

    @Test func folderThenRerunIsAllCached() throws {
        let photos = Self.photos(4)
        let out = TestFiles.temporaryFolder("cli-out")
        // A cache folder that does not exist yet, two levels deep.
        let cache = TestFiles.temporaryFolder("cli-cache").appendingPathComponent("new/cache")
        let first = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--json"])
        #expect(!first.standardError.contains("warning"), "\(first.standardError)")
        #expect(first.status == 0, "\(first.standardError)")
        let lines = try jsonLines(first.standardOutput)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { $0["status"] as? String == "ok" && ($0["palette"] as? [Any])?.isEmpty == false })
        for index in 0..<4 {
            let sticker = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent(String(format: "p%03d.png", index))))
            #expect(sticker.declaresAlpha && sticker.image.width < 160)
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest.items.map(\.output) == (0..<4).map { String(format: "p%03d.png", $0) })
        let confidences = Dictionary(uniqueKeysWithValues: lines.map { ($0["output"] as? String ?? "", $0["confidence"] as? Double) })
        #expect(confidences.values.allSatisfy { ($0 ?? 0) > 0.5 && ($0 ?? 0) <= 1 }, "\(confidences)")
        let second = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--json"])
        #expect(second.status == 0)
        let cachedLines = try jsonLines(second.standardOutput)
        #expect(cachedLines.allSatisfy { $0["status"] as? String == "cached" })
        #expect(cachedLines.allSatisfy { $0["confidence"] as? Double == confidences[$0["output"] as? String ?? ""] ?? nil },
                "the cache keeps each sticker's confidence")
        #expect(second.standardError.contains("4 photos: 0 new, 4 cached, 0 failed"))
    }

    /// The manifest records the outputs, not the run: computed or cached, the same bytes,
    /// without the timings `--json` reports.
    @Test func aRerunWritesTheSameManifestByteForByte() throws {
        let photos = Self.photos(3)
        let out = TestFiles.temporaryFolder("cli-out"), cache = TestFiles.temporaryFolder("cli-cache")
        let manifest = out.appendingPathComponent("manifest.json")
        let first = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--json"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try jsonLines(first.standardOutput).allSatisfy { $0["timings"] != nil && $0["ms"] != nil })
        let written = try Data(contentsOf: manifest)
        let firstInode = try FileManager.default.attributesOfItem(atPath: manifest.path)[.systemFileNumber] as? Int
        let second = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--json"])
        #expect(second.status == 0 && second.standardError.contains("3 photos: 0 new, 3 cached, 0 failed"))
        #expect(try jsonLines(second.standardOutput).allSatisfy { $0["status"] as? String == "cached" })
        #expect(try Data(contentsOf: manifest) == written)
        #expect(try FileManager.default.attributesOfItem(atPath: manifest.path)[.systemFileNumber] as? Int == firstInode,
                "an identical manifest is left as it was, not replaced")
        let text = String(decoding: written, as: UTF8.self)
        #expect(!text.contains("\"timings\"") && !text.contains("\"ms\"") && !text.contains("\"cached\""), "\(text)")
        #expect(try JSONDecoder().decode(Manifest.self, from: written).items.map(\.status) == [.ok, .ok, .ok])
    }

    @Test func aCacheOverItsLimitIsTrimmedAfterTheRun() throws {
        let photos = Self.photos(3)
        let cache = TestFiles.temporaryFolder("cli-cache")
        func entries() -> [String] {
            (FileManager.default.enumerator(atPath: cache.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".stk") }
        }
        let first = try runner.run([photos.path, "--out", TestFiles.temporaryFolder("cli-out").path, "--cache", cache.path])
        #expect(first.status == 0 && entries().count == 3, "\(first.standardError)")
        // A limit under one entry: the next run that adds to the cache leaves none of it.
        try FileManager.default.copyItem(at: Self.photos(4).appendingPathComponent("p003.jpg"),
                                         to: photos.appendingPathComponent("p003.jpg"))
        let second = try runner.run([photos.path, "--out", TestFiles.temporaryFolder("cli-out").path, "--cache", cache.path,
                                     "--cache-limit", "1K"])
        #expect(second.status == 0 && second.standardError.contains("4 photos: 1 new, 3 cached, 0 failed"),
                "\(second.standardError)")
        #expect(entries().isEmpty)
        let third = try runner.run([photos.path, "--out", TestFiles.temporaryFolder("cli-out").path, "--cache", cache.path,
                                    "--cache-limit", "0"])
        #expect(third.standardError.contains("4 photos: 4 new, 0 cached, 0 failed"), "\(third.standardError)")
        #expect(entries().count == 4)
    }

    @Test func pruneRemovesWhatOnlyAnEarlierRunWrote() throws {
        let photos = Self.photos(3)
        let out = TestFiles.temporaryFolder("cli-out")
        let masks = TestFiles.temporaryFolder("cli-masks")
        let first = try runner.run([photos.path, "--out", out.path, "--mask", masks.path, "--card", "--no-cache"])
        #expect(first.status == 0, "\(first.standardError)")
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        // One photo gone, one now unreadable (its old outputs stay: it is still an input).
        try FileManager.default.removeItem(at: photos.appendingPathComponent("p001.jpg"))
        try Data("not an image".utf8).write(to: photos.appendingPathComponent("p002.jpg"))
        let second = try runner.run([photos.path, "--out", out.path, "--mask", masks.path, "--card", "--no-cache", "--prune"])
        #expect(second.status == 1)
        #expect(second.standardError.contains("2 photos: 1 new, 0 cached, 1 failed in ")
                && second.standardError.hasSuffix(" s; removed 2 stale outputs\n"), "\(second.standardError)")
        let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(remaining == ["p000.png", "p000.card.png", "p002.png", "p002.card.png", "notes.txt", "manifest.json"])
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: masks.path)) == ["p000.png", "p002.png"])
        // Without --prune nothing goes.
        try FileManager.default.removeItem(at: photos.appendingPathComponent("p002.jpg"))
        _ = try runner.run([photos.path, "--out", out.path, "--card", "--no-cache"])
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("p002.png").path))
    }

    @Test func aPhotoNamedAsLongAsNamesGoGetsItsStickerCardAndMask() throws {
        let photos = Self.photos(1)
        let long = String(repeating: "n", count: 251)
        try FileManager.default.moveItem(at: photos.appendingPathComponent("p000.jpg"),
                                         to: photos.appendingPathComponent(long + ".jpg"))
        let out = TestFiles.temporaryFolder("cli-out"), masks = TestFiles.temporaryFolder("cli-masks")
        let result = try runner.run([photos.path, "--out", out.path, "--mask", masks.path, "--card", "--no-cache"])
        #expect(result.status == 0, "\(result.standardError)")
        let stem = String(repeating: "n", count: 246)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
                == [stem + ".png", stem + ".card.png", "manifest.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: masks.path) == [stem + ".png"])
        let sticker = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent(stem + ".png")))
        #expect(sticker.declaresAlpha && sticker.image.width > 0)
    }

    @Test func aFolderWhoseEscapedNameOutgrowsNamesGetsItsStickers() throws {
        let photos = Self.photos(1)
        // 70 Latin-1 bytes: a name the file system takes, escaped as `\xE9` 280 characters.
        let folder = RawPath(photos.path).appending([UInt8](repeating: 0xE9, count: 70))
        try #require(folder.withCString { mkdir($0, 0o755) } == 0)
        try #require(RawPath(photos.appendingPathComponent("p000.jpg").path).withCString { source in
            folder.appending(Array("p000.jpg".utf8)).withCString { rename(source, $0) }
        } == 0)
        let out = TestFiles.temporaryFolder("cli-out")
        let result = try runner.run([photos.path, "--out", out.path, "--card", "--no-cache"])
        #expect(result.status == 0, "\(result.standardError)")
        let cut = String(String(repeating: "\\xE9", count: 70).utf8.prefix(255))!
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent(cut).path).sorted()
                == ["p000.card.png", "p000.png"])
    }

    @Test func maskFolderGetsFullFrameMasks() throws {
        let photos = Self.photos(2)
        let out = TestFiles.temporaryFolder("cli-out"), masks = TestFiles.temporaryFolder("cli-masks").appendingPathComponent("new")
        let result = try runner.run([photos.path, "--out", out.path, "--mask", masks.path, "--no-cache", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let item = try #require(try jsonLines(result.standardOutput).first { $0["output"] as? String == "p000.png" })
        let mask = try ImageDecoder.decode(Data(contentsOf: masks.appendingPathComponent("p000.png")))
        #expect(mask.image.width == 160 && mask.image.height == 120, "full frame at scale 1")
        let sticker = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent("p000.png"))).image
        let crop = try #require(item["crop"] as? [String: Int])
        let (x, y) = (crop["x"]! + sticker.width / 2, crop["y"]! + sticker.height / 2)
        #expect(mask.image.pixels[(y * 160 + x) * 4] == sticker.pixels[((sticker.height / 2) * sticker.width + sticker.width / 2) * 4 + 3])
        #expect(mask.image.pixels[0] == 0, "outside the subject is transparent")
    }

    /// `--no-crop`: each sticker is the whole photo, its alpha the full-frame mask; it is
    /// cached apart from the cropped sticker of the same photo.
    @Test func noCropKeepsThePhotosFrame() throws {
        let photos = Self.photos(2)
        let out = TestFiles.temporaryFolder("cli-out"), masks = TestFiles.temporaryFolder("cli-masks")
        let cache = TestFiles.temporaryFolder("cli-cache")
        let framed = try runner.run([photos.path, "--out", out.path, "--mask", masks.path, "--cache", cache.path,
                                     "--no-crop", "--json"])
        #expect(framed.status == 0, "\(framed.standardError)")
        let items = try jsonLines(framed.standardOutput)
        #expect(items.count == 2 && items.allSatisfy { $0["status"] as? String == "ok" })
        for item in items {
            #expect(item["crop"] as? [String: Int] == ["x": 0, "y": 0, "width": 160, "height": 120])
            #expect(item["width"] as? Int == 160 && item["height"] as? Int == 120 && item["scale"] as? Double == 1)
            let name = try #require(item["output"] as? String)
            let sticker = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent(name))).image
            let mask = try ImageDecoder.decode(Data(contentsOf: masks.appendingPathComponent(name))).image
            #expect(sticker.width == 160 && sticker.height == 120)
            #expect((0..<sticker.pixelCount).allSatisfy { sticker.pixels[$0 * 4 + 3] == mask.pixels[$0 * 4] },
                    "the sticker's alpha is the full-frame mask")
            #expect(sticker.pixels[3] == 0 && sticker.pixels[(60 * 160 + 80) * 4 + 3] == 255)
        }

        let cropped = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--json"])
        #expect(try jsonLines(cropped.standardOutput).allSatisfy {
            $0["status"] as? String == "ok" && ($0["width"] as? Int ?? 160) < 160
        }, "a cropped sticker is not served from the whole-frame one's entry")
        let again = try runner.run([photos.path, "--out", out.path, "--cache", cache.path, "--no-crop", "--json"])
        #expect(try jsonLines(again.standardOutput).allSatisfy { $0["status"] as? String == "cached" && $0["width"] as? Int == 160 })
    }

    @Test func pathListOnStandardInput() throws {
        let photos = Self.photos(3)
        let out = TestFiles.temporaryFolder("cli-out")
        let names = ["p000.jpg", "p002.jpg"]
        let list = names.map { "\(photos.path)/\($0)" }.joined(separator: "\n") + "\n"
        let result = try runner.run(["-", "--out", out.path, "--no-cache"], input: Data(list.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(written == ["manifest.json", "p000.png", "p002.png"])
    }

    @Test func nulSeparatedPathListMirrorsRelativePaths() throws {
        let photos = Self.photos(2)
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("sub dir"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: photos.appendingPathComponent("p001.jpg"),
                                         to: photos.appendingPathComponent("sub dir/new\nline.jpg"))
        let out = TestFiles.temporaryFolder("cli-out")
        let list = "p000.jpg\u{0}sub dir/new\nline.jpg\u{0}"
        let result = try runner.run(["--null", "-", "--out", out.path, "--no-cache"], input: Data(list.utf8), directory: photos)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("p000.png").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("sub dir/new\nline.png").path))
    }

    @Test func aPhotoNamedTwiceOrInsideTwoInputsGetsOneSticker() throws {
        let photos = Self.photos(2)
        let inner = photos.appendingPathComponent("inner")
        try FileManager.default.createDirectory(at: inner, withIntermediateDirectories: false)
        try FileManager.default.moveItem(at: photos.appendingPathComponent("p001.jpg"), to: inner.appendingPathComponent("p001.jpg"))
        let out = TestFiles.temporaryFolder("cli-out")
        let arguments = ["p000.jpg", "./p000.jpg", ".", "inner", "--out", out.path, "--no-cache"]
        let dryRun = try runner.run(arguments + ["--list"], directory: photos)
        #expect(dryRun.standardOutput.split(separator: "\n").count == 2, "\(dryRun.standardOutput)")
        let result = try runner.run(arguments, directory: photos)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("2 photos: 2 new, 0 cached, 0 failed in "), "\(result.standardError)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted()
                == ["inner", "inner/p001.png", "manifest.json", "p000.png"])
    }

    @Test func theSummaryCountsOnePhotoInTheSingular() throws {
        let photos = Self.photos(1)
        let out = TestFiles.temporaryFolder("cli-out")
        let dryRun = try runner.run([photos.path, "--out", out.path, "--no-cache", "--list"])
        #expect(dryRun.standardError == "1 photo: 1 new, 0 cached, 0 unreadable (dry run: nothing written)\n")
        let result = try runner.run([photos.path, "--out", out.path, "--no-cache"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("1 photo: 1 new, 0 cached, 0 failed in "), "\(result.standardError)")
    }

    @Test func aCorruptFileAmongGoodOnesExitsOne() throws {
        let photos = Self.photos(3)
        let good = try Data(contentsOf: photos.appendingPathComponent("p001.jpg"))
        try good.prefix(good.count / 3).write(to: photos.appendingPathComponent("p001.jpg"))
        let out = TestFiles.temporaryFolder("cli-out")
        let result = try runner.run([photos.path, "--out", out.path, "--no-cache", "--json"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("p001.jpg: corrupt image"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("p000.png").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("p002.png").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("p001.png").path))
        let failed = try jsonLines(result.standardOutput).filter { $0["status"] as? String == "failed" }
        #expect(failed.count == 1 && (failed[0]["error"] as? String)?.isEmpty == false)
    }

    /// A scanner's turned TIFF and a web GIF with a transparent index, found by the walk
    /// by their extensions: the TIFF's sticker is upright (a tall subject stays tall), the
    /// GIF's keeps its own alpha, every opaque pixel of it.
    @Test func tiffAndGIFInputsBecomeStickers() throws {
        let folder = TestFiles.temporaryFolder("cli-formats")
        let upright = Scene(width: 120, height: 160, background: .gradient([235, 230, 222], [200, 196, 190]),
                            shapes: [(.rectangle(x: 45, y: 30, width: 30, height: 100), [180, 40, 50])]).render().image
        var tiff = TestTIFFWriter(ExifOrientation.stored(upright, orientation: 6))
        tiff.orientation = 6
        try tiff.encode().write(to: folder.appendingPathComponent("scan.tif"))
        let indices = (0..<(90 * 60)).map { index -> UInt8 in
            let x = index % 90 - 45, y = index / 90 - 30
            return x * x + y * y < 400 ? 1 : x * x + y * y < 600 ? 2 : 0
        }
        var clip = TestGIFWriter.Frame(width: 90, height: 60, indices: indices)
        clip.transparentIndex = 0
        try TestGIFWriter(screenWidth: 90, screenHeight: 60, palette: [(255, 255, 255), (30, 120, 200), (10, 10, 10)],
                          frames: [clip]).encode().write(to: folder.appendingPathComponent("clip.gif"))
        let out = TestFiles.temporaryFolder("cli-out")
        let masks = TestFiles.temporaryFolder("cli-masks")
        let result = try runner.run([folder.path, "--out", out.path, "--no-cache", "--json", "--mask", masks.path])
        #expect(result.status == 0, "\(result.standardError)")
        let scan = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent("scan.png"))).image
        #expect(scan.height > 2 * scan.width, "\(scan.width)x\(scan.height)")
        // The crop, scale and full-frame mask are in the upright photo's coordinates, as for
        // a turned JPEG: the mask is 120x160 and the crop holds the upright rectangle.
        let mask = try ImageDecoder.decode(Data(contentsOf: masks.appendingPathComponent("scan.png"))).image
        #expect(mask.width == 120 && mask.height == 160, "\(mask.width)x\(mask.height)")
        let line = try #require(try jsonLines(result.standardOutput).first { ($0["output"] as? String) == "scan.png" })
        let crop = try #require(line["crop"] as? [String: Int])
        #expect(line["scale"] as? Double == 1, "\(line)")
        #expect(crop["x"]! <= 45 && crop["x"]! + crop["width"]! >= 75 && crop["x"]! + crop["width"]! <= 120, "\(crop)")
        #expect(crop["y"]! <= 30 && crop["y"]! + crop["height"]! >= 130 && crop["y"]! + crop["height"]! <= 160, "\(crop)")
        let sticker = try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent("clip.png"))).image
        let opaque = stride(from: 3, to: sticker.pixels.count, by: 4).filter { sticker.pixels[$0] == 255 }
        #expect(opaque.count == indices.filter { $0 != 0 }.count)
        #expect(stride(from: 3, to: sticker.pixels.count, by: 4).allSatisfy { [0, 255].contains(sticker.pixels[$0]) })
    }

    /// A walk never blocks on a FIFO, never loops through a link to a parent folder, and
    /// never reads its own output folder back as input.
    @Test func walkSkipsFifosLinkLoopsAndItsOwnOutput() throws {
        let photos = Self.photos(2)
        #expect(mkfifo(photos.appendingPathComponent("pipe.jpg").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(at: photos.appendingPathComponent("loop"), withDestinationURL: photos)
        let out = photos.appendingPathComponent("stickers")
        for _ in 0..<2 {
            let result = try runner.run([photos.path, "--out", out.path, "--no-cache", "--json"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try jsonLines(result.standardOutput).compactMap { $0["source"] as? String }.sorted()
                    == ["p000.jpg", "p001.jpg"].map { photos.appendingPathComponent($0).path })
        }
    }

    /// What a walk cannot see into is named, as `find` names it, never skipped in silence:
    /// a folder it may not list (given, or found inside) and a link named like a photo that
    /// leads nowhere. Root reads every folder, so as root the run drops the capabilities
    /// that let it (`setpriv`), as an ordinary user runs.
    @Test func aWalkNamesWhatItCannotReadInsteadOfSkippingIt() throws {
        let photos = Self.photos(2)
        let locked = photos.appendingPathComponent("locked"), given = TestFiles.temporaryFolder("cli-locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        try FileManager.default.copyItem(at: photos.appendingPathComponent("p001.jpg"), to: locked.appendingPathComponent("p001.jpg"))
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("moved.jpg").path,
                                                   withDestinationPath: "elsewhere/moved.jpg")
        for folder in [locked, given] { #expect(chmod(folder.path, 0) == 0) }
        defer { for folder in [locked, given] { chmod(folder.path, 0o755) } }
        let out = TestFiles.temporaryFolder("cli-out")
        let arguments = [photos.path, given.path, "--out", out.path, "--no-cache", "-q"]
        let result = geteuid() == 0
            ? try CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
                .run(["--bounding-set=-dac_override,-dac_read_search", runner.executable.path] + arguments)
            : try runner.run(arguments)
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").sorted() == [
            "stickerize: \(given.path): cannot open: Permission denied",
            "stickerize: \(locked.path): cannot open: Permission denied",
            "stickerize: \(photos.path)/moved.jpg: cannot open: No such file or directory",
        ])
        #expect(try TestFiles.stickers(in: out).keys.sorted() == ["p000.png", "p001.png"])
    }

    @Test(arguments: [["--bogus", "x"], ["--jobs", "many", "x"], []])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let result = try runner.run(arguments)
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("stickerize: ") && lines[1] == "Run 'stickerize --help' for usage.")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func interruptExitsOneThirtyAndLeavesNoPartialFiles() throws {
        let photos = Self.photos(40, size: 480)
        let out = TestFiles.temporaryFolder("cli-out")
        let (process, _, _) = try runner.start([photos.path, "--out", out.path, "--no-cache", "-j", "1", "--quiet"])
        // Wait for the first sticker, then interrupt mid-batch.
        TestFiles.waitForFirstSticker(in: out, polls: 400)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(names.allSatisfy { !$0.hasPrefix(AtomicFile.temporaryPrefix) })
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(manifest.items.count < 40)
        #expect(names.filter { $0.hasSuffix(".png") }.count == manifest.items.count)
        for name in names where name.hasSuffix(".png") {
            #expect(throws: Never.self) { try ImageDecoder.decode(Data(contentsOf: out.appendingPathComponent(name))) }
        }
    }
}
