import FoundationEssentials
import Glibc

extension LabColor {
    /// CIEDE2000 colour difference (kL = kC = kH = 1), following G. Sharma, W. Wu,
    /// E. Dalal, "The CIEDE2000 color-difference formula: implementation notes,
    /// supplementary test data, and mathematical observations", 2005.
    public func difference(to other: LabColor) -> Float {
        let l1 = Double(l), a1 = Double(a), b1 = Double(b)
        let l2 = Double(other.l), a2 = Double(other.a), b2 = Double(other.b)
        let c1 = (a1 * a1 + b1 * b1).squareRoot(), c2 = (a2 * a2 + b2 * b2).squareRoot()
        let meanC = (c1 + c2) / 2
        let meanC7 = pow(meanC, 7)
        let g = 0.5 * (1 - (meanC7 / (meanC7 + pow(25, 7))).squareRoot())
        let a1p = (1 + g) * a1, a2p = (1 + g) * a2
        let c1p = (a1p * a1p + b1 * b1).squareRoot(), c2p = (a2p * a2p + b2 * b2).squareRoot()
        let h1p = hueAngle(b1, a1p), h2p = hueAngle(b2, a2p)
        let deltaL = l2 - l1
        let deltaC = c2p - c1p
        var deltaH = 0.0
        if c1p * c2p != 0 {
            var dh = h2p - h1p
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
            deltaH = 2 * (c1p * c2p).squareRoot() * sin(radians(dh / 2))
        }
        let meanL = (l1 + l2) / 2
        let meanCp = (c1p + c2p) / 2
        var meanH = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 { meanH /= 2 } else if meanH < 360 { meanH = (meanH + 360) / 2 } else {
                meanH = (meanH - 360) / 2
            }
        }
        let t = 1 - 0.17 * cos(radians(meanH - 30)) + 0.24 * cos(radians(2 * meanH))
            + 0.32 * cos(radians(3 * meanH + 6)) - 0.20 * cos(radians(4 * meanH - 63))
        let deltaTheta = 30 * exp(-pow((meanH - 275) / 25, 2))
        let meanCp7 = pow(meanCp, 7)
        let rc = 2 * (meanCp7 / (meanCp7 + pow(25, 7))).squareRoot()
        let lShift = (meanL - 50) * (meanL - 50)
        let sl = 1 + 0.015 * lShift / (20 + lShift).squareRoot()
        let sc = 1 + 0.045 * meanCp
        let sh = 1 + 0.015 * meanCp * t
        let rt = -sin(radians(2 * deltaTheta)) * rc
        let termL = deltaL / sl, termC = deltaC / sc, termH = deltaH / sh
        return Float((termL * termL + termC * termC + termH * termH + rt * termC * termH).squareRoot())
    }

    private func hueAngle(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h >= 0 ? h : h + 360
    }

    private func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}
