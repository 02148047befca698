import CImageCodecs
import FoundationEssentials

/// Decodes PNG, JPEG, WebP, TIFF, GIF, JPEG XL and (with libheif installed) HEIC and AVIF bytes to
/// upright RGBA8 through the C shims.
///
///     let decoded = try ImageDecoder.decode(data, options: DecodeOptions(minimumLongSide: 1024))
public enum ImageDecoder {
    public static func decode(_ data: Data, options: DecodeOptions = DecodeOptions()) throws(CodecError) -> DecodedImage {
        guard let format = ImageFormat(sniffing: data) else { throw .unrecognizedFormat }
        let result = data.withUnsafeBytes { raw in
            Result { () throws(CodecError) -> DecodedImage in
                let bytes = raw.bindMemory(to: UInt8.self)
                switch format {
                case .png: return try decodePNG(bytes, options: options)
                case .jpeg: return try decodeJPEG(bytes, options: options)
                case .webp: return try decodeWebP(bytes, options: options)
                case .tiff: return try decodeTIFF(bytes, options: options)
                case .gif: return try decodeGIF(bytes, options: options)
                case .jxl: return try decodeJXL(bytes, options: options)
                case .heif: return try decodeHEIF(bytes, options: options)
                }
            }
        }
        return try result.get()
    }

    /// A decoder's three shim calls: open (header, pixel budget), read, close.
    private struct Shim {
        var open: (_ decoder: inout OpaquePointer?, _ header: inout cic_header,
                   _ message: UnsafeMutablePointer<CChar>, _ capacity: Int) -> cic_status
        var read: (OpaquePointer?, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CChar>, Int) -> cic_status
        var close: (OpaquePointer?) -> Void
    }

    /// Opens, then reads into a buffer Swift owns, then closes: the same for every format.
    /// `limit` may narrow the read once the header is known (a JPEG's region).
    private static func run(
        _ shim: Shim, options: DecodeOptions,
        limit: (OpaquePointer?, inout cic_header) throws(CodecError) -> Void = { _, _ in }
    ) throws(CodecError) -> (RGBAImage, cic_header) {
        var decoder: OpaquePointer?
        var header = cic_header()
        defer { shim.close(decoder) }
        try CodecStatus.check({ message, capacity in shim.open(&decoder, &header, message, capacity) },
                              tooManyPixels: { tooMany(header, options) })
        try limit(decoder, &header)
        let image = try readPixels(header) { pixels, message, capacity in shim.read(decoder, pixels, message, capacity) }
        return (image, header)
    }

    /// Decodes only part of a JPEG: shrunk on load as `options` say, then `region` picks,
    /// given the upright size at that scale, the rectangle to decode. Rows below it are
    /// never read and rows above it only entropy-decoded, so a crop costs less than the
    /// whole photo at the same scale.
    static func decodeJPEG(_ data: Data, options: DecodeOptions,
                           region: (_ width: Int, _ height: Int) -> PixelRect) throws(CodecError) -> DecodedRegion {
        guard ImageFormat(sniffing: data) == .jpeg else { throw .unrecognizedFormat }
        var picked = PixelRect(x: 0, y: 0, width: 0, height: 0), fullWidth = 0, fullHeight = 0
        let result = data.withUnsafeBytes { raw in
            Result { () throws(CodecError) -> (RGBAImage, cic_header) in
                let bytes = raw.bindMemory(to: UInt8.self)
                return try run(jpegShim(bytes, options: options), options: options) { decoder, header throws(CodecError) in
                    fullWidth = Int(header.width)
                    fullHeight = Int(header.height)
                    picked = region(fullWidth, fullHeight)
                    let status = cic_jpeg_set_region(decoder, UInt32(clamping: picked.x), UInt32(clamping: picked.y),
                                                     UInt32(clamping: picked.width), UInt32(clamping: picked.height), &header)
                    guard status == CIC_OK else { throw .corrupt(reason: "region outside the image") }
                }
            }
        }
        let (image, header) = try result.get()
        let swapped = header.orientation >= 5
        return DecodedRegion(image: image, region: picked, decodedWidth: fullWidth, decodedHeight: fullHeight,
                             sourceWidth: Int(swapped ? header.source_height : header.source_width))
    }

