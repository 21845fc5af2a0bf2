import CGtk
import Glibc

/// One option of an application's command line, parsed by GLib's GOption (see
/// ``Application/addMainOptions(_:)``): `--name`, `--name=value` and `--name value` are accepted, and
/// `--help` lists it in GOption's format.
public struct CommandLineOption: Sendable {
    /// What the option takes.
    public enum Value: Sendable {
        /// Nothing: a switch such as `--version`.
        case none
        /// A text value (UTF-8), such as `--camera test`.
        case string
        /// A file name, kept in the file system's encoding (bytes), such as `--library DIR`.
        case filename
        /// The arguments that are not options (GOption's `G_OPTION_REMAINING`), such as photo files.
        case remainingFilenames
    }

    /// The long name without dashes (`"library"` for `--library`); empty for the remaining arguments.
    public let longName: String
    /// A one-letter short name (`-v`), or nil.
    public let shortName: Character?
    /// What the option takes.
    public let value: Value
    /// What the option does, as `--help` shows it (already translated).
    public let description: String
    /// The value's placeholder in `--help` (`DIR`), or nil for switches.
    public let argumentDescription: String?

    /// An option `--longName` (and `-shortName`) taking `value`.
    public init(_ longName: String, shortName: Character? = nil, value: Value = .none, description: String,
                argumentDescription: String? = nil) {
        self.longName = longName
        self.shortName = shortName
        self.value = value
        self.description = description
        self.argumentDescription = argumentDescription
    }

    /// The arguments that are not options, as file names (e.g. `[PHOTO…]`).
    public static func remainingFilenames(description: String, argumentDescription: String) -> CommandLineOption {
        CommandLineOption("", value: .remainingFilenames, description: description, argumentDescription: argumentDescription)
    }

    /// The key GApplication stores the remaining arguments under (`G_OPTION_REMAINING`).
    static let remainingKey = ""
}

/// The options GOption parsed from one command line (a `GVariantDict`), valid only during the handler
/// it is given to (main actor).
@MainActor
public struct CommandLineOptions {
    let dictionary: UnsafeMutablePointer<GVariantDict>

    private func value(_ name: String) -> OpaquePointer? {
        g_variant_dict_lookup_value(dictionary, name, nil)
    }

    /// Whether the switch `--name` was given.
    public func contains(_ name: String) -> Bool {
        guard let variant = value(name) else { return false }
        defer { g_variant_unref(variant) }
        return String(cString: g_variant_get_type_string(variant)) != "b" || g_variant_get_boolean(variant) != 0
    }

    /// The text given with `--name`, or nil.
    public func string(_ name: String) -> String? {
        guard let variant = value(name) else { return nil }
        defer { g_variant_unref(variant) }
        guard String(cString: g_variant_get_type_string(variant)) == "s" else { return nil }
        return String(cString: g_variant_get_string(variant, nil))
    }

    /// The file name given with `--name`, byte for byte (see `FilePath`), or nil.
    public func filename(_ name: String) -> FilePath? {
        guard let variant = value(name) else { return nil }
        defer { g_variant_unref(variant) }
        guard String(cString: g_variant_get_type_string(variant)) == "ay" else { return nil }
        return FilePath(cString: g_variant_get_bytestring(variant))
    }

    /// The remaining arguments (``CommandLineOption/remainingFilenames(description:argumentDescription:)``),
    /// in order, decoded for Swift (a name that is not UTF-8 shows "�"; use `remainingFileURIs(resolve:)`
    /// to open them); empty when there are none.
    public var remainingFilenames: [String] {
        withRemainingFilenames { $0.map { String(cString: $0) } }
    }

    /// The remaining arguments as `file://` URIs, byte for byte (a file name that is not UTF-8 stays
    /// that name): `resolve` turns each argument's bytes into a URI (relative to the right folder).
    package func remainingFileURIs(resolve: (UnsafePointer<CChar>) -> String) -> [String] {
        withRemainingFilenames { $0.map(resolve) }
    }

    /// Each remaining argument's bytes (NUL-terminated, valid only during the call) given to
    /// `transform`, in order: for arguments that may be something else than file names (links).
    package func mapRemainingArguments<T>(_ transform: (UnsafePointer<CChar>) -> T) -> [T] {
        withRemainingFilenames { $0.map(transform) }
    }

    private func withRemainingFilenames<T>(_ body: ([UnsafePointer<CChar>]) -> [T]) -> [T] {
        guard let variant = value(CommandLineOption.remainingKey) else { return [] }
        defer { g_variant_unref(variant) }
        guard String(cString: g_variant_get_type_string(variant)) == "aay" else { return [] }
        var children: [OpaquePointer] = []
        defer { children.forEach { g_variant_unref($0) } }
        let names: [UnsafePointer<CChar>] = (0..<g_variant_n_children(variant)).compactMap { index in
            guard let child = g_variant_get_child_value(variant, index) else { return nil }
            children.append(child)
            return g_variant_get_bytestring(child)
        }
        return body(names)
    }

    /// The `file://` URI of a command-line argument given in the launching process itself (relative to
    /// its current folder), byte for byte (`g_file_new_for_commandline_arg`).
    package static func localURI(forArgument argument: UnsafePointer<CChar>) -> String {
        let file = g_file_new_for_commandline_arg(argument)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let uri = g_file_get_uri(file)!
        defer { g_free(uri) }
        return String(cString: uri)
    }
}

