import CGtk

/// One entry of a folder listing (from GIO's `GFileInfo`).
public struct DirectoryEntry: Sendable {
    /// What the entry is (symbolic links are followed).
    public enum Kind: Sendable {
        /// A regular file.
        case regular
        /// A folder.
        case directory
        /// A symbolic link whose target does not exist.
        case brokenLink
        /// Anything else (devices, pipes, sockets): never opened.
        case other
    }
    /// The entry's `file://` URI (byte-exact for any file name).
    public let uri: String
    /// Regular file, folder, or something else.
    public let kind: Kind
    /// Hidden (a dot-file, or listed in `.hidden`).
    public let isHidden: Bool
    /// The MIME type GIO guesses from the name alone (`g_content_type_guess` without data), e.g.
    /// "image/jpeg" also for an empty or damaged `.jpg`; "" when unknown.
    public let mimeType: String
    /// Last modification, in seconds since 1970-01-01 UTC.
    public let modified: UInt64
    /// The file system's identity of the file (`id::file`), the same through every path that reaches it.
    public let fileID: String
}

/// Lists a folder asynchronously with GIO (`g_file_enumerate_children_async`, then
/// `g_file_enumerator_next_files_async` in batches): the disk is read on GIO's worker threads and each
/// batch arrives on the main loop, so the main thread never waits. Cancelling the task that awaits a call
/// cancels GIO's work for it (a `GCancellable`), which then throws `CancellationError`. Main actor only.
@MainActor
public final class DirectoryReader {
    nonisolated(unsafe) private let enumerator: UnsafeMutablePointer<GFileEnumerator>
    nonisolated(unsafe) private let folder: OpaquePointer
    private static let attributes = "standard::name,standard::type,standard::is-hidden,time::modified,id::file"

    private init(enumerator: UnsafeMutablePointer<GFileEnumerator>, folder: OpaquePointer) {
        self.enumerator = enumerator
        self.folder = folder
    }

    deinit {  // unref closes the listing (GFileEnumerator's dispose)
        g_object_unref(UnsafeMutableRawPointer(enumerator))
        g_object_unref(UnsafeMutableRawPointer(folder))
    }

    /// Opens the folder at `uri` for listing.
    /// - Throws: `GLibError` with GIO's reason (missing, not a folder, no permission);
    ///   `CancellationError` when the calling task is cancelled.
    public static func open(uri: String) async throws -> DirectoryReader {
        let folder = g_file_new_for_uri(uri)!
        do {
            let enumerator: UnsafeMutablePointer<GFileEnumerator> = try await AsyncCall.run { callback, box, cancellable in
                g_file_enumerate_children_async(folder, attributes, G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT,
                                                cancellable, callback, box)
            } finish: { result, error in
                g_file_enumerate_children_finish(folder, result, error)
            }
            return DirectoryReader(enumerator: enumerator, folder: folder)
        } catch {
            g_object_unref(UnsafeMutableRawPointer(folder))
            throw error
        }
    }

    /// The identity (`id::file`) of the file or folder at `uri`, read asynchronously; nil when it
    /// cannot be read.
    public static func fileID(uri: String) async -> String? {
        let file = g_file_new_for_uri(uri)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let info: OpaquePointer? = try? await AsyncCall.run { callback, box, cancellable in
            g_file_query_info_async(file, "id::file", G_FILE_QUERY_INFO_NONE, G_PRIORITY_DEFAULT, cancellable, callback, box)
        } finish: { result, error in
            g_file_query_info_finish(file, result, error)
        }
        guard let info else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        return g_file_info_get_attribute_string(info, "id::file").map { String(cString: $0) }
    }

