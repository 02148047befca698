/// A sticker platform's rules (`--preset NAME`): canvas, file format and byte limit.
///
/// | preset | canvas | format | limit |
/// |---|---|---|---|
/// | `telegram` | long side exactly 512, the other at most 512 | PNG | 512 KB |
/// | `whatsapp` | exactly 512 x 512, 16 px transparent margin | WebP | 100 KB |
/// | (`whatsapp` tray icon, one per set) | 96 x 96 | PNG | 50 KB |
/// | `signal` | 512 x 512 | PNG | 300 KB |
/// | `imessage[:300/408/618]` | N x N (default 408) | PNG | 500 KB |
/// | `discord` | 320 x 320 | PNG | 512 KB |
public enum StickerPreset: Sendable, Hashable, Codable, CustomStringConvertible {
    case telegram
    case whatsapp
    case signal
    case imessage(size: Int)
    case discord

    /// Parses `telegram`, `whatsapp`, `signal`, `imessage`, `imessage:300|408|618`, `discord`.
    public init?(_ text: String) {
        switch text {
        case "telegram": self = .telegram
        case "whatsapp": self = .whatsapp
        case "signal": self = .signal
        case "imessage": self = .imessage(size: 408)
        case "discord": self = .discord
        default:
            guard text.hasPrefix("imessage:"), let size = Int(text.dropFirst("imessage:".count)),
                  StickerPreset.imessageSizes.contains(size) else { return nil }
            self = .imessage(size: size)
        }
    }

    public static let imessageSizes = [300, 408, 618]
    public static let names = "telegram, whatsapp, signal, imessage[:300|408|618], discord"

    public var description: String {
        switch self {
        case .telegram: return "telegram"
        case .whatsapp: return "whatsapp"
        case .signal: return "signal"
        case .imessage(let size): return "imessage:\(size)"
        case .discord: return "discord"
        }
    }

    /// How the sticker is placed on the platform's canvas.
    public enum Canvas: Sendable, Equatable {
        /// Scaled so its long side is exactly this; the canvas is the scaled sticker.
        case longSide(Int)
        /// A square of this side; the sticker scaled to fit inside `margin`, centred.
        case square(Int, margin: Int)
    }

    public var canvas: Canvas {
        switch self {
        case .telegram: return .longSide(512)
        case .whatsapp: return .square(512, margin: 16)
        case .signal: return .square(512, margin: 0)
        case .imessage(let size): return .square(size, margin: 0)
        case .discord: return .square(320, margin: 0)
        }
    }

    public var format: ImageFormat { self == .whatsapp ? .webp : .png }

    /// The sticker set's tray icon (side and byte limit), for platforms that want one.
    public var trayIcon: (side: Int, byteLimit: Int)? {
        self == .whatsapp ? (96, 50 * 1024) : nil
    }

    /// The most bytes the file may have.
    public var byteLimit: Int {
        switch self {
        case .telegram, .discord: return 512 * 1024
        case .whatsapp: return 100 * 1024
        case .signal: return 300 * 1024
        case .imessage: return 500 * 1024
        }
    }
}
