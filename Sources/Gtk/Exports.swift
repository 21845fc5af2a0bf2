// The GLib layer (FilePath, Files, DateText, Logger, GLibError, localized) is part of what every user
// of Gtk sees, as GTK's own headers include GLib's.
@_exported import GLib
