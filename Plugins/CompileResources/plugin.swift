// A build-tool plugin: during `swift build`, compiles a target's GResource bundle (glib-compile-resources)
// and its gettext catalogues (msgfmt), so neither is committed and an edit to a style sheet or a .po file
// is in the next build. It writes one Swift file into the plugin's work folder, compiled with the target:
// `Compiled<Target>` with the bundle (base64), its registration with GIO, the folder holding this
// build's catalogues (`<lang>/LC_MESSAGES/<domain>.mo`) and the languages (po/LINGUAS).
//
// Offline: it runs only the system's glib-compile-resources (Debian's libglib2.0-dev-bin) and msgfmt
// (gettext), found on PATH.
import Foundation
import PackagePlugin

@main
struct CompileResources: BuildToolPlugin {
    /// What a target compiles, relative to the package's folder.
    struct Spec {
        /// The GResource description (`<gresources>`), and the folder its `<file>`s are in.
        let description: String
        let sourceFolder: String
        /// The folder of `<lang>.po` files and the gettext domain they are compiled as.
        let poFolder: String
        let domain: String
    }

    static let specs: [String: Spec] = [
        // The toolkit's style (the translucent bar) and its own strings ("Back").
        "NavigationGtkResources": Spec(description: "Sources/NavigationGtkResources/navigation.gresource.xml",
                                       sourceFolder: "Sources/NavigationGtkResources", poFolder: "po/navigation-gtk",
                                       domain: "navigation-gtk"),
        // The app's style sheet and strings.
        "PostcardResources": Spec(description: "Resources/postcard.gresource.xml", sourceFolder: "Resources",
                                  poFolder: "po", domain: "postcard"),
    ]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let spec = Self.specs[target.name] else {
            throw Failure(description: "CompileResources: no resources are described for target \(target.name)")
        }
        let root = context.package.directoryURL
        let description = root.appending(path: spec.description)
        let sourceFolder = root.appending(path: spec.sourceFolder)
        let poFolder = root.appending(path: spec.poFolder)
        let languages = try String(contentsOf: root.appending(path: "po/LINGUAS"), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.hasPrefix("#") }
        // Inputs: the description, every file it lists, and each language's .po (the command runs again
        // when any of them changes).
        let xml = try String(contentsOf: description, encoding: .utf8)
        let listed = xml.components(separatedBy: "<file").dropFirst().compactMap { part -> String? in
            guard let start = part.firstIndex(of: ">"), let end = part.range(of: "</file>") else { return nil }
            return String(part[part.index(after: start)..<end.lowerBound]).trimmingCharacters(in: .whitespaces)
        }
        let inputs = [description, root.appending(path: "po/LINGUAS")]
            + listed.map { sourceFolder.appending(path: $0) }
            + languages.map { poFolder.appending(path: "\($0).po") }

        let work = context.pluginWorkDirectoryURL
        let typeName = "Compiled" + target.name
        let output = work.appending(path: "\(typeName).swift")
        let compileResources = try tool("glib-compile-resources", package: "libglib2.0-dev-bin", context: context)
        let msgfmt = try tool("msgfmt", package: "gettext", context: context)
        // $1 glib-compile-resources, $2 msgfmt, $3 the description, $4 its files' folder, $5 the .po folder,
        // $6 the domain, $7 the work folder, $8 the Swift file, $9 the type's name, then the languages.
        let script = #"""
        set -e
        compile=$1 msgfmt=$2 description=$3 sources=$4 po=$5 domain=$6 work=$7 out=$8 type=$9
        shift 9
        mkdir -p "$work/locale"
        "$compile" --sourcedir="$sources" --target="$work/bundle.gresource" "$description"
        list=""
        for lang in "$@"; do
          mkdir -p "$work/locale/$lang/LC_MESSAGES"
          "$msgfmt" --check --output-file="$work/locale/$lang/LC_MESSAGES/$domain.mo" "$po/$lang.po"
          list="$list\"$lang\", "
        done
        {
          echo "// Generated during the build by the CompileResources plugin (Plugins/CompileResources) from"
          echo "// $description and $po; not committed."
          echo "import CGLib"
          echo ""
          echo "/// The target's GResource bundle and gettext catalogues, compiled during this build."
          echo "package enum $type {"
          echo "    /// The GResource bundle (glib-compile-resources), base64-encoded."
          printf '    static let bundle = "'
          base64 -w0 "$work/bundle.gresource"
          echo '"'
          echo "    /// This build's compiled catalogues: <lang>/LC_MESSAGES/$domain.mo (msgfmt)."
          echo "    package static let buildLocaleDirectory = #\"$work/locale\"#"
          echo "    /// The gettext domain of the catalogues."
          echo "    package static let domain = \"$domain\""
          echo "    /// The languages translated (po/LINGUAS)."
          echo "    package static let languages: [String] = [$list]"
          echo ""
          echo "    /// Registers the bundle with GIO (g_resources_register) once per process, at the first use; any"
          echo "    /// thread. False if GIO does not read it as a GResource (a broken build)."
          echo "    package static let isRegistered: Bool = {"
          echo "        var length: gsize = 0"
          echo "        guard let data = g_base64_decode(bundle, &length) else { return false }"
          echo "        let bytes = g_bytes_new_take(data, length)"
          echo "        defer { g_bytes_unref(bytes) }"
          echo "        guard let resource = g_resource_new_from_data(bytes, nil) else { return false }"
          echo "        g_resources_register(resource)"
          echo "        return true"
          echo "    }()"
          echo "}"
        } > "$out.tmp"
        mv "$out.tmp" "$out"
        """#
        return [.buildCommand(
            displayName: "Compiling \(target.name) (\(spec.description), \(spec.poFolder)/*.po)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "sh", compileResources.path, msgfmt.path, description.path, sourceFolder.path,
                        poFolder.path, spec.domain, work.path, output.path, typeName] + languages,
            inputFiles: inputs,
            outputFiles: [output])]
    }

    /// The tool `name`, from the toolchain's or the system's PATH; names the Debian package when missing.
    private func tool(_ name: String, package: String, context: PluginContext) throws -> URL {
        if let found = try? context.tool(named: name) { return found.url }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(description: "CompileResources: \(name) not found on PATH (Debian: apt-get install \(package))")
    }
}