/// One launch of the application's command line, as the running (primary) instance receives it
/// (`GApplicationCommandLine`): the first launch, or a later one forwarded over D-Bus by GApplication.
/// Valid only during the ``Application/onCommandLine(_:)`` handler (main actor).
@MainActor
public struct CommandLineInvocation {
    let commandLine: UnsafeMutablePointer<GApplicationCommandLine>

    /// The options given, parsed by GOption in the launching process.
    public var options: CommandLineOptions {
        CommandLineOptions(dictionary: g_application_command_line_get_options_dict(commandLine))
    }

    /// Whether this launch came from another process (a second launch, forwarded to this instance).
    public var isRemote: Bool { g_application_command_line_get_is_remote(commandLine) != 0 }

    /// The `file://` URI of `argument` (a path relative to the launching process's current folder, an
    /// absolute path, or a URI), without converting the name to text on the way (GIO's
    /// `g_application_command_line_create_file_for_arg`).
    package func uri(forArgument argument: UnsafePointer<CChar>) -> String {
        let file = g_application_command_line_create_file_for_arg(commandLine, argument)!
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        let uri = g_file_get_uri(file)!
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// The absolute path of `argument`, resolved against the launching process's current folder, byte
    /// for byte.
    public func absolutePath(forArgument argument: FilePath) -> FilePath {
        let file = argument.withCString { g_application_command_line_create_file_for_arg(commandLine, $0)! }
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let path = g_file_get_path(file) else { return argument }
        defer { g_free(path) }
        return FilePath(cString: path)
    }

    /// Prints `message` and a newline on the launching process's standard error.
    public func printError(_ message: String) {
        navgtk_command_line_printerr(commandLine, message)
    }

    /// Prints `message` and a newline on the launching process's standard output.
    public func print(_ message: String) {
        navgtk_command_line_print(commandLine, message)
    }
}

extension Application {
    /// Adds `options` to the application's command line, parsed by GOption before the application
    /// starts (`g_application_add_main_option_entries`); their values reach
    /// ``onHandleLocalOptions(_:)`` and ``onCommandLine(_:)``. Call before ``run(arguments:)``.
    public func addMainOptions(_ options: [CommandLineOption]) {
        // GLib copies the entries but not their strings: they live as long as the process.
        var entries = options.map { option in
            GOptionEntry(long_name: strdup(option.longName), short_name: option.shortName.flatMap { $0.asciiValue }.map { gchar($0) } ?? 0,
                         flags: 0, arg: option.value.argument, arg_data: nil, description: strdup(option.description),
                         arg_description: option.argumentDescription.map { UnsafePointer(strdup($0)!) })
        }
        entries.append(GOptionEntry())
        g_application_add_main_option_entries(pointer(as: GApplication.self), &entries)
    }

    /// Sets what `--help` shows: a `summary` above the options and a `description` below them (GOption
    /// shows the remaining arguments' placeholder, e.g. `[PHOTO…]`, after the program name).
    public func setCommandLineHelp(summary: String, description: String) {
        g_application_set_option_context_summary(pointer(as: GApplication.self), summary)
        g_application_set_option_context_description(pointer(as: GApplication.self), description)
    }

    /// Runs `handler` in the launching process after GOption has parsed its options and before the
    /// application registers (GApplication's `handle-local-options`): return an exit status to end the
    /// launch there (e.g. after `--version`), or nil to go on (start, or hand over to a running instance).
    public func onHandleLocalOptions(_ handler: @escaping @MainActor (CommandLineOptions) -> Int32?) {
        connect("handle-local-options") { args in
            guard let dictionary = args.boxed(at: 1) else { args.setReturn(int: -1); return }
            args.setReturn(int: handler(CommandLineOptions(dictionary: dictionary.assumingMemoryBound(to: GVariantDict.self))) ?? -1)
        }
    }

    /// Runs `handler` in the running (primary) instance for each launch: the first, and every later one
    /// GApplication forwards to it over D-Bus with its options and files (`G_APPLICATION_HANDLES_COMMAND_LINE`).
    /// The handler's return value is the launching process's exit status. Call before the application
    /// registers; the application then no longer activates on its own at launch (the handler decides).
    public func onCommandLine(_ handler: @escaping @MainActor (CommandLineInvocation) -> Int32) {
        let application = pointer(as: GApplication.self)
        g_application_set_flags(application, GApplicationFlags(rawValue: g_application_get_flags(application).rawValue
                                                                  | G_APPLICATION_HANDLES_COMMAND_LINE.rawValue))
        connect("command-line") { args in
            guard let commandLine = args.object(at: 1) else { args.setReturn(int: 1); return }
            args.setReturn(int: handler(CommandLineInvocation(commandLine: commandLine.assumingMemoryBound(to: GApplicationCommandLine.self))))
        }
    }

    /// Makes every launch its own instance (`G_APPLICATION_NON_UNIQUE`) or hands later launches to the
    /// running one. Only before the application registers (e.g. from ``onHandleLocalOptions(_:)``).
    public func setUnique(_ unique: Bool) {
        let application = pointer(as: GApplication.self)
        var flags = g_application_get_flags(application).rawValue
        if unique { flags &= ~G_APPLICATION_NON_UNIQUE.rawValue } else { flags |= G_APPLICATION_NON_UNIQUE.rawValue }
        g_application_set_flags(application, GApplicationFlags(rawValue: flags))
    }
}

extension CommandLineOption.Value {
    var argument: GOptionArg {
        switch self {
        case .none: G_OPTION_ARG_NONE
        case .string: G_OPTION_ARG_STRING
        case .filename: G_OPTION_ARG_FILENAME
        case .remainingFilenames: G_OPTION_ARG_FILENAME_ARRAY
        }
    }
}
