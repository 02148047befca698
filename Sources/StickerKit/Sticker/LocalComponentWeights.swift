import FoundationEssentials
import Glibc

/// Spatially varying weights for the background's mixture: near each pixel, a component
/// weighs its share of the background around it rather than of the whole picture, so a
/// subject colour the background shows only far away (a pizza's tan crust on charred
/// bark with pale wood elsewhere) is no longer explained by it. The localized colour
/// models of X. Bai, J. Wang, D. Simons, G. Sapiro ("Video SnapCut: robust video object
/// cutout using localized classifiers", SIGGRAPH 2009), over a coarse grid of cells.
///
/// What counts as background around a pixel is weighted by the subject prior's guess (1
/// minus its subject probability), not by the cut's labels: counted from the labels, a
/// region mislabelled subject takes its colour out of its own neighbourhood's background
/// and holds itself in the subject (sky between branches, a tank under trees 0.96 -> 0.15).
/// The shares are counted over a regular subsample of the pixels (about 16 per cell).
/// In the refinement's cuts, over the validation sets' seeds 1-4 / 5-12 (the shipped
/// inputs and two perturbed copies): 0.9143 / 0.8990 -> 0.9158 / 0.9009 mIoU, up on all
/// six; in the search's cuts too, it changed which subjects were found (0.9118 / 0.8976).
///
/// A pixel's weights are its cell's and its neighbours', interpolated bilinearly between
/// the cells' centres (in the log), as SnapCut blends its overlapping windows' models:
/// one cell's weights for all its pixels made a step at every cell edge, and where a
/// colour was on the verge, the cut followed those steps (the dev set's tree in a storm
/// lost its lower crown along a row of cells, 0.65 -> 0.86 IoU interpolated; validation
/// seeds 1-4 / 5-12 0.9161 / 0.9005 -> 0.9166 / 0.9000, close-ups 0.886 -> 0.886).
///
/// Not used when the prior's guess is the fill network's (`SubjectPrior`), whose subject
/// fills the picture: the background it leaves is a rim along the frame and the places
/// where the guess falls short of the subject, so the shares near such a place are the
/// subject's own colours, and the cut gives them away (a strawberry filling the picture
/// lost the half its guess missed, 0.59 -> 1.00 IoU without the weights). Since version
/// 53: frame-filling subjects (`make-validation-set --fill`, seeds 1-2) 0.801 / 0.813 ->
/// 0.811 / 0.840 mIoU, their two perturbed copies each up by 0.010-0.039, and seeds 3-4,
/// which no choice here looked at, 0.705 / 0.728 -> 0.735 / 0.755 (23 photos up by more
/// than 0.005, 7 down); validation seeds 1-12 and close-ups down by 0.0001-0.0018 (a few
/// photos whose guess is the fill network's: a fedora in a close-up 0.88 -> 0.76), the
/// dev set and the subject-free sets unchanged.
struct LocalComponentWeights: Sendable {
    /// Cells across the picture's long side.
    static let cellsAcross = 24
    /// A component's share near a pixel is counted over (2 radius + 1)^2 cells around its own.
    static let radius = 2
    /// The local share is smoothed toward the global weight as if this many cells' worth
    /// of samples held the global mixture.
    static let globalCells: Float = 1

    let width: Int
    let height: Int
    /// The grid's size in cells.
    let columns: Int
    let rows: Int
    /// A cell's side in pixels.
    let cellSide: Int
    /// The pixels the shares are counted over, their cells, and their weights as
    /// background samples.
    let samples: [Int32]
    let sampleCells: [Int32]
    let sampleBackgroundness: [Float]
    /// Samples per cell.
    private let samplesPerCell: Float

    /// Weights for a `width` x `height` picture whose pixel at an index counts as a
    /// background sample by `backgroundness` of it (from 0 to 1).
    init(width: Int, height: Int, backgroundness: (Int) -> Float) {
        self.width = width
        self.height = height
        let cell = max(2, max(width, height) / LocalComponentWeights.cellsAcross)
        cellSide = cell
        let columns = (width + cell - 1) / cell
        self.columns = columns
        rows = (height + cell - 1) / cell
        let step = max(1, cell / 4)
        let points = stride(from: step / 2, to: height, by: step).flatMap { y in
            stride(from: step / 2, to: width, by: step).map { (x: $0, y: y) }
        }
        samples = points.map { Int32($0.y * width + $0.x) }
        sampleCells = points.map { Int32($0.y / cell * columns + $0.x / cell) }
        sampleBackgroundness = samples.map { backgroundness(Int($0)) }
        samplesPerCell = Float((cell + step - 1) / step * ((cell + step - 1) / step))
    }

