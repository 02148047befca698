import Foundation

/// Matrix/TRC and grey TRC ICC profiles (version 4) written byte by byte, so tests can tag
/// their inputs with a colour space other than sRGB, as phones tag their photos and photo
/// editors their grey images (ICC.1:2010, sections 7 and 10: a header, a tag table, and the
/// description, white point, colorant and tone curve tags).
public enum ICCProfile {
    /// Display P3: DCI-P3 primaries, D65 white and sRGB's tone curve (the colorants adapted
    /// to D50 as Apple's profile states them).
    public static let displayP3 = displayP3(toneCurve: srgbCurve)

    /// Display P3's primaries with another tone curve: the five parameters (g, a, b, c, d)
    /// of an ICC parametric curve of type 3, Y = (aX + b)^g for X >= d, else cX.
    public static func displayP3(toneCurve: [Double]) -> [UInt8] {
        matrixProfile(description: "Display P3", red: (0.5151, 0.2412, -0.0011), green: (0.2920, 0.6922, 0.0419),
                      blue: (0.1571, 0.0666, 0.7841), toneCurve: toneCurve)
    }

    /// sRGB (IEC 61966-2-1), as its common profiles state it.
    public static let sRGB = matrixProfile(description: "sRGB", red: (0.4361, 0.2225, 0.0139),
                                           green: (0.3851, 0.7169, 0.0971), blue: (0.1431, 0.0606, 0.7141),
                                           toneCurve: srgbCurve)

    /// sRGB's tone curve as a parametric curve of type 3.
    private static let srgbCurve = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]

    /// A grey profile whose tone curve (kTRC) is the pure power `gamma` (Y = X^gamma):
    /// "Gray Gamma 2.2" as photo editors embed it, or 1 for linear grey.
    public static func grey(gamma: Double) -> [UInt8] {
        profile(colorSpace: "GRAY", tags: [("desc", description("Gray Gamma \(gamma)")), ("wtpt", xyz(d50)),
                                           ("kTRC", tag("para", [0, 0, 0, 0] + fixed(gamma)))])
    }

    /// A grey level under `grey(gamma:)` in sRGB, computed here independently of any colour
    /// management library: the power undone, sRGB's curve applied (not rounded).
    public static func greyToSRGB(_ level: Double, gamma: Double) -> Double {
        let linear = pow(level / 255, gamma)
        return (linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055) * 255
    }

    /// Display P3 pixels to sRGB, computed here independently of any colour management
    /// library: sRGB's curve undone, P3's linear RGB to sRGB's (the D65 matrix), sRGB's
    /// curve applied (clamped to 0...255, not rounded).
    public static func displayP3ToSRGB(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        func encoded(_ v: Double) -> Double {
            let v = min(max(v, 0), 1)
            return (v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055) * 255
        }
        let p = SIMD3(linear(rgb.x / 255), linear(rgb.y / 255), linear(rgb.z / 255))
        let s = SIMD3(1.2249 * p.x - 0.2247 * p.y, -0.0420 * p.x + 1.0419 * p.y,
                      -0.0197 * p.x - 0.0786 * p.y + 1.0979 * p.z)
        return SIMD3(encoded(s.x), encoded(s.y), encoded(s.z))
    }

    private typealias XYZ = (Double, Double, Double)

    /// The profile connection space's white.
    private static let d50: XYZ = (0.9642, 1.0, 0.8249)

    private static func matrixProfile(description text: String, red: XYZ, green: XYZ, blue: XYZ, toneCurve: [Double]) -> [UInt8] {
        let curve = tag("para", [0, 3, 0, 0] + toneCurve.flatMap(fixed))
        return profile(colorSpace: "RGB ", tags: [("desc", description(text)), ("wtpt", xyz(d50)), ("rXYZ", xyz(red)),
                                                  ("gXYZ", xyz(green)), ("bXYZ", xyz(blue)), ("rTRC", curve),
                                                  ("gTRC", curve), ("bTRC", curve)])
    }

    /// A multiLocalizedUnicode tag of one English `text`.
    private static func description(_ text: String) -> [UInt8] {
        var units: [UInt8] = []
        for unit in text.utf16 { units += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        return tag("mluc", bigEndian(1) + bigEndian(12) + Array("enUS".utf8) + bigEndian(UInt32(units.count))
                           + bigEndian(28) + units)
    }

    /// A display profile of `colorSpace` (four characters) with `tags`, in the XYZ
    /// connection space.
    private static func profile(colorSpace: String, tags: [(String, [UInt8])]) -> [UInt8] {
        var offset = 128 + 4 + 12 * tags.count
        var table = bigEndian(UInt32(tags.count)), body: [UInt8] = []
        for (signature, data) in tags {
            let padded = data + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
            table += Array(signature.utf8) + bigEndian(UInt32(offset)) + bigEndian(UInt32(data.count))
            body += padded
            offset += padded.count
        }
        var header = bigEndian(UInt32(offset)) + [UInt8](repeating: 0, count: 4) + [4, 0x30, 0, 0]
        header += Array("mntr\(colorSpace)XYZ ".utf8) + [UInt8](repeating: 0, count: 12) + Array("acsp".utf8)
        header += [UInt8](repeating: 0, count: 24) + bigEndian(0) + xyz(d50).suffix(12)
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + table + body
    }

    private static func tag(_ type: String, _ payload: [UInt8]) -> [UInt8] { Array(type.utf8) + [0, 0, 0, 0] + payload }

    private static func xyz(_ value: XYZ) -> [UInt8] { tag("XYZ ", fixed(value.0) + fixed(value.1) + fixed(value.2)) }

    /// An s15Fixed16Number.
    private static func fixed(_ value: Double) -> [UInt8] { bigEndian(UInt32(bitPattern: Int32((value * 65536).rounded()))) }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
