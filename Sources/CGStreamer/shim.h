// GStreamer for the camera: the core, appsink (frames handed to the app) and the video library
// (frame layout from caps). Debian: libgstreamer1.0-dev, libgstreamer-plugins-base1.0-dev.
#ifndef POSTCARD_CGSTREAMER_SHIM_H
#define POSTCARD_CGSTREAMER_SHIM_H
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

// Macros Swift cannot import.
static inline gint postcard_video_info_width(const GstVideoInfo *info) { return GST_VIDEO_INFO_WIDTH(info); }
static inline gint postcard_video_info_height(const GstVideoInfo *info) { return GST_VIDEO_INFO_HEIGHT(info); }
static inline gint postcard_video_info_stride(const GstVideoInfo *info) { return GST_VIDEO_INFO_PLANE_STRIDE(info, 0); }
static inline GstMessageType postcard_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *postcard_message_source(GstMessage *message) { return GST_MESSAGE_SRC(message); }
#endif
