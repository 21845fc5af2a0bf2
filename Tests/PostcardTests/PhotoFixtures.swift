import Foundation
import Glibc
import Gtk
import PhotoPosting
import PostcardModel
@testable import PostcardStore

/// Test photos made on the fly: hostile files, nested folders, odd names, orientation tags.
enum PhotoFixtures {
    /// Tests/PostcardTests/Fixtures: one small image in each format people have.
    static var formatsFolder: String {
        ((#filePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Fixtures")
    }

    /// The repository's Resources/photos.
    static var samples: String {
        let tests = ((#filePath as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        return ((tests as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Resources/photos")
    }

    /// A PNG whose header claims `width` × `height` pixels (a few hundred bytes on disk).
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func chunk(_ type: String, _ body: Data) {
            var length = UInt32(body.count).bigEndian
            data.append(Data(bytes: &length, count: 4))
            let typed = Data(type.utf8) + body
            data.append(typed)
            var crc = crc32(typed).bigEndian
            data.append(Data(bytes: &crc, count: 4))
        }
        var header = Data()
        for value in [width, height] { var big = value.bigEndian; header.append(Data(bytes: &big, count: 4)) }
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit RGB
        chunk("IHDR", header)
        chunk("IDAT", Data([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]))
        chunk("IEND", Data())
        return data
    }

    /// A real PNG of `width` × `height` pixels of one colour, written by GdkPixbuf.
    @MainActor
    static func writePNG(width: Int, height: Int, to path: String) {
        let texture = Texture.solid(width: width, height: height, rgba: 0x3584E4FF)
        precondition(texture.save(toPNG: FilePath(path)))
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    /// Creates a file whose name is the raw bytes `name` (need not be UTF-8) in `folder`, holding `contents`.
    static func createFile(rawName name: [UInt8], in folder: String, contents: Data) {
        let path = Array(folder.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
        }
        precondition(fd >= 0)
        _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, contents.count) }
        close(fd)
    }

    /// Sets the modification time of `path` to `seconds` since 1970.
    static func setModified(_ path: String, _ seconds: Int) {
        var times = [timeval(tv_sec: seconds, tv_usec: 0), timeval(tv_sec: seconds, tv_usec: 0)]
        utimes(path, &times)
    }
}
