import CGStreamer
import Glibc
import Gtk
import Synchronization

/// Hands frames from GStreamer's streaming thread to the main thread: it keeps only the newest frame
/// and schedules at most one delivery at a time, so the streaming thread never waits for the main one.
final class FrameMailbox: @unchecked Sendable {
    private struct Slot {
        var frame: PixelBuffer?
        var isScheduled = false
        var isClosed = false
    }

    private let slot = Mutex(Slot())
    private let deliver: @MainActor (PixelBuffer) -> Void

    init(deliver: @escaping @MainActor (PixelBuffer) -> Void) { self.deliver = deliver }

    /// Streaming thread: copies the newest sample's pixels and schedules a delivery if none is pending.
    func pull(from sink: UnsafeMutablePointer<GstAppSink>) {
        guard let sample = gst_app_sink_pull_sample(sink) else { return }
        defer { gst_sample_unref(sample) }
        guard let frame = Self.pixels(of: sample) else { return }
        let schedule = slot.withLock { slot -> Bool in
            guard !slot.isClosed else { return false }
            slot.frame = frame
            if slot.isScheduled { return false }
            slot.isScheduled = true
            return true
        }
        guard schedule else { return }
        MainLoopBridge.onMainThread { [self] in
            let frame = slot.withLock { slot -> PixelBuffer? in
                slot.isScheduled = false
                defer { slot.frame = nil }
                return slot.isClosed ? nil : slot.frame
            }
            if let frame { deliver(frame) }
        }
    }

    /// No more deliveries (the pipeline is stopping).
    func close() { slot.withLock { $0.isClosed = true; $0.frame = nil } }

    /// The RGB pixels of `sample`, copied (layout from the buffer's video meta, else from its caps).
    private static func pixels(of sample: OpaquePointer) -> PixelBuffer? {
        guard let caps = gst_sample_get_caps(sample), let buffer = gst_sample_get_buffer(sample),
              let info = gst_video_info_new() else { return nil }
        defer { gst_video_info_free(info) }
        guard gst_video_info_from_caps(info, caps) != 0 else { return nil }
        var width = postcard_video_info_width(info), height = postcard_video_info_height(info)
        var stride = Int(postcard_video_info_stride(info))
        var offset = 0
        if let meta = gst_buffer_get_video_meta(buffer) {
            width = Int32(meta.pointee.width)
            height = Int32(meta.pointee.height)
            stride = Int(meta.pointee.stride.0)
            offset = Int(meta.pointee.offset.0)
        }
        var map = GstMapInfo()
        guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return nil }
        defer { gst_buffer_unmap(buffer, &map) }
        guard let data = map.data, Int(map.size) >= offset + stride * Int(height) else { return nil }
        return PixelBuffer(copying: UnsafeRawPointer(data) + offset, width: width, height: height, stride: stride)
    }
}
