/// Someone with a profile page: the user ("me") or one of their (made-up) friends.
public struct Person: Equatable, Hashable, Sendable, Identifiable {
    /// A stable key, stored with posts (`author`, `profile`).
    public let id: String
    /// The name shown on the profile and in lists.
    public let name: String

    /// Creates a person.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// The app's user.
    public static let me = Person(id: "me", name: "Sam Rivera")

    /// The person with `id` among ``me`` and ``friends``, or nil.
    public static func named(_ id: String) -> Person? {
        ([me] + friends).first { $0.id == id }
    }

    /// The made-up friends listed on My Profile.
    public static let friends = [
        Person(id: "ada", name: "Ada Lovelace"),
        Person(id: "grace", name: "Grace Hopper"),
        Person(id: "alan", name: "Alan Turing"),
    ]
}
