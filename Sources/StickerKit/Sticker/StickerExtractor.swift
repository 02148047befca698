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

    /// The sticker is cut from `decoded`'s pixels: a JPEG decoded shrunk on load gives a
    /// sticker no finer than that decode (`PhotoProcessor`, which has the file, decodes the
    /// crop again when those pixels cannot fill `options.maxSize`).
    public func extract(from decoded: DecodedImage) throws -> Sticker {
        try extract(from: decoded, working: WorkingImage(decoded.image, longSide: options.workingSize)).sticker
    }

    /// `working` is the decoded image at `options.workingSize`, shared with colour
    /// extraction; `finer`, the file of a JPEG decoded shrunk on load, for its crop to be
    /// decoded again where the shrunk pixels cannot fill the sticker. Also returns the
    /// milliseconds the segmentation took (0 for kept alpha) and those the crop's decode took.
    func extract(from decoded: DecodedImage, working: WorkingImage, finer: FinerCropSource? = nil)
        throws -> (sticker: Sticker, segment: Double, cropDecode: Double) {
        if decoded.declaresAlpha, let sticker = try passThroughAlpha(decoded) {
            return (sticker, 0, 0)
        }
        return try segmentAndCut(decoded, working: working, finer: finer)
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
        return sticker(output, layout: layout, scale: decoded.scale, decoded: decoded, confidence: 1)
    }

    private func segmentAndCut(_ decoded: DecodedImage, working: WorkingImage, finer: FinerCropSource?)
        throws -> (sticker: Sticker, segment: Double, cropDecode: Double) {
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
        let subject = CropLayout.scaled((Double(bounds.minX), Double(bounds.minY), Double(bounds.maxX + 1),
                                         Double(bounds.maxY + 1)), by: toDecoded)
        let layout = CropLayout(subject: subject, imageWidth: image.width, imageHeight: image.height, options: options)
        try Task.checkCancellation()
        // A crop shown at its decoded size (scale 1) that a JPEG's shrink-on-load left
        // smaller than the sticker may be: decode it again, finer.
        if let finer, decoded.format == .jpeg, decoded.scale < 1, options.cropsToSubject, options.maxSize != nil,
           layout.scale >= 1 {
            let toSource = 1 / decoded.scale
            let ((region, finerLayout), cropDecode) = try StageTimings.measure {
                try finer.decode(subject: CropLayout.scaled(subject, by: toSource),
                                 sourceWidth: decoded.sourceWidth, sourceHeight: decoded.sourceHeight, sticker: options)
            }
            try Task.checkCancellation()
            let output = SoftAlphaComposer.compose(region.image, origin: (region.region.x, region.region.y), mask: mask,
                                                   maskScale: Double(mask.width) / Double(region.decodedWidth),
                                                   layout: finerLayout)
            return (sticker(output, layout: finerLayout, scale: region.scale, decoded: decoded, confidence: confidence),
                    segmentTime, cropDecode)
        }
        let output = SoftAlphaComposer.compose(image, mask: mask, maskScale: maskScale, layout: layout)
        return (sticker(output, layout: layout, scale: decoded.scale, decoded: decoded, confidence: confidence), segmentTime, 0)
    }

    /// The sticker of `layout`, whose pixels are `scale` of the source's.
    private func sticker(_ image: RGBAImage, layout: CropLayout, scale: Double, decoded: DecodedImage,
                         confidence: Double?) -> Sticker {
        let toSource = 1 / scale
        let crop = layout.crop
        let sourceCrop = PixelRect(x: Int((Double(crop.x) * toSource).rounded()),
                                   y: Int((Double(crop.y) * toSource).rounded()),
                                   width: Int((Double(crop.width) * toSource).rounded()),
                                   height: Int((Double(crop.height) * toSource).rounded()))
        return Sticker(image: image, crop: sourceCrop, scale: layout.scale * scale,
                       sourceWidth: decoded.sourceWidth, sourceHeight: decoded.sourceHeight, confidence: confidence)
    }
}
