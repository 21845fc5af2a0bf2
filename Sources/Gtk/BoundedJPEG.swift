import CGtk
import Glibc

/// Reads JPEG files into GdkPixbuf with memory bounded by the pixels decoded and a fixed buffer, not
/// by the file's size.
///
/// GdkPixbuf's JPEG loader keeps every APP1 and APP2 segment in memory (libjpeg's saved markers, for
/// EXIF, XMP and ICC profiles), and each segment may be 64 KiB: a photo of a few hundred thousand pixels
/// padded with thousands of them (large metadata segments come from some cameras and editors) costs its
/// whole file size to list, thumbnail or show, and seconds to read. Here the file is streamed through a
/// 64 KiB buffer into a `GdkPixbufLoader`, keeping what decoding and turning upright need — the JFIF and
/// Adobe segments (the colour transform), the first EXIF segment (its orientation), the tables, the
/// frame and the scans — and
/// skipping the other APPn segments and comments with a seek; nothing after the end-of-image marker is
/// read (the previews some cameras append). Blocking: call it off the main thread.
enum BoundedJPEG {
    /// The size in pixels as stored (before EXIF orientation), from the segments before the first scan.
    /// - Throws: ``ImageLoadError`` (`.unreadable`) when it is not a JPEG (it doesn't start with SOI and
    ///   a marker) or not one GdkPixbuf can read.
    static func size(_ filename: UnsafePointer<CChar>) throws -> (Int32, Int32) {
        var size = NavgtkLoaderSize()
        try feed(filename, into: &size, headerOnly: true)
        return (Int32(size.width), Int32(size.height))
    }

    /// The image decoded at `width` × `height` (libjpeg scales while decoding; GdkPixbuf scales the
    /// rest), with its EXIF orientation attached for `gdk_pixbuf_apply_embedded_orientation`.
    /// - Throws: ``ImageLoadError`` (`.unreadable`) with GdkPixbuf's reason.
    static func decode(_ filename: UnsafePointer<CChar>, width: Int32, height: Int32) throws -> OpaquePointer {
        var size = NavgtkLoaderSize()
        size.target_width = width
        size.target_height = height
        guard let pixbuf = try feed(filename, into: &size, headerOnly: false) else {
            throw ImageLoadError(.unreadable, toolkitLocalized("The image is damaged: %s", toolkitLocalized("it could not be decoded")))
        }
        return pixbuf
    }

