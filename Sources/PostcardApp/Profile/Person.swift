import PostcardModel

/// Someone with a profile page: the app's user (id ``Identity/localID``) or one of their friends.
public struct Person: Equatable, Hashable, Sendable, Identifiable {
    /// A stable key, stored with posts (`author`, `profile`): ``Identity/localID`` for the user, a
    /// friend's ``Friend/id`` for them.
    public let id: String
    /// The name shown on the profile and in lists.
    public let name: String

    /// Creates a person.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The friend as a person.
    public init(_ friend: Friend) { self.init(id: friend.id, name: friend.name) }

    /// Whether this is the app's user.
    public var isMe: Bool { id == Identity.localID }
}
