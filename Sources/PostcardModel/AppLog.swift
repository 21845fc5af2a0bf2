import GLib

/// Postcard's log, in GLib's log domain `Postcard` (`G_MESSAGES_DEBUG=Postcard` shows its info and debug
/// lines). The toolkit logs in its own domain, `NavigationGtk`.
package let appLog = Logger(domain: "Postcard")