    /// Per cell and component (cell-major, `globalWeights.count` per cell), the log of the
    /// component's local weight minus the log of its global weight, given which component
    /// explains each sample best (`nearest`, in the order of `samples`).
    func logWeightOffsets(nearest: [UInt8], globalWeights: [Float]) -> [Float] {
        let count = globalWeights.count
        var counts = [Float](repeating: 0, count: columns * rows * count)
        for i in samples.indices {
            counts[Int(sampleCells[i]) * count + Int(nearest[i])] += sampleBackgroundness[i]
        }
        let prior = LocalComponentWeights.globalCells * samplesPerCell
        let r = LocalComponentWeights.radius
        var offsets = [Float](repeating: 0, count: columns * rows * count)
        var local = [Float](repeating: 0, count: count)
        for cy in 0..<rows {
            for cx in 0..<columns {
                for k in 0..<count { local[k] = 0 }
                var total: Float = 0
                for wy in max(0, cy - r)...min(rows - 1, cy + r) {
                    for wx in max(0, cx - r)...min(columns - 1, cx + r) {
                        let base = (wy * columns + wx) * count
                        for k in 0..<count {
                            local[k] += counts[base + k]
                            total += counts[base + k]
                        }
                    }
                }
                let base = (cy * columns + cx) * count
                for k in 0..<count {
                    let weight = (local[k] + prior * globalWeights[k]) / (total + prior)
                    offsets[base + k] = log(weight) - log(globalWeights[k])
                }
            }
        }
        return offsets
    }

    /// The distance between one component's planes in `pixelOffsets`: the pixel count
    /// rounded up to a multiple of eight, so eight pixels load as one vector anywhere.
    var planeStride: Int { (width * height + 7) / 8 * 8 }

    /// Per component, a plane (`planeStride` apart, row-major) of each pixel's log-weight
    /// offset: `offsets` (per cell and component, as `logWeightOffsets` returns them)
    /// interpolated bilinearly between the cells' centres, held at the outer centres'
    /// values beyond them.
    func pixelOffsets(_ offsets: [Float], components count: Int) -> [Float] {
        let plane = planeStride, side = Float(cellSide)
        /// The first of the two cells around pixel coordinate `p` along an axis of `cells`
        /// cells, and the second one's weight (the second is the next, or the same at the end).
        func between(_ p: Int, cells: Int) -> (low: Int, fraction: Float) {
            let u = min(max((Float(p) + 0.5) / side - 0.5, 0), Float(cells - 1))
            return (Int(u), u - Float(Int(u)))
        }
        // Along a row, the pixels from `spanEnds[c - 1]` up to `spanEnds[c]` lie between
        // cell c's centre and the next one's, at `fractions` of the way.
        let across = (0..<width).map { between($0, cells: columns) }
        let fractions = across.map(\.fraction)
        let spanEnds = (0..<columns).map { column in across.lastIndex { $0.low <= column }.map { $0 + 1 } ?? 0 }
        var row = [Float](repeating: 0, count: columns * count)
        return [Float](unsafeUninitializedCapacity: plane * count) { planes, initialized in
            fractions.withUnsafeBufferPointer { fractions in
                for y in 0..<height {
                    // The cells' offsets interpolated to this row, then along it to each pixel.
                    let (above, down) = between(y, cells: rows), below = min(above + 1, rows - 1)
                    for index in 0..<(columns * count) {
                        row[index] = offsets[above * columns * count + index] * (1 - down)
                            + offsets[below * columns * count + index] * down
                    }
                    for k in 0..<count {
                        let target = planes.baseAddress! + k * plane + y * width
                        var x = 0
                        for column in 0..<columns {
                            let low = row[column * count + k], high = row[min(column + 1, columns - 1) * count + k]
                            while x < spanEnds[column] {
                                target[x] = low * (1 - fractions[x]) + high * fractions[x]
                                x += 1
                            }
                        }
                    }
                }
            }
            for k in 0..<count {
                for padding in (width * height)..<plane { planes[k * plane + padding] = 0 }
            }
            initialized = plane * count
        }
    }
}
