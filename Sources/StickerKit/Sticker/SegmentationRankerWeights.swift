// Written by Scripts/train-segmentation-ranker; do not edit.
// 936 photos of validation-set seeds 13-28, L2 0.01.
extension SegmentationRanker {
    /// Per feature, in `featureNames`' order.
    static let featureWeights: [Float] = [
        1.9706, 2.7168, -0.6297, -12.3207, -0.6319,
        2.2501, 0.7266, -0.7048, 1.7095, 0.0106
    ]
    /// Per `Start`, in its order.
    static let startWeights: [Float] = [0.9831, 0.4566, 1.2500, -1.1738]
}
