import FoundationEssentials

/// Turns one photo's bytes into a sticker and its colours.
///
/// Pure work on values with no shared state, so many run at once on the cooperative pool:
/// the photo is decoded (JPEGs shrink on load to the size the sticker needs, and a subject
/// too small for it at that scale has its crop decoded again, finer: `FinerCropSource`), then
/// sticker extraction and the photo's colour extraction run side by side with `async let`;
/// the subject's palette and the card gradient follow once the sticker is known.
///
///     let photo = try await PhotoProcessor().process(data)
///     try photo.png.write(to: url)
nonisolated public struct PhotoProcessor: Sendable {
    public var options: ProcessingOptions
    public var encoder: PNGEncoder

    public init(options: ProcessingOptions = ProcessingOptions(), encoder: PNGEncoder = PNGEncoder()) {
        self.options = options
        self.encoder = encoder
    }

    /// How the photo is decoded: within the pixel budget, and a JPEG shrunk on load no
    /// further than the sticker and the segmentation need (`StickerOptions.minimumDecodedLongSide`).
    public var decodeOptions: DecodeOptions {
        DecodeOptions(maxPixels: options.maxPixels, minimumLongSide: options.sticker.minimumDecodedLongSide)
    }

    /// Throws `CodecError`, `StickerError` or `CancellationError`.
    @concurrent
    public func process(_ data: Data) async throws -> ProcessedPhoto {
        let (decoded, decodeTime) = try StageTimings.measure { () throws(CodecError) in
            try ImageDecoder.decode(data, options: decodeOptions)
        }
        try Task.checkCancellation()
        let working = WorkingImage(decoded.image, longSide: options.sticker.workingSize)
        let finer = FinerCropSource(data: data, options: decodeOptions)
        async let sticker = extractSticker(decoded, working: working, finer: finer)
        async let photoColors = extractColors(decoded, working: working)
        var timings = StageTimings()
        let ((stickerResult, segmentTime, cropDecodeTime), stickerTime) = try await sticker
        let ((palette, roles), photoColorTime) = await photoColors
        let (subject, subjectColorTime) = StageTimings.measure {
            ColorExtractor(count: options.colorCount).palette(of: stickerResult.image)
        }
        let colorResult = ColorScheme(palette: palette, roles: roles, subject: subject,
                                      gradient: GradientRule.pick(candidates: palette + roles.colors, subject: subject))
        // A crop decoded again, finer, counts as decoding.
        timings.decode = decodeTime + cropDecodeTime
        timings.sticker = stickerTime - cropDecodeTime
        timings.segment = segmentTime
        timings.colors = photoColorTime + subjectColorTime
        try Task.checkCancellation()
        let (png, encodeTime) = try StageTimings.measure { () throws(CodecError) in
            try encoder.encode(stickerResult.image)
        }
        timings.encode = encodeTime
        return ProcessedPhoto(sticker: stickerResult, colors: colorResult, png: png, timings: timings)
    }

    @concurrent
    private func extractSticker(_ decoded: DecodedImage, working: WorkingImage, finer: FinerCropSource)
        async throws -> ((sticker: Sticker, segment: Double, cropDecode: Double), Double) {
        try StageTimings.measure {
            try StickerExtractor(options: options.sticker).extract(from: decoded, working: working, finer: finer)
        }
    }

    /// The photo's palette and roles; from the shared working image unless the photo has
    /// transparency, which only the full image carries (and only a file that declares
    /// alpha can have: a JPEG's pixels are not scanned for it).
    @concurrent
    private func extractColors(_ decoded: DecodedImage, working: WorkingImage) async -> (([PaletteColor], PaletteRoles), Double) {
        StageTimings.measure {
            let extractor = ColorExtractor(count: options.colorCount)
            return decoded.declaresAlpha && decoded.image.hasTransparency
                ? extractor.paletteAndRoles(of: decoded.image) : extractor.paletteAndRoles(of: working)
        }
    }
}
