import Foundation

/// Turns one photo's bytes into a sticker and its colours.
///
/// Pure work on values with no shared state, so many run at once on the cooperative pool:
/// the photo is decoded once (JPEGs shrink on load to the size the sticker needs), then
/// sticker extraction and colour extraction run side by side with `async let`.
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

    /// Throws `CodecError`, `StickerError` or `CancellationError`.
    @concurrent
    public func process(_ data: Data) async throws -> ProcessedPhoto {
        let decodeOptions = DecodeOptions(maxPixels: options.maxPixels, minimumLongSide: options.sticker.maxSize)
        let (decoded, decodeTime) = try StageTimings.measure { () throws(CodecError) in
            try ImageDecoder.decode(data, options: decodeOptions)
        }
        try Task.checkCancellation()
        async let sticker = extractSticker(decoded)
        async let colors = extractColors(decoded.image)
        var timings = StageTimings()
        timings.decode = decodeTime
        let (stickerResult, stickerTime) = try await sticker
        let (colorResult, colorTime) = await colors
        timings.sticker = stickerTime
        timings.colors = colorTime
        try Task.checkCancellation()
        let (png, encodeTime) = try StageTimings.measure { () throws(CodecError) in
            try encoder.encode(stickerResult.image)
        }
        timings.encode = encodeTime
        return ProcessedPhoto(sticker: stickerResult, colors: colorResult, png: png, timings: timings)
    }

    @concurrent
    private func extractSticker(_ decoded: DecodedImage) async throws -> (Sticker, Double) {
        try StageTimings.measure { try StickerExtractor(options: options.sticker).extract(from: decoded) }
    }

    @concurrent
    private func extractColors(_ image: RGBAImage) async -> (ColorScheme, Double) {
        StageTimings.measure { ColorExtractor(count: options.colorCount).extract(from: image) }
    }
}
