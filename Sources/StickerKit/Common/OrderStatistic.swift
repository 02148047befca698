/// The k-th smallest of a list in expected linear time: Hoare's selection ("Algorithm 65:
/// FIND", Communications of the ACM, 1961) with a median-of-three pivot, for the quantiles
/// the segmenter takes of tens of thousands of costs, where sorting would cost n log n.
enum OrderStatistic {
    /// The value `values.sorted()[k]` holds (`k` clamped to the list), without sorting.
    /// Takes the list over and reorders it in place: callers pass a list built for the
    /// question, so no copy is made.
    static func kthSmallest(_ values: consuming [Float], _ k: Int) -> Float {
        precondition(!values.isEmpty, "no order statistic of an empty list")
        let k = min(max(k, 0), values.count - 1)
        return values.withUnsafeMutableBufferPointer { v in
            var low = 0, high = v.count - 1
            while low < high {
                let middle = low + (high - low) / 2
                let pivot = max(min(v[low], v[middle]), min(max(v[low], v[middle]), v[high]))
                // Afterwards v[low...j] <= pivot <= v[i...high], and anything between is the pivot.
                var i = low, j = high
                while i <= j {
                    while v[i] < pivot { i += 1 }
                    while v[j] > pivot { j -= 1 }
                    if i <= j {
                        v.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j {
                    high = j
                } else if k >= i {
                    low = i
                } else {
                    return v[k]
                }
            }
            return v[k]
        }
    }
}
