import Gtk

/// One stored post.
public struct Post: Equatable, Sendable, Identifiable {
    /// The row id (increasing with each post).
    public let id: Int64
    /// Who posted it (a ``Person/id``).
    public let author: String
    /// Whose profile it was posted to (a ``Person/id``).
    public let profile: String
    /// The comment text.
    public let comment: String
    /// Absolute path of the store's own copy of the photo.
    public let photoPath: FilePath
    /// When it was posted, in seconds since 1970-01-01 UTC.
    public let createdAt: Int64
}

/// A reply in a post's comment thread: a photo with a comment.
public struct Reply: Equatable, Sendable, Identifiable {
    /// The row id.
    public let id: Int64
    /// The post replied to.
    public let postID: Int64
    /// Who replied (a ``Person/id``).
    public let author: String
    /// The reply's comment.
    public let comment: String
    /// The store's copy of the photo.
    public let photoPath: FilePath
    /// When, in seconds since 1970-01-01 UTC.
    public let createdAt: Int64
}

/// A private message: a photo with a comment sent to one person.
public struct Message: Equatable, Sendable, Identifiable {
    /// The row id.
    public let id: Int64
    /// Who sent it (a ``Person/id``).
    public let author: String
    /// Who it was sent to (a ``Person/id``).
    public let recipient: String
    /// The message text.
    public let comment: String
    /// The store's copy of the photo.
    public let photoPath: FilePath
    /// When, in seconds since 1970-01-01 UTC.
    public let createdAt: Int64
}

/// An error from the post store; its text says what failed and why, for showing to the user.
public struct PostStoreError: Error, CustomStringConvertible, Sendable {
    /// What failed, in words a user can act on.
    public let description: String
}

/// A comment being written that was not posted yet: what a flow keeps until it is posted or discarded.
public struct Draft: Equatable, Sendable {
    /// What the comment is for: `"post"` (to a profile), `"reply"` (in a post's thread).
    public let kind: String
    /// Whose profile (a ``Person/id``) or which post (its id, as text) it is for.
    public let target: String
    /// The chosen photo's `file://` URI.
    public let photoURI: String
    /// The text typed so far.
    public let comment: String
    /// When it was last saved, in seconds since 1970-01-01 UTC.
    public let updatedAt: Int64

    /// A draft of `comment` on the photo at `photoURI`, for `kind` and `target`.
    public init(kind: String, target: String, photoURI: String, comment: String, updatedAt: Int64) {
        self.kind = kind
        self.target = target
        self.photoURI = photoURI
        self.comment = comment
        self.updatedAt = updatedAt
    }
}
