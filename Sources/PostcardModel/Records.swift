import GLib

/// One stored post.
public struct Post: Equatable, Sendable, Identifiable {
    /// The row id (increasing with each post).
    public let id: Int64
    /// Who posted it (a person's id).
    public let author: String
    /// Whose profile it was posted to (a person's id).
    public let profile: String
    /// The comment text.
    public let comment: String
    /// Absolute path of the store's own copy of the photo.
    public let photoPath: FilePath
    /// When it was posted, in seconds since 1970-01-01 UTC.
    public let createdAt: Int64

    /// A post as stored (the store makes these; tests and tools may too).
    public init(id: Int64, author: String, profile: String, comment: String, photoPath: FilePath, createdAt: Int64) {
        self.id = id
        self.author = author
        self.profile = profile
        self.comment = comment
        self.photoPath = photoPath
        self.createdAt = createdAt
    }
}

/// A reply in a post's comment thread: a photo with a comment.
public struct Reply: Equatable, Sendable, Identifiable {
    /// The row id.
    public let id: Int64
    /// The post replied to.
    public let postID: Int64
    /// Who replied (a person's id).
    public let author: String
    /// The reply's comment.
    public let comment: String
    /// The store's copy of the photo.
    public let photoPath: FilePath
    /// When, in seconds since 1970-01-01 UTC.
    public let createdAt: Int64

    /// A reply as stored.
    public init(id: Int64, postID: Int64, author: String, comment: String, photoPath: FilePath, createdAt: Int64) {
        self.id = id
        self.postID = postID
        self.author = author
        self.comment = comment
        self.photoPath = photoPath
        self.createdAt = createdAt
    }
}

/// A private message: a photo with a comment sent to one person.
public struct Message: Equatable, Sendable, Identifiable {
    /// The row id.
    public let id: Int64
    /// Who sent it (a person's id).
    public let author: String
    /// Who it was sent to (a person's id).
    public let recipient: String
    /// The message text.
    public let comment: String
    /// The store's copy of the photo.
    public let photoPath: FilePath
    /// When, in seconds since 1970-01-01 UTC.
    public let createdAt: Int64

    /// A message as stored.
    public init(id: Int64, author: String, recipient: String, comment: String, photoPath: FilePath, createdAt: Int64) {
        self.id = id
        self.author = author
        self.recipient = recipient
        self.comment = comment
        self.photoPath = photoPath
        self.createdAt = createdAt
    }
}

/// An error from the post store; its text says what failed and why, for showing to the user.
public struct PostStoreError: Error, CustomStringConvertible, Sendable {
    /// What failed, in words a user can act on.
    public let description: String
    /// Whether the same step may work when tried again unchanged once the user has dealt with the cause
    /// (another program let go of the database, the folder was made writable, space was freed): the
    /// window saying why Postcard can't start then offers **Try Again**. False for a damaged database or
    /// one written by a newer Postcard, which trying again can't change.
    public let canTryAgain: Bool
    /// Whether the store can still be opened read-only (its folder can't be written, but its database
    /// can be read): the window saying why then offers **Open Read-Only**.
    public let canOpenReadOnly: Bool

    /// An error saying `description`; `canTryAgain` and `canOpenReadOnly` as above.
    public init(description: String, canTryAgain: Bool = false, canOpenReadOnly: Bool = false) {
        self.description = description
        self.canTryAgain = canTryAgain
        self.canOpenReadOnly = canOpenReadOnly
    }
}

/// What a draft's comment is for: the closed set of flows that keep drafts, stored by name
/// (``rawValue``: `post`, `reply`, `caption`, `message`).
///
/// A store may hold a kind this Postcard does not know (written by a newer one): the store keeps that
/// row untouched and reports it in its log instead of offering it (see ``Draft``).
public enum DraftKind: String, CaseIterable, Sendable {
    /// A post to a profile (mine or a friend's); the target is the profile's person id.
    case post
    /// A reply in a post's comment thread; the target is the post's id, as text.
    case reply
    /// A new caption for one of my posts (Edit Caption); the target is the post's id, as text.
    case caption
    /// A private message; the target is the recipient's person id.
    case message
}

/// A comment being written that was not posted yet: what a flow keeps until it is posted or discarded.
public struct Draft: Equatable, Sendable {
    /// The draft's own id: the running flow's that typed it (random, new for each flow; a resumed flow
    /// goes on with it).
    public let id: String
    /// The id of the Postcard instance whose flow keeps it (empty for a draft from before instances).
    public let owner: String
    /// What the comment is for.
    public let kind: DraftKind
    /// Whose profile (a person's id) or which post (its id, as text) it is for (see ``DraftKind``).
    public let target: String
    /// The chosen photo's `file://` URI.
    public let photoURI: String
    /// The text typed so far.
    public let comment: String
    /// When it was last saved, in seconds since 1970-01-01 UTC.
    public let updatedAt: Int64

    /// A draft `id` kept by instance `owner` of `comment` on the photo at `photoURI`, for `kind` and `target`.
    public init(id: String, owner: String, kind: DraftKind, target: String, photoURI: String, comment: String, updatedAt: Int64) {
        self.id = id
        self.owner = owner
        self.kind = kind
        self.target = target
        self.photoURI = photoURI
        self.comment = comment
        self.updatedAt = updatedAt
    }
}

/// Who the user of this Postcard is to other Postcards: an id made at first launch (a random UUID) and
/// a name they can change. Their posts are stored under ``localID``, the same in every store.
public struct Identity: Equatable, Sendable {
    /// The key the store keeps the user's own posts, replies and messages under (`author`, `profile`).
    public static let localID = "me"
    /// How other Postcards know this user (in their Postcard code): a random UUID, e.g.
    /// `"3f2b…-…"`, made when the store was created.
    public let id: String
    /// The user's name, shown on My Profile and in their code (1 to ``maximumNameLength`` characters,
    /// no control characters).
    public let name: String

    /// The longest name, in characters, that is kept.
    public static let maximumNameLength = 100

    /// An identity (the store makes these; tests and tools may too).
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// A friend as stored: someone added from their Postcard code (or one of the sample friends).
public struct Friend: Equatable, Hashable, Sendable, Identifiable {
    /// The person's id (their ``Identity/id`` on their own Postcard; "ada", "grace" and "alan" for the
    /// sample friends).
    public let id: String
    /// Their name, as their code gave it (shown as text, never interpreted).
    public let name: String
    /// The row id (what removing them marks).
    public let rowID: Int64
    /// When they were added, in seconds since 1970-01-01 UTC (0 for the sample friends).
    public let addedAt: Int64

    /// A friend as stored (the store makes these; tests and tools may too).
    public init(id: String, name: String, rowID: Int64, addedAt: Int64) {
        self.id = id
        self.name = name
        self.rowID = rowID
        self.addedAt = addedAt
    }
}
