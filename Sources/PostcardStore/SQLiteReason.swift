import CSQLite
import GLib
import PostcardModel

/// SQLite's reason for a failure, in words a user can act on ("the disk is full"), not SQLite's own
/// ("database or disk is full", "file is not a database", "near "INSERT": syntax error"). SQLite's
/// message and code go to the log, for a developer. Any thread.
enum SQLiteReason {
    /// The plain reason for the last failure on `db` (from its extended result code), after logging
    /// SQLite's own message. A nil `db` (SQLite could not allocate one) is "out of memory".
    static func of(_ db: OpaquePointer?) -> String {
        guard let db else { return plainWords(forCode: SQLITE_NOMEM) }
        let code = sqlite3_extended_errcode(db)
        appLog.problem("SQLite: \(String(cString: sqlite3_errmsg(db))) (code \(code))")
        return plainWords(forCode: code)
    }

    /// The plain reason for SQLite result `code` (primary or extended; see sqlite.org/rescode.html).
    static func plainWords(forCode code: Int32) -> String {
        switch code & 0xFF {
        case SQLITE_FULL:
            // Translators: why Postcard can't write its posts or drafts (after "Can't save the post: ").
            localized("the disk is full")
        case SQLITE_READONLY:
            localized("the data folder can't be written to (it is read-only)")
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL:
            localized("another program is using the post database. Try again in a moment")
        case SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_FORMAT:
            localized("the file is damaged or is not a Postcard database")
        case SQLITE_CANTOPEN:
            localized("the file can't be opened. Check that its folder exists and that you may read and write it")
        case SQLITE_PERM, SQLITE_AUTH:
            localized("permission was denied")
        case SQLITE_IOERR:
            localized("the disk could not be read or written")
        case SQLITE_NOMEM:
            localized("there is not enough memory")
        case SQLITE_TOOBIG, SQLITE_NOLFS:
            localized("it is too large")
        default:
            // SQL errors, constraints, a schema this Postcard did not make: nothing a user can fix but
            // moving the file aside; the log has SQLite's details.
            localized("the post database is not laid out as this Postcard expects (the log has the details)")
        }
    }
}
