import CGtk
import CQRencode
import Glibc
import Gtk

/// A QR code's modules (its dark and light squares), encoded by libqrencode from text as 8-bit bytes
/// with error correction level M (about 15 % of the code may be unreadable), the smallest version that
/// holds the text.
public struct QRCode: Equatable, Sendable {
    /// Modules per side (21 for version 1, four more per version, up to 177).
    public let size: Int
    /// Whether each module is dark, row by row from the top left (`size` × `size`).
    public let modules: [Bool]

    /// The light modules every side must keep clear around the code so a reader finds it (ISO/IEC 18004).
    public static let quietZone = 4

    /// Encodes `text` (its UTF-8 bytes).
    /// - Throws: ``QRCodeError`` when the text is empty or longer than a QR code holds at level M
    ///   (2,331 bytes).
    public init(encoding text: String) throws {
        guard !text.isEmpty else { throw QRCodeError(message: localized("There is nothing to put in the code.")) }
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            // Translators: %d is a number of bytes.
            throw QRCodeError(message: localized("The text is too long for a code (%d bytes).", text.utf8.count))
        }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        self.size = size
        modules = (0..<(size * size)).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module in `row` and `column` (from 0, top left) is dark.
    public func isDark(row: Int, column: Int) -> Bool { modules[row * size + column] }

    /// The code as a picture, black on white with its quiet zone, `modulePixels` pixels a module (1 or
    /// more): to save, print, or show to a camera. Nil when there is not the memory for its pixels.
    @MainActor
    public func texture(modulePixels: Int = 8) -> Texture? {
        let module = max(1, modulePixels)
        let side = (size + 2 * Self.quietZone) * module
        var bytes = [UInt8](repeating: 255, count: side * side * 3)
        for row in 0..<size {
            for column in 0..<size where isDark(row: row, column: column) {
                for y in 0..<module {
                    let start = (((row + Self.quietZone) * module + y) * side + (column + Self.quietZone) * module) * 3
                    for index in start..<(start + module * 3) { bytes[index] = 0 }
                }
            }
        }
        let frame = bytes.withUnsafeBytes { PixelBuffer(copying: $0.baseAddress!, width: Int32(side), height: Int32(side), stride: side * 3) }
        return frame.map(Texture.init)
    }
}

/// Why text cannot be made into a QR code, in a sentence for the user.
public struct QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The sentence.
    public let message: String
    /// The sentence.
    public var description: String { message }
}

/// A QR code drawn sharp at any scale factor: every module is a whole number of device pixels (the
/// largest that fits), the code is centred on whole device pixels, with its quiet zone, and it is always
/// black on white, in the dark and high-contrast styles too, since phones' readers look for dark modules
/// on a light ground. Read by screen readers as an image named by `accessibleLabel`.
///
/// Main actor only.
@MainActor
public final class QRCodeView {
    /// The drawing (a `GtkDrawingArea`, at least `side` × `side` logical pixels).
    public var view: Widget { area }
    private let area: DrawingArea
    /// The code shown.
    public private(set) var code: QRCode

    /// Shows `code`, asking for `side` × `side` logical pixels (default 240).
    public init(code: QRCode, side: Int32 = 240, accessibleLabel: String) {
        self.code = code
        area = DrawingArea(width: side, height: side, readAsImage: true)
        area.addCSSClass("qr-code")
        area.setAccessibleLabel(accessibleLabel)
        area.horizontalAlignment = .center
        area.onDraw { [weak self] cairo, width, height in
            guard let self else { return }
            Self.draw(self.code, on: cairo, width: width, height: height, scale: Int32(self.area.scaleFactor))
        }
    }

    /// Shows `code` instead.
    public func show(_ code: QRCode) {
        self.code = code
        area.queueDraw()
    }

    /// The device pixels per module for a code of `size` modules in `width` × `height` logical pixels at
    /// `scale`: the largest whole number that fits the code and its quiet zone (at least 1).
    public static func modulePixels(size: Int, width: Int, height: Int, scale: Int) -> Int {
        let available = min(width, height) * max(1, scale)
        return max(1, available / (size + 2 * QRCode.quietZone))
    }

    private static func draw(_ code: QRCode, on cairo: OpaquePointer, width: Int32, height: Int32, scale: Int32) {
        let scale = max(1, scale)
        let module = modulePixels(size: code.size, width: Int(width), height: Int(height), scale: Int(scale))
        let side = module * (code.size + 2 * QRCode.quietZone)
        // Device pixels from here on, the code's corner on a whole device pixel.
        cairo_save(cairo)
        cairo_scale(cairo, 1 / Double(scale), 1 / Double(scale))
        cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
        let left = (Int(width) * Int(scale) - side) / 2, top = (Int(height) * Int(scale) - side) / 2
        cairo_set_source_rgb(cairo, 1, 1, 1)
        cairo_rectangle(cairo, Double(left), Double(top), Double(side), Double(side))
        cairo_fill(cairo)
        cairo_set_source_rgb(cairo, 0, 0, 0)
        let origin = QRCode.quietZone * module
        for row in 0..<code.size {
            for column in 0..<code.size where code.isDark(row: row, column: column) {
                cairo_rectangle(cairo, Double(left + origin + column * module), Double(top + origin + row * module),
                                Double(module), Double(module))
            }
        }
        cairo_fill(cairo)
        cairo_restore(cairo)
    }
}
