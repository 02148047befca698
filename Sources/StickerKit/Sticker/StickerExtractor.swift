/// Lifts the main subject out of a decoded photo as a cropped, transparent sticker.
///
/// A photo that already carries meaningful alpha keeps its own alpha exactly. Otherwise
/// `SubjectSegmenter` finds the subject at working size and refines its outline at the
/// (larger) refinement size; `SoftAlphaComposer` scales the mask to the output size,
/// refines it against the photo (guided filter, then edge matting with decontaminated
/// colours) and the result is cropped to the subject plus a margin, or keeps the photo's
/// whole frame (`StickerOptions.cropsToSubject`). Either way a photo in which no subject
/// is found is an error, not an empty sticker.
///
///     let sticker = try StickerExtractor().extract(from: decoded)
public struct StickerExtractor: Sendable {
    public var options: StickerOptions

    public init(options: StickerOptions = StickerOptions()) {
        self.options = options
    }

    public func extract(from decoded: DecodedImage) throws -> Sticker {
        try extract(from: decoded, working: WorkingImage(decoded.image, longSide: options.workingSize)).sticker
    }

    /// `working` is the decoded image at `options.workingSize`, shared with colour
    /// extraction. Also returns the milliseconds the segmentation took (0 for kept alpha).
    func extract(from decoded: DecodedImage, working: WorkingImage) throws -> (sticker: Sticker, segment: Double) {
        if decoded.declaresAlpha, let sticker = try passThroughAlpha(decoded) {
            return (sticker, 0)
        }
        return try segmentAndCut(decoded, working: working)
    }

    /// The photo's own alpha, cropped as the options say; nil when its alpha is (almost)
    /// entirely opaque.
    private func passThroughAlpha(_ decoded: DecodedImage) throws -> Sticker? {
        let image = decoded.image
        var transparent = 0
        var minX = image.width, minY = image.height, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let a = image.pixels[(y * image.width + x) * 4 + 3]
                if a < 250 { transparent += 1 }
                if a > 0 {
                    minX = min(minX, x); maxX = max(maxX, x)
                    minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        guard transparent * 1000 >= image.pixelCount else { return nil }
        guard maxX >= 0 else { throw StickerError.noSubjectFound }
        let layout = CropLayout(subject: (Double(minX), Double(minY), Double(maxX + 1), Double(maxY + 1)),
                                imageWidth: image.width, imageHeight: image.height, options: options)
        let output = try AlphaResampler.cropAndScale(image, layout: layout)
        return sticker(output, layout: layout, decoded: decoded, confidence: 1)
    }

    private func segmentAndCut(_ decoded: DecodedImage, working: WorkingImage) throws -> (sticker: Sticker, segment: Double) {
        let image = decoded.image
        let ((mask, prior), segmentTime) = try StageTimings.measure {
            let refinement = WorkingImage(image, longSide: options.refinementSize)
            let (mask, prior) = try SubjectSegmenter().segment(working, refinedAt: refinement)
            return (mask.cleaned(keepingRegionsAbove: 0.08, fillingHolesBelow: 0.002), prior)
        }
        guard ForegroundMask.holdsSubject(mask.values), let bounds = mask.bounds else {
            throw StickerError.noSubjectFound
        }
        let confidence = prior.map { Double($0.agreement(with: mask)) }
        // The mask is at the refinement's size, or at the working size for a sliver too
        // narrow for the coarse level; either way its scale is its width over the photo's.
        let maskScale = Double(mask.width) / Double(image.width)
        let toDecoded = 1 / maskScale
        let layout = CropLayout(
            subject: (Double(bounds.minX) * toDecoded, Double(bounds.minY) * toDecoded,
                      Double(bounds.maxX + 1) * toDecoded, Double(bounds.maxY + 1) * toDecoded),
            imageWidth: image.width, imageHeight: image.height, options: options)
        try Task.checkCancellation()
        let output = SoftAlphaComposer.compose(image, mask: mask, maskScale: maskScale, layout: layout)
        return (sticker(output, layout: layout, decoded: decoded, confidence: confidence), segmentTime)
    }

    private func sticker(_ image: RGBAImage, layout: CropLayout, decoded: DecodedImage, confidence: Double?) -> Sticker {
        let toSource = 1 / decoded.scale
        let crop = layout.crop
        let sourceCrop = PixelRect(x: Int((Double(crop.x) * toSource).rounded()),
                                   y: Int((Double(crop.y) * toSource).rounded()),
                                   width: Int((Double(crop.width) * toSource).rounded()),
                                   height: Int((Double(crop.height) * toSource).rounded()))
        return Sticker(image: image, crop: sourceCrop, scale: layout.scale * decoded.scale,
                       sourceWidth: decoded.sourceWidth, sourceHeight: decoded.sourceHeight, confidence: confidence)
    }
}
