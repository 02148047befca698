import CImageCodecs
import Foundation

/// Decodes PNG, JPEG, WebP and (with libheif installed) HEIC bytes to upright RGBA8
/// through the C shims.
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
                case .heif: return try decodeHEIF(bytes, options: options)
                }
            }
        }
        return try result.get()
    }

    private static func decodePNG(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        var decoder: OpaquePointer?
        var header = cic_header()
        defer { cic_png_close(decoder) }
        try CodecStatus.check({ message, capacity in
            cic_png_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), &decoder, &header, message, capacity)
        }, tooManyPixels: { tooMany(header, options) })
        let image = try readPixels(header) { pixels, message, capacity in
            cic_png_read(decoder, pixels, message, capacity)
        }
        return DecodedImage(image: image, format: .png, sourceWidth: Int(header.source_width),
                            sourceHeight: Int(header.source_height), declaresAlpha: header.has_alpha != 0)
    }

    private static func decodeJPEG(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        var decoder: OpaquePointer?
        var header = cic_header()
        defer { cic_jpeg_close(decoder) }
        let minimumLongSide = UInt32(clamping: options.minimumLongSide ?? 0)
        try CodecStatus.check({ message, capacity in
            cic_jpeg_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), minimumLongSide,
                          options.appliesOrientation ? 1 : 0, &decoder, &header, message, capacity)
        }, tooManyPixels: { tooMany(header, options) })
        let image = try readPixels(header) { pixels, message, capacity in
            cic_jpeg_read(decoder, pixels, message, capacity)
        }
        let swapped = header.orientation >= 5
        return DecodedImage(image: image, format: .jpeg,
                            sourceWidth: Int(swapped ? header.source_height : header.source_width),
                            sourceHeight: Int(swapped ? header.source_width : header.source_height),
                            declaresAlpha: false)
    }

    private static func decodeWebP(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        var decoder: OpaquePointer?
        var header = cic_header()
        defer { cic_webp_close(decoder) }
        try CodecStatus.check({ message, capacity in
            cic_webp_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), &decoder, &header, message, capacity)
        }, tooManyPixels: { tooMany(header, options) })
        let image = try readPixels(header) { pixels, message, capacity in
            cic_webp_read(decoder, pixels, message, capacity)
        }
        return DecodedImage(image: image, format: .webp, sourceWidth: Int(header.source_width),
                            sourceHeight: Int(header.source_height), declaresAlpha: header.has_alpha != 0)
    }

    private static func decodeHEIF(_ bytes: UnsafeBufferPointer<UInt8>, options: DecodeOptions) throws(CodecError) -> DecodedImage {
        var decoder: OpaquePointer?
        var header = cic_header()
        defer { cic_heif_close(decoder) }
        try CodecStatus.check({ message, capacity in
            cic_heif_open(bytes.baseAddress, bytes.count, UInt64(options.maxPixels), options.heifLibrary, &decoder,
                          &header, message, capacity)
        }, tooManyPixels: { tooMany(header, options) })
        let image = try readPixels(header) { pixels, message, capacity in
            cic_heif_read(decoder, pixels, message, capacity)
        }
        return DecodedImage(image: image, format: .heif, sourceWidth: Int(header.source_width),
                            sourceHeight: Int(header.source_height), declaresAlpha: header.has_alpha != 0)
    }

    private static func tooMany(_ header: cic_header, _ options: DecodeOptions) -> CodecError {
        .tooManyPixels(width: Int(header.source_width), height: Int(header.source_height), limit: options.maxPixels)
    }

    /// Allocates the RGBA buffer the header asks for and lets the shim fill it.
    private static func readPixels(
        _ header: cic_header,
        _ read: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CChar>, Int) -> cic_status
    ) throws(CodecError) -> RGBAImage {
        let width = Int(header.width), height = Int(header.height)
        let (count, overflow) = (width * height).multipliedReportingOverflow(by: 4)
        guard !overflow, count > 0 else { throw .corrupt(reason: "image has no pixels") }
        var failure: CodecError?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
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
