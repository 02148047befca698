import FoundationEssentials
import Glibc

/// A colour in CIELAB (D65 white), the perceptual space palettes are computed in.
public struct LabColor: Sendable, Hashable {
    public var l: Float
    public var a: Float
    public var b: Float

    public init(l: Float, a: Float, b: Float) {
        self.l = l
        self.a = a
        self.b = b
    }

    var vector: SIMD3<Float> { SIMD3(l, a, b) }

    init(_ vector: SIMD3<Float>) {
        self.init(l: vector.x, a: vector.y, b: vector.z)
    }

    /// Converts 8-bit sRGB through linear RGB and XYZ (IEC 61966-2-1, CIE 15).
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = LabColor.linearTable[Int(red)], g = LabColor.linearTable[Int(green)]
        let bl = LabColor.linearTable[Int(blue)]
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * bl) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * bl
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * bl) / 1.08883
        let fx = LabColor.f(x), fy = LabColor.f(y), fz = LabColor.f(z)
        self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// The nearest 8-bit sRGB colour (clipped to the gamut).
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
        let fy = (l + 16) / 116, fx = fy + a / 500, fz = fy - b / 200
        let x = LabColor.fInverse(fx) * 0.95047, y = LabColor.fInverse(fy), z = LabColor.fInverse(fz) * 1.08883
        let r = 3.2404542 * x - 1.5371385 * y - 0.4985314 * z
        let g = -0.9692660 * x + 1.8760108 * y + 0.0415560 * z
        let bl = 0.0556434 * x - 0.2040259 * y + 1.0572252 * z
        return (LabColor.encode(r), LabColor.encode(g), LabColor.encode(bl))
    }

    private static let linearTable: [Float] = (0..<256).map { linear(Float($0)) }

    /// sRGB's transfer function undone: a channel's value (0-255) as linear light (0-1).
    static func linear(_ value: Float) -> Float {
        let c = value / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// CIELAB's f: the cube root, with its linear piece near black.
    static func f(_ t: Float) -> Float {
        t > 216.0 / 24389.0 ? cbrtf(t) : (24389.0 / 27.0 * t + 16) / 116
    }

    private static func fInverse(_ t: Float) -> Float {
        t * t * t > 216.0 / 24389.0 ? t * t * t : (116 * t - 16) * 27.0 / 24389.0
    }

    private static func encode(_ linear: Float) -> UInt8 {
        let c = max(0, min(1, linear))
        let v = c <= 0.0031308 ? 12.92 * c : 1.055 * powf(c, 1 / 2.4) - 0.055
        return UInt8((v * 255).rounded())
    }
}
