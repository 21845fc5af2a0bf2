import CGtk
import CWebKit
import Gtk
import NavigationGtk

// What a web page may open: the policy for each address (load here, hand to the desktop, refuse), the
// question asked before a clicked link leaves for another program, and responses WebKit would download.
extension WebPage {
    // MARK: - Policy

    enum Decision: Equatable { case load, openOutside, refuse(String) }

    func decision(for uri: String) -> Decision {
        let scheme = g_uri_peek_scheme(uri).map { String(cString: $0) } ?? ""  // interned, lower case
        switch scheme {
        case "http", "https", "about":
            return .load
        case "file":
            // The file's path, without the #fragment or ?query (which GLib's file URIs cannot carry).
            let file = String(uri.prefix { $0 != "#" && $0 != "?" })
            guard let localFolder, let path = FilePath(uri: file) else {
                return .refuse(toolkitLocalized("Files are not opened from web pages."))
            }
            return path.absolute.hasPrefix(localFolder) ? .load : .refuse(toolkitLocalized("Files are not opened from web pages."))
        case "":
            return .refuse(toolkitLocalized("This link is not opened here."))
        case "javascript", "data", "blob":
            // Translators: %s is the kind of link, e.g. "javascript:".
            return .refuse(toolkitLocalized("%s links are not opened here.", scheme + ":"))
        default:
            return .openOutside
        }
    }

    func openOutside(_ uri: String) {
        openedOutside.append(uri)
        do {
            try DefaultApplication.open(uri)
        } catch let error as GLibError where error.domain == "g-io-error-quark" && error.code == 15 {  // NOT_SUPPORTED
            if let scheme = g_uri_peek_scheme(uri).map({ String(cString: $0) }) {
                // Translators: %1$s is a web site or address, %2$s the kind of link, e.g. "mailto".
                show(message: toolkitLocalized("No application on this computer opens %1$s (%2$s links).", Self.host(of: uri), scheme))
            } else {
                // Translators: %s is a web site or address.
                show(message: toolkitLocalized("No application on this computer opens %s (this kind of links).", Self.host(of: uri)))
            }
        } catch {
            // Translators: %1$s is a web address, %2$s why it can't be opened.
            show(message: toolkitLocalized("Couldn't open %1$s: %2$s", uri, "\(error)"))
        }
    }

    /// A link to another scheme: opened only when the user clicked it and confirms (see
    /// ``confirmOpeningOutside``); said on the page otherwise.
    func openOutsideIfConfirmed(_ uri: String, userClicked: Bool) {
        let scheme = g_uri_peek_scheme(uri).map { String(cString: $0) } ?? ""
        if Self.appSchemes.contains(scheme) {
            return show(message: toolkitLocalized("%s links are not opened here.", scheme + ":"))
        }
        guard userClicked else {
            // Translators: a web page tried to open another kind of link (%s, e.g. "mailto:") without a click.
            return show(message: toolkitLocalized("The page tried to open a %s link by itself; it was not opened.", scheme + ":"))
        }
        guard let confirm = confirmOpeningOutside else {
            return show(message: toolkitLocalized("%s links are not opened here.", scheme + ":"))
        }
        guard !isAskingToOpenOutside else { return }
        isAskingToOpenOutside = true
        confirm(uri) { [weak self] open in
            guard let self else { return }
            self.isAskingToOpenOutside = false
            if open { self.openOutside(uri) }
        }
    }

    /// Handles a navigation or new-window decision; true when decided here.
    func decide(_ policy: OpaquePointer, type kind: Int) -> Bool {
        let newWindow = kind == Int(NAVGTK_WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
        guard kind == Int(NAVGTK_WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION) || newWindow,
              // for these two types the decision is a WebKitNavigationPolicyDecision
              let action = webKit.navigation_policy_decision_get_navigation_action(policy),
              let request = webKit.navigation_action_get_request(action),
              let uriPointer = webKit.uri_request_get_uri(request) else { return false }
        let uri = String(cString: uriPointer)
        switch self.decision(for: uri) {
        case .load:
            if newWindow {
                webKit.policy_decision_ignore(policy)
                load(uri)  // a link to a new window opens here
            } else {
                webKit.policy_decision_use(policy)
            }
        case .openOutside:
            webKit.policy_decision_ignore(policy)
            openOutsideIfConfirmed(uri, userClicked: webKit.navigation_action_is_user_gesture(action) != 0)
        case .refuse(let reason):
            webKit.policy_decision_ignore(policy)
            show(message: reason)
        }
        return true
    }

    /// Shows a response the view can show; refuses one it would save instead (an attachment, or a type
    /// it cannot show): a page never starts a download. Always decided here.
    func decideResponse(_ policy: OpaquePointer) -> Bool {
        var isAttachment = false
        if let response = webKit.response_policy_decision_get_response(policy),
           let headers = webKit.uri_response_get_http_headers(response) {
            var disposition: UnsafeMutablePointer<CChar>?
            var parameters: OpaquePointer?
            if webKit.soup_message_headers_get_content_disposition(headers, &disposition, &parameters) != 0 {
                isAttachment = disposition.map { g_ascii_strcasecmp($0, "attachment") == 0 } ?? false
            }
            g_free(disposition)
            if let parameters { g_hash_table_unref(parameters) }
        }
        guard isAttachment || webKit.response_policy_decision_is_mime_type_supported(policy) == 0 else {
            webKit.policy_decision_use(policy)
            return true
        }
        webKit.policy_decision_ignore(policy)
        let uri = webKit.response_policy_decision_get_request(policy).flatMap(webKit.uri_request_get_uri).map { String(cString: $0) } ?? ""
        Logger.toolkit.info("A download was refused: \(uri)")
        // Translators: shown when a web page tried to save a file on the computer.
        show(message: toolkitLocalized("The page tried to download a file; files are not saved from web pages."))
        return true
    }

}
