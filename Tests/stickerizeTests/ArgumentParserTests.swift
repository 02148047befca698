import Foundation
import StickerKit
import Testing
import TestSupport
@testable import stickerize

@Suite struct ArgumentParserTests {
    @Test func defaults() throws {
        let options = try ArgumentParser.parse(["photos"])
        #expect(options.inputs == ["photos"])
        #expect(options.outputDirectory == "stickers")
        #expect(options.maxSize == 1024 && options.margin == nil && options.colors == 5)
        #expect(options.processingOptions.sticker.margin == 8 && options.processingOptions.sticker.cropsToSubject)
        #expect(options.usesCache && !options.json && !options.quiet)
        #expect(options.cacheLimit == 5 << 30)
    }

    @Test func everyOptionSpelling() throws {
        let options = try ArgumentParser.parse([
            "-o", "out", "--jobs=3", "--max-size", "original", "--margin", "4", "--colors=7",
            "--max-pixels", "1000", "--cache", "/tmp/c", "--json", "-q", "-0", "-", "--", "-weird-name.jpg",
        ])
        #expect(options.outputDirectory == "out" && options.jobs == 3 && options.maxSize == nil)
        #expect(options.margin == 4 && options.colors == 7 && options.maxPixels == 1000)
        #expect(options.cacheDirectory == "/tmp/c" && options.json && options.quiet && options.nulSeparated)
        #expect(options.inputs == ["-", "-weird-name.jpg"])
        #expect(try ArgumentParser.parse(["-j2", "x"]).jobs == 2)
        let bundled = try ArgumentParser.parse(["-q0j", "3", "-qostickers2", "-"])
        #expect(bundled.quiet && bundled.nulSeparated && bundled.jobs == 3 && bundled.outputDirectory == "stickers2",
                "flags bundle as getopt's do; a value option takes the rest or the next argument")
        #expect(try ArgumentParser.parse(["--mask", "out/masks", "-o", "out", "x"]).maskDirectory == "out/masks")
        #expect(try ArgumentParser.parse(["--out", "./-", "x"]).outputDirectory == "./-", "a folder named '-' spelled as a path")
        #expect(try ArgumentParser.parse(["--no-cache", "x"]).usesCache == false)
        #expect(try ArgumentParser.parse(["--no-crop", "x"]).processingOptions.sticker.cropsToSubject == false)
        #expect(try ArgumentParser.parse(["--format", "webp:85", "x"]).rendition.format == .webp(quality: 85))
        #expect(try ArgumentParser.parse(["x"]).rendition.format == .png)
        #expect(try ArgumentParser.parse(["--no-crop", "--max-size", "16", "x"]).maxSize == 16,
                "no margin to leave room for")
        #expect(try ArgumentParser.parse(["--cache-limit", "500M", "x"]).cacheLimit == 500 << 20)
        #expect(try ArgumentParser.parse(["--cache-limit=2g", "x"]).cacheLimit == 2 << 30)
        #expect(try ArgumentParser.parse(["--cache-limit", "4096", "x"]).cacheLimit == 4096)
        #expect(try ArgumentParser.parse(["--cache-limit", "0", "x"]).cacheLimit == 0)
        #expect(try ArgumentParser.parse(["--cache-limit", "1.5G", "x"]).cacheLimit == 3 << 29)
        #expect(try ArgumentParser.parse(["--cache-limit", "0.25k", "x"]).cacheLimit == 256)
        #expect(try ArgumentParser.parse(["--cache-limit", "2.0001K", "x"]).cacheLimit == 2049, "up to whole bytes")
        #expect(try ArgumentParser.parse(["--cache-limit", "0.0001K", "x"]).cacheLimit == 1, "a limit, not 0 (none)")
        #expect(try ArgumentParser.parse(["--cache-limit", "0.0G", "x"]).cacheLimit == 0)
        #expect(try ArgumentParser.parse(["--cache-limit", "20GiB", "x"]).cacheLimit == 20 << 30)
        #expect(try ArgumentParser.parse(["--cache-limit", "750mb", "x"]).cacheLimit == 750 << 20)
        #expect(try ArgumentParser.parse(["--cache-limit", "4096B", "x"]).cacheLimit == 4096)
        #expect(try ArgumentParser.parse(["--cache-limit", "9223372036854775807", "x"]).cacheLimit == Int64.max)
        let sharded = try ArgumentParser.parse(["--shard", "2/5", "--list", "x"])
        #expect(sharded.shard == Shard(index: 2, count: 5) && sharded.listsOnly)
    }

    @Test(arguments: [
        (["--frobnicate", "x"], "unknown option '--frobnicate'"),
        (["-z", "x"], "unknown option '-z'"),
        (["-qz", "x"], "unknown option '-z' in '-qz'"),
        (["-qj"], "option '--jobs' needs a value (N)"),
        (["--mask", "./out/", "--out", "out", "x"],
         "--mask ./out/ is the --out folder, where each mask would replace the sticker of its name; give the masks a folder of their own"),
        (["--mask", "stickers", "x"],
         "--mask stickers is the --out folder, where each mask would replace the sticker of its name; give the masks a folder of their own"),
        (["--jobs", "zero", "x"], "--jobs takes a whole number, not 'zero'"),
        (["--jobs", "0", "x"], "--jobs must be between 1 and 1024, not 0"),
        (["--out"], "option '--out' needs a value (DIR)"),
        (["--out", "", "x"], "--out needs a folder name"),
        (["-o-", "x"], "--out takes a folder, not '-' (standard output); for a folder named '-', write ./-"),
        (["--mask=-", "x"], "--mask takes a folder, not '-' (standard output); for a folder named '-', write ./-"),
        (["--cache", "-", "x"], "--cache takes a folder, not '-' (standard output); for a folder named '-', write ./-"),
        (["--preview", "-", "x"], "--preview takes a file, not '-' (standard output); for a file named '-', write ./-"),
        (["--json=yes", "x"], "option '--json' takes no value"),
        ([], "no inputs: give image files, folders, or '-' to read paths from standard input"),
        (["-", "-"], "'-' (read paths from standard input) can be given only once"),
        (["--null", "x"], "'--null' applies to the path list read with '-'"),
        (["--max-size", "20", "--margin", "10", "x"], "--max-size 20 leaves no room inside a --margin of 10"),
        (["--max-size", "16", "x"], "--max-size 16 leaves no room inside a --margin of 8"),
        (["--format", "gif", "x"], "--format is one of png, webp (lossless), webp:Q (lossy, quality 1-100), not 'gif'"),
        (["--format", "webp:0", "x"], "--format is one of png, webp (lossless), webp:Q (lossy, quality 1-100), not 'webp:0'"),
        (["--format", "png", "--preset", "discord", "x"], "--format png cannot be used with --preset discord, which sets its own format"),
        (["--no-crop", "--margin", "4", "x"], "--margin 4 has no effect with --no-crop, which keeps the whole photo"),
        (["--margin", "0", "--no-crop", "x"], "--margin 0 has no effect with --no-crop, which keeps the whole photo"),
        (["--shard", "0/3", "x"], "--shard takes I/N with 1 <= I <= N (like 2/4), not '0/3'"),
        (["--shard", "4/3", "x"], "--shard takes I/N with 1 <= I <= N (like 2/4), not '4/3'"),
        (["--shard", "2", "x"], "--shard takes I/N with 1 <= I <= N (like 2/4), not '2'"),
        (["--prune", "--shard", "1/2", "x"], "--prune cannot be used with --shard: a shard writes only part of the outputs"),
        (["--prune", "--list", "x"], "--prune removes files and --list writes nothing: give one of them"),
        (["--cache-limit", "5X", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '5X'"),
        (["--cache-limit", "-1G", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '-1G'"),
        (["--cache-limit", "1.5", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '1.5'"),
        (["--cache-limit", "1.G", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '1.G'"),
        (["--cache-limit", ".5G", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '.5G'"),
        (["--cache-limit", "1.5.2G", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '1.5.2G'"),
        (["--cache-limit", "iB", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not 'iB'"),
        (["--cache-limit", "5iB", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '5iB'"),
        (["--cache-limit", "5 G", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '5 G'"),
        (["--cache-limit", "1e3M", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '1e3M'"),
        (["--cache-limit", "GiB", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not 'GiB'"),
        (["--cache-limit", "5KiBB", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '5KiBB'"),
        (["--cache-limit", "9000000T", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '9000000T'"),
        (["--cache-limit", "8388608T", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '8388608T'"),
        (["--cache-limit", "١٢M", "x"], "--cache-limit takes a size like 500M, 1.5G or 20GiB (0: no limit), not '١٢M'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ArgumentParser.parse(arguments) }
    }

    @Test func aMaskFolderThatIsTheOutputFolderThroughALinkIsRefused() throws {
        let out = TestFiles.temporaryFolder("parser-out")
        let link = out.deletingLastPathComponent().appendingPathComponent(out.lastPathComponent + "-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: out)
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--mask", link.path, "--out", out.path, "x"]) }
        #expect(try ArgumentParser.parse(["--mask", link.path + "-other", "--out", out.path, "x"]).maskDirectory != nil)
    }

    @Test func helpAndVersionNeedNoInputs() throws {
        #expect(try ArgumentParser.parse(["--help"]).showsHelp)
        #expect(try ArgumentParser.parse(["--version"]).showsVersion)
    }
}