    /// The next up to `count` entries; an empty array when the listing is finished.
    /// - Throws: `GLibError` when the folder cannot be read further; `CancellationError` when the
    ///   calling task is cancelled.
    public func next(_ count: Int) async throws -> [DirectoryEntry] {
        let enumerator = self.enumerator, folder = self.folder
        let list: OpaquePointer? = try await AsyncCall.run { callback, box, cancellable in
            g_file_enumerator_next_files_async(enumerator, Int32(clamping: count), G_PRIORITY_DEFAULT, cancellable, callback, box)
        } finish: { result, error in
            g_file_enumerator_next_files_finish(enumerator, result, error).map { OpaquePointer($0) }
        }
        guard let list else { return [] }
        var entries: [DirectoryEntry] = []
        var node: UnsafeMutablePointer<GList>? = UnsafeMutablePointer(list)
        while let current = node {
            if let raw = current.pointee.data {
                let info = OpaquePointer(raw)
                let child = g_file_get_child(folder, g_file_info_get_name(info))!
                let childURI = g_file_get_uri(child)!
                let uri = String(cString: childURI)
                let kind: DirectoryEntry.Kind = switch g_file_info_get_file_type(info) {
                case G_FILE_TYPE_REGULAR: .regular
                case G_FILE_TYPE_DIRECTORY: .directory
                case G_FILE_TYPE_SYMBOLIC_LINK: .brokenLink  // links that resolve report their target's type
                default: .other
                }
                let type = g_content_type_guess(g_file_info_get_name(info), nil, 0, nil)
                defer { g_free(type) }
                let mime = type.flatMap { g_content_type_get_mime_type($0) }
                entries.append(DirectoryEntry(
                    uri: uri, kind: kind, isHidden: g_file_info_get_is_hidden(info) != 0,
                    mimeType: mime.map { String(cString: $0) } ?? "",
                    modified: UInt64(g_file_info_get_attribute_uint64(info, "time::modified")),
                    fileID: g_file_info_get_attribute_string(info, "id::file").map { String(cString: $0) } ?? uri))
                g_free(mime)
                g_free(childURI)
                g_object_unref(UnsafeMutableRawPointer(child))
                g_object_unref(raw)
            }
            node = current.pointee.next
        }
        g_list_free(UnsafeMutablePointer(list))
        return entries
    }
}

/// Bridges one GIO asynchronous call (`…_async` + `…_finish`) to `async`/`await`. The callback runs on
/// the main loop; `finish` turns the `GAsyncResult` into a value or a `GError`.
@MainActor
package enum AsyncCall {
    final class Box: @unchecked Sendable {
        let resume: (OpaquePointer?) -> Void
        init(_ resume: @escaping (OpaquePointer?) -> Void) { self.resume = resume }
    }

    struct Handle<T>: @unchecked Sendable { let value: T }

    package static func run<T>(
        start: (GAsyncReadyCallback, UnsafeMutableRawPointer, UnsafeMutablePointer<GCancellable>) -> Void,
        finish: @escaping (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> T?
    ) async throws -> T {
        // Cancelling the calling task cancels GIO's work (`g_cancellable_cancel` is thread-safe); the call
        // then ends with CancellationError.
        let cancellable = Handle(value: g_cancellable_new()!)
        defer { g_object_unref(UnsafeMutableRawPointer(cancellable.value)) }
        let handle: Handle<T> = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let box = Box { result in
                    var error: UnsafeMutablePointer<GError>?
                    let value = finish(result, &error)
                    if let error {
                        let cancelled = g_error_matches(error, g_io_error_quark(), gint(G_IO_ERROR_CANCELLED.rawValue)) != 0
                        continuation.resume(throwing: cancelled ? CancellationError() as Error : GLibError(taking: error))
                        if cancelled { g_error_free(error) }
                    } else if let value {
                        continuation.resume(returning: Handle(value: value))
                    } else {
                        continuation.resume(throwing: GLibError.toolkit("No result"))
                    }
                }
                start({ _, result, data in
                    Unmanaged<Box>.fromOpaque(data!).takeRetainedValue().resume(result)
                }, Unmanaged.passRetained(box).toOpaque(), cancellable.value)
            }
        } onCancel: {
            g_cancellable_cancel(cancellable.value)
        }
        return handle.value
    }
}