    /// Streams the kept segments of `filename` into a JPEG loader. With `headerOnly`, the loader is told
    /// to decode nothing (a size of 0 × 0 in `size-prepared`, as `gdk_pixbuf_get_file_info` does), so it
    /// stops once the size is known, and nil is returned; else the decoded pixbuf (one reference).
    @discardableResult
    private static func feed(_ filename: UnsafePointer<CChar>, into size: inout NavgtkLoaderSize, headerOnly: Bool) throws -> OpaquePointer? {
        guard let file = fopen(filename, "rb") else {
            throw ImageLoadError(.unreadable, String(cString: g_strerror(errno)))
        }
        defer { fclose(file) }
        var start = [UInt8](repeating: 0, count: 3)
        guard fread(&start, 1, 3, file) == 3, start == [0xFF, 0xD8, 0xFF] else { throw LoaderWriter.damaged(nil) }  // not a JPEG
        rewind(file)
        guard let loader = gdk_pixbuf_loader_new_with_type("jpeg", nil) else {
            throw ImageLoadError(.unreadable, toolkitLocalized("This computer can't open JPEG images"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        size.header_only = headerOnly ? 1 : 0
        return try withUnsafeMutablePointer(to: &size) { sizePointer in
            navgtk_loader_watch_size(loader, sizePointer)
            var writer = LoaderWriter(loader: loader, file: file)
            var failure: Error?
            var complete = false
            do { complete = try writer.copyKeptSegments(headerOnly: headerOnly) } catch { failure = error }
            // Closed on every way out (a loader whose write failed has closed itself).
            var closeError: UnsafeMutablePointer<GError>?
            let closed = writer.loaderClosed || gdk_pixbuf_loader_close(loader, &closeError) != 0
            let closeReason = closeError.map { String(cString: $0.pointee.message) }
            if let closeError { g_error_free(closeError) }
            let prepared = sizePointer.pointee.prepared != 0 && sizePointer.pointee.width > 0 && sizePointer.pointee.height > 0
            if headerOnly {
                // The loader refuses the first write after the size (0 × 0): expected once it is known.
                guard prepared else { throw failure ?? LoaderWriter.damaged(closeReason) }
                return nil
            }
            if let failure { throw failure }
            // A file cut short still shows what it has (grey below), as gdk_pixbuf_new_from_file does.
            guard prepared, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { throw LoaderWriter.damaged(closeReason) }
            if !closed || !complete { Logger.toolkit.debug("JPEG read to its end without an end-of-image marker: \(String(cString: filename))") }
            return OpaquePointer(g_object_ref(UnsafeMutableRawPointer(pixbuf)))
        }
    }

    /// Copies from a JPEG file to a loader, segment by segment, through one 64 KiB buffer.
    private struct LoaderWriter {
        let loader: UnsafeMutablePointer<GdkPixbufLoader>
        let file: UnsafeMutablePointer<FILE>
        var buffer = [UInt8](repeating: 0, count: 65_536)
        /// Whether a write failed: GdkPixbuf has then closed the loader itself.
        private(set) var loaderClosed = false

        init(loader: UnsafeMutablePointer<GdkPixbufLoader>, file: UnsafeMutablePointer<FILE>) {
            self.loader = loader
            self.file = file
        }

        static func damaged(_ reason: String?) -> ImageLoadError {
            ImageLoadError(.unreadable, toolkitLocalized("The image is damaged: %s", reason ?? toolkitLocalized("it could not be decoded")))
        }

        func damaged() -> ImageLoadError { Self.damaged(nil) }

        /// Writes `bytes` to the loader. - Throws: when the loader refuses them (it is then closed).
        mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
            guard bytes.count > 0 else { return }
            var error: UnsafeMutablePointer<GError>?
            guard gdk_pixbuf_loader_write(loader, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), gsize(bytes.count), &error) != 0 else {
                loaderClosed = true
                let reason = error.map { String(cString: $0.pointee.message) }
                if let error { g_error_free(error) }
                throw Self.damaged(reason)
            }
        }

        mutating func write(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try write($0) } }

        func readByte() -> UInt8? {
            let byte = fgetc(file)
            return byte == EOF ? nil : UInt8(byte)
        }

        /// Copies `count` bytes from the file to the loader. - Returns: false at the end of the file.
        mutating func copy(_ count: Int) throws -> Bool {
            var left = count
            while left > 0 {
                let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, min(left, $0.count), file) }
                guard read > 0 else { return false }
                try buffer.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
                left -= read
            }
            return true
        }

        /// Copies the segments decoding needs, then (unless `headerOnly`) the scans up to the end-of-image
        /// marker. - Returns: whether the end-of-image marker was reached.
        mutating func copyKeptSegments(headerOnly: Bool) throws -> Bool {
            guard readByte() == 0xFF, readByte() == 0xD8 else { throw damaged() }
            try write([0xFF, 0xD8])
            var keptExif = false
            while true {
                guard var marker = readByte() else { return false }
                // Bytes that are not a marker (libjpeg skips them, warning of "extraneous bytes"), then fill bytes.
                while marker != 0xFF { guard let next = readByte() else { return false }; marker = next }
                repeat { guard let next = readByte() else { return false }; marker = next } while marker == 0xFF
                switch marker {
                case 0xD9:  // end of image
                    try write([0xFF, 0xD9])
                    return true
                case 0x01, 0xD0...0xD7:  // no length
                    try write([0xFF, marker])
                    continue
                default:
                    break
                }
                guard let high = readByte(), let low = readByte() else { return false }
                let length = Int(high) << 8 | Int(low)
                guard length >= 2 else { throw damaged() }
                let isMetadata = (0xE0...0xEF).contains(marker) || marker == 0xFE
                // JFIF (APP0) and Adobe (APP14) tell libjpeg the colour transform: kept.
                var keep = !isMetadata || marker == 0xE0 || marker == 0xEE
                var head: [UInt8] = []
                if marker == 0xE1 && !keptExif {
                    // The first EXIF segment holds the orientation.
                    for _ in 0..<min(6, length - 2) { if let byte = readByte() { head.append(byte) } }
                    keep = head == Array("Exif\0\0".utf8)
                    keptExif = keep
                }
                if keep {
                    try write([0xFF, marker, high, low] + head)
                    guard try copy(length - 2 - head.count) else { return false }
                } else if fseeko(file, off_t(length - 2 - head.count), SEEK_CUR) != 0 {
                    return false
                }
                if marker == 0xDA {  // start of scan: the size is known; the entropy-coded data follows
                    if headerOnly { return false }
                    return try copyScansToEnd()
                }
            }
        }

        /// Copies everything from the first scan up to and including the end-of-image marker (FF D9 can't
        /// occur inside entropy-coded data, where FF is always followed by 00 or a restart marker).
        mutating func copyScansToEnd() throws -> Bool {
            var previous: UInt8 = 0
            while true {
                let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                guard read > 0 else { return false }
                // Each D9 byte (memchr), preceded by FF here or at the end of the last chunk, ends it.
                let end: Int? = buffer.withUnsafeBytes { bytes in
                    let base = bytes.baseAddress!
                    var from = 0
                    while from < read, let hit = memchr(base + from, 0xD9, read - from) {
                        let index = base.distance(to: UnsafeRawPointer(hit))
                        if (index == 0 ? previous : bytes[index - 1]) == 0xFF { return index + 1 }
                        from = index + 1
                    }
                    return nil
                }
                previous = buffer[read - 1]
                try buffer.withUnsafeBytes { try write(UnsafeRawBufferPointer(rebasing: $0[..<(end ?? read)])) }
                if end != nil { return true }
            }
        }
    }
}
