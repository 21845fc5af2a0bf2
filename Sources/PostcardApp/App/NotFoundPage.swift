import Adwaita
import Gtk
import NavigationGtk

/// The page a link opens when what it names does not exist (a deleted post, someone who is not a
/// friend): says what was asked for, with Back to leave.
@MainActor
public final class NotFoundPage: Page {
    /// The route that was asked for (what the link named).
    public let requestedRoute: Route
    /// The status shown.
    public let status = StatusPage(iconName: "edit-find-symbolic")

    /// Creates the page for `route`.
    public init(_ route: Route) {
        requestedRoute = route
        // Translators: the title of the page a link opens when what it names doesn't exist.
        super.init(title: localized("Not Found"))
        let what: String = switch route {
        // Translators: on the Not Found page; %s is a person's id from a link, such as "zed".
        case .profile(let id): localized("There is no friend called “%s”.", id)
        // Translators: on the Not Found page; %s is a post's number from a link.
        case .post(let id), .comments(let id): localized("There is no post %s. It may have been deleted.", String(id))
        // Translators: on the Not Found page; %s is a message's number from a link.
        case .message(let id): localized("There is no message %s. It may have been deleted.", String(id))
        default: localized("This page doesn't exist.")
        }
        // Translators: the headline of the Not Found page.
        status.set(title: localized("Nothing Here"), description: what + "\n" + route.link)
        content.append(status)
    }
}
