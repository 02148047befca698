import FoundationEssentials
import Glibc
import StickerKit

/// Everything the command line can say, with the defaults the README documents.
struct CommandLineOptions: Equatable {
    var inputs: [String] = []
    var outputDirectory = "stickers"
    var maskDirectory: String?
    var nulSeparated = false
    var jobs = AvailableProcessors.count
    var maxSize: Int? = 1024
    /// nil: not given, the library's default (8).
    var margin: Int?
    var cropsToSubject = true
    var colors = 5
    var maxPixels = DecodeOptions.defaultMaxPixels
    var cacheDirectory: String?
    /// Bytes; 0 is no limit.
    var cacheLimit = CacheEviction.defaultLimit
    var shard: Shard?
    var listsOnly = false
    var prunes = false
    /// nil: not given (PNG, or the preset's format).
    var format: StickerFileFormat?
    var preset: StickerPreset?
    var style = StickerStyle()
    var writesCard = false
    var previewFile: String?
    var usesCache = true
    var json = false
    var quiet = false
    var showsHelp = false
    var showsVersion = false

    var processingOptions: ProcessingOptions {
        ProcessingOptions(sticker: StickerOptions(maxSize: maxSize, margin: margin ?? StickerOptions().margin,
                                                  cropsToSubject: cropsToSubject),
                          colorCount: colors, maxPixels: maxPixels)
    }

    var rendition: StickerRendition {
        StickerRendition(style: style, format: format ?? .png, preset: preset, writesCard: writesCard,
                         writesTrayIcon: (shard?.index ?? 1) == 1)
    }

    /// `--cache DIR`, else `$XDG_CACHE_HOME/stickerize`, else `~/.cache/stickerize`.
    func resolvedCacheDirectory(environment: [String: String]) -> String? {
        guard usesCache else { return nil }
        if let cacheDirectory { return cacheDirectory }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/stickerize" }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.cache/stickerize"
    }
}
