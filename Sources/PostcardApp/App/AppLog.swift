import Gtk

/// Postcard's log, in GLib's log domain `Postcard` (`G_MESSAGES_DEBUG=Postcard` shows its info and debug
/// lines). The toolkit logs in its own domain, `NavigationGtk`.
let appLog = Logger(domain: "Postcard")
