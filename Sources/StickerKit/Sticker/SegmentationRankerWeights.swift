// Written by Scripts/train-segmentation-ranker; do not edit.
// 936 photos of validation-set seeds 13-28, L2 0.01.
extension SegmentationRanker {
    /// Per feature, in `featureNames`' order.
    static let featureWeights: [Float] = [
        2.1864, 2.8010, 1.1528, -13.5741, -1.3017,
        3.1752, 0.6443, -0.5744, 1.6779, 0.0393,
        -5.2465, -3.3396, 0.9034, -0.2015
    ]
    /// Per `Start`, in its order.
    static let startWeights: [Float] = [0.5975, 0.3244, 1.0098, -0.8342]
}
