import Gtk
import PostcardModel
import PostcardStore

/// The user and their friends as the app shows them: read from the store (``reload()``) and told to
/// observers after each change (``observe(_:)``), so My Profile's friends, Choose Recipient and the
/// routes always agree with the store.
///
/// Main actor only.
@MainActor
public final class People {
    /// Who the user is to other Postcards (their id and name).
    public private(set) var identity: Identity
    /// The friends, in the order they were added.
    public private(set) var friends: [Friend]

    private let store: PostStore
    private let changes = Observers<Void>()
    private var followsStore: ObservationToken?

    /// Reads the user and their friends from `store`. A store that cannot be read shows no friends and
    /// a user named as GLib names them (the problem is logged).
    public init(store: PostStore) {
        self.store = store
        identity = (try? store.identity()) ?? Identity(id: "", name: PostStore.fallbackName)
        friends = []
        friends = readFriends()
        // A friend added, removed or brought back, or the user's name changed: read again from the store.
        followsStore = store.changes.add { [weak self] change in
            switch change {
            case .friendAdded, .renamed, .deleted(.friend), .restored(.friend): self?.reload()
            default: break
            }
        }
    }

    /// The user, as a person (id ``Identity/localID``, their current name).
    public var me: Person { Person(id: Identity.localID, name: identity.name) }

    /// The friends, as people.
    public var friendPeople: [Person] { friends.map(Person.init) }

    /// The user (``Identity/localID`` or their own ``Identity/id``) or the friend with `id`, else nil.
    public func person(id: String) -> Person? {
        if isMe(id) { return me }
        return friends.first { $0.id == id }.map(Person.init)
    }

    /// The friend with `id`, else nil.
    public func friend(id: String) -> Friend? { friends.first { $0.id == id } }

    /// Whether `id` is the user's own (``Identity/localID`` or ``Identity/id``).
    public func isMe(_ id: String) -> Bool { id == Identity.localID || !identity.id.isEmpty && id == identity.id }

    /// Calls `handler` after each change of the user's name or the friends (read again from the store),
    /// until the token goes.
    public func observe(_ handler: @escaping @MainActor () -> Void) -> ObservationToken { changes.add { handler() } }

    /// Reads the user and friends again from the store, then tells the observers.
    public func reload() {
        if let read = try? store.identity() { identity = read }
        friends = readFriends()
        changes.notify(())
    }

    /// Adds `id` named `name` as a friend (the store's writer); the people read again as the store tells.
    /// - Throws: ``PostStoreError`` (already a friend, the database not writable).
    @discardableResult
    public func addFriend(id: String, name: String) async throws -> Friend {
        try await store.addFriend(id: id, name: name)
    }

    /// Changes the user's name (the store's writer); the people read again as the store tells.
    /// - Throws: ``PostStoreError`` when it cannot be written.
    public func rename(to name: String) async throws {
        try await store.rename(to: name)
    }

    private func readFriends() -> [Friend] {
        do {
            return try store.friends()
        } catch {
            appLog.problem("Can't read the friends: \(error)")
            return []
        }
    }
}
