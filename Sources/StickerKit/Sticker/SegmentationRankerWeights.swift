// Written by Scripts/train-segmentation-ranker; do not edit.
// 936 photos of validation-set seeds 13-28, L2 0.01.
extension SegmentationRanker {
    /// Per feature, in `featureNames`' order.
    static let featureWeights: [Float] = [
        2.1857, 2.7998, 1.1629, -13.5773, -1.2996,
        3.1763, 0.6441, -0.5744, 1.6773, 0.0393,
        -5.2472, -3.3406, 0.9026, -0.2016
    ]
    /// Per `Start`, in its order.
    static let startWeights: [Float] = [0.5974, 0.3244, 1.0099, -0.8342]
}
