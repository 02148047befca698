import Foundation

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
    /// Each pixel column's cell column, and each pixel row's first cell (its cell row x `columns`).
    let columnCells: [Int32]
    let rowCells: [Int32]
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
        let columns = (width + cell - 1) / cell
        self.columns = columns
        rows = (height + cell - 1) / cell
        let columnCells = (0..<width).map { Int32($0 / cell) }, rowCells = (0..<height).map { Int32($0 / cell * columns) }
        self.columnCells = columnCells
        self.rowCells = rowCells
        let step = max(1, cell / 4)
        let points = stride(from: step / 2, to: height, by: step).flatMap { y in
            stride(from: step / 2, to: width, by: step).map { (x: $0, y: y) }
        }
        samples = points.map { Int32($0.y * width + $0.x) }
        sampleCells = points.map { rowCells[$0.y] + columnCells[$0.x] }
        sampleBackgroundness = samples.map { backgroundness(Int($0)) }
        samplesPerCell = Float((cell + step - 1) / step * ((cell + step - 1) / step))
    }

    /// The cell of pixel (`x`, `y`).
    @inline(__always)
    func cell(x: Int, y: Int) -> Int {
        Int(rowCells[y] + columnCells[x])
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
}
