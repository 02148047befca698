import FoundationEssentials

/// A JPEG's bytes kept beside its shrunk-on-load decode, so that the sticker's crop can
/// be decoded again at a finer scale when the shrunk pixels cannot fill the sticker: a
/// 12 MP photo decodes at half size (its long side still over `maxSize`), which leaves a
/// subject a third of the frame wide 670 pixels where the sticker may have 1,008. Only
/// the crop is decoded again (`ImageDecoder.decodeJPEG(_:options:region:)`), at the
/// coarsest DCT scale at which the subject fills the sticker.
struct FinerCropSource: Sendable {
    /// The photo's file.
    var data: Data
    /// The options its first decode used (pixel budget, orientation).
    var options: DecodeOptions

    /// The subject's crop (`subject`: its box in upright source pixels) decoded at the
    /// coarsest scale at which the box's long side reaches the room `sticker.maxSize`
    /// leaves inside the margins (full resolution when no scale does), and its layout at
    /// that scale.
    func decode(subject: CropLayout.Box,
                sourceWidth: Int, sourceHeight: Int,
                sticker: StickerOptions) throws(CodecError) -> (DecodedRegion, CropLayout) {
        let room = Double(max(1, (sticker.maxSize ?? 0) - 2 * sticker.margin))
        let longSide = max(subject.maxX - subject.minX, subject.maxY - subject.minY, 1)
        let sourceLongSide = Double(max(sourceWidth, sourceHeight))
        var options = options
        options.minimumLongSide = Int(min(sourceLongSide, (sourceLongSide * room / longSide).rounded(.up)))
        let layout = { (width: Int, height: Int) in
            let scale = Double(width) / Double(max(sourceWidth, 1))
            return CropLayout(subject: CropLayout.scaled(subject, by: scale), imageWidth: width, imageHeight: height,
                              options: sticker)
        }
        let region = try ImageDecoder.decodeJPEG(data, options: options) { width, height in layout(width, height).crop }
        return (region, layout(region.decodedWidth, region.decodedHeight))
    }
}