    private static func decodePNG(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let shim = Shim(open: { cic_png_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), &$0, &$1, $2, $3) },
                        read: cic_png_read, close: cic_png_close)
        return decoded(try run(shim, options: options), format: .png)
    }

    private static func decodeWebP(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let shim = Shim(open: { cic_webp_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), &$0, &$1, $2, $3) },
                        read: cic_webp_read, close: cic_webp_close)
        return decoded(try run(shim, options: options), format: .webp)
    }

    private static func decodeTIFF(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let shim = Shim(open: {
            cic_tiff_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), options.appliesOrientation ? 1 : 0,
                          &$0, &$1, $2, $3)
        }, read: cic_tiff_read, close: cic_tiff_close)
        return decoded(try run(shim, options: options), format: .tiff)
    }

    private static func decodeGIF(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let shim = Shim(open: { cic_gif_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), &$0, &$1, $2, $3) },
                        read: cic_gif_read, close: cic_gif_close)
        return decoded(try run(shim, options: options), format: .gif)
    }

    private static func decodeJXL(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let shim = Shim(open: {
            cic_jxl_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), options.appliesOrientation ? 1 : 0,
                         options.jxlLibrary, &$0, &$1, $2, $3)
        }, read: cic_jxl_read, close: cic_jxl_close)
        return decoded(try run(shim, options: options), format: .jxl)
    }

    private static func decodeHEIF(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        let shim = Shim(open: {
            cic_heif_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), options.heifLibrary, &$0, &$1, $2, $3)
        }, read: cic_heif_read, close: cic_heif_close)
        return decoded(try run(shim, options: options), format: .heif)
    }

    private static func decodeJPEG(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        decoded(try run(jpegShim(bytes, options: options), options: options), format: .jpeg)
    }

    private static func jpegShim(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) -> Shim {
        let minimumLongSide = UInt32(clamping: options.minimumLongSide ?? 0)
        return Shim(open: {
            cic_jpeg_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), minimumLongSide,
                          options.appliesOrientation ? 1 : 0, &$0, &$1, $2, $3)
        }, read: cic_jpeg_read, close: cic_jpeg_close)
    }

    private static func decoded(_ result: (RGBAImage, cic_header), format: ImageFormat) -> DecodedImage {
        let (image, header) = result
        // The source size as people see it (what the manifest's crop and scale and `--mask`
        // refer to): upright, so the stored size swapped by orientations 5-8.
        let swapped = header.orientation >= 5
        return DecodedImage(image: image, format: format,
                            sourceWidth: Int(swapped ? header.source_height : header.source_width),
                            sourceHeight: Int(swapped ? header.source_width : header.source_height),
                            declaresAlpha: header.has_alpha != 0)
    }

    private static func tooMany(_ header: cic_header, _ options: DecodeOptions) -> CodecError {
        .tooManyPixels(width: Int(header.source_width), height: Int(header.source_height), limit: options.maxPixels)
    }

    /// Allocates the RGBA buffer the header asks for (with the scratch bytes it asks for
    /// after the pixels, left out of the image) and lets the shim fill it.
    private static func readPixels(
        _ header: cic_header,
        _ read: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CChar>, Int) -> cic_status
    ) throws(CodecError) -> RGBAImage {
        let width = Int(header.width), height = Int(header.height)
        let (count, overflow) = (width * height).multipliedReportingOverflow(by: 4)
        guard !overflow, count > 0 else { throw .corrupt(reason: "image has no pixels") }
        var failure: CodecError?
        let pixels = [UInt8](unsafeUninitializedCapacity: count + Int(header.read_padding)) { buffer, initialized in
            let result = Result { () throws(CodecError) in
                try CodecStatus.check { message, capacity in read(buffer.baseAddress!, message, capacity) }
            }
            if case .failure(let error) = result {
                failure = error
                buffer.initialize(repeating: 0)
            }
            initialized = count
        }
        if let failure { throw failure }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
