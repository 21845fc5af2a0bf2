import CGtk
import Glibc
import Gtk
import PostcardApp
import NavigationGtk
import PostcardModel

/// The gallery's contact sheet (`index.html`): every screen in every part and style, and what changed.
extension ReviewGallery {
    static func escaped(_ text: String) -> String { markupEscaped(text) }

    /// `fraction` as a percentage with two decimals ("0.18 %").
    static func percent(_ fraction: Double) -> String {
        let hundredths = Int((fraction * 10_000).rounded())
        let decimals = String(hundredths % 100)
        return "\(hundredths / 100).\(decimals.count == 1 ? "0" + decimals : decimals) %"
    }

    static func columnTitle(_ column: (part: ReviewPart, variant: ReviewVariant)) -> String {
        "\(column.variant.highContrast ? "high contrast" : column.variant.dark ? "dark" : "light") · \(column.part.width) px\(column.part.scale > 1 ? " at \(column.part.scale)×" : "") · "
            + (column.variant.rightToLeft ? "RTL" : "LTR")
    }

    /// The contact sheet: the changes first (when compared), then each screen's states and pictures.
    static func indexHTML(in directory: FilePath, parts: [ReviewPart], screens: [ReviewScreen] = screens, problems: [String],
                          compared: FilePath?, changes: [Change]?) -> String {
        let columns = columns(parts: parts)
        var html = """
            <!doctype html>
            <html lang="en">
            <meta charset="utf-8">
            <title>Postcard review gallery</title>
            <style>
            body { font: 14px/1.4 Cantarell, "DejaVu Sans", sans-serif; margin: 24px; color: #1e1e1e; }
            table { border-collapse: collapse; margin-bottom: 32px; }
            th, td { border: 1px solid #d0d0d0; padding: 4px; vertical-align: top; }
            thead th { font-weight: normal; font-size: 12px; background: #f4f4f4; }
            tbody th { text-align: left; width: 220px; font-weight: normal; }
            tbody th b { display: block; }
            img { width: 120px; display: block; }
            td.missing { color: #c01c28; font-size: 12px; }
            img.wide { width: 200px; }
            .changed img { outline: 3px solid #e01b24; }
            .added img { outline: 2px dashed #9a9996; }
            .problems { color: #c01c28; }
            p.spoken { font-size: 12px; color: #3d3846; margin: 6px 0 0; }
            p.spoken q { display: block; }
            </style>
            <h1>Postcard review gallery</h1>
            <p>Every screen in every state worth reviewing, made by <code>postcard-review --review-tour</code> on \
            \(escaped(DateText.format(unixSeconds: Int64(time(nil)), "%-d %b %Y, %H:%M"))), Postcard \(escaped(AppController.version)). \
            Parts: \(parts.map { "\($0.width) × \($0.height) px" + ($0.scale > 1 ? " at \($0.scale)×" : "") + ($0.rightToLeft ? " right to left" : "") }.joined(separator: ", ")). \
            The pictures are GTK's own rendering of each window (the same on every machine with the same fonts and GTK), \
            with GNOME's window buttons (<code>appmenu:close</code>). \
            Click a picture to see it at full size.</p>

            """
        if screens.contains(where: { Files.exists(directory.appending($0.name, spokenFileName)) }) {
            html += "<p>Under each state: what the screen reader Orca 43 said as the screen appeared, the tour run once under it "
                + "at 1280 px (<code>Tests/orca/review-under-orca.py</code>), driven as in the pictures: what a blind user hears.</p>\n"
        }
        if !problems.isEmpty {
            html += "<h2 class=\"problems\">Problems</h2>\n<ul class=\"problems\">\n"
            html += problems.map { "<li>\(escaped($0))</li>\n" }.joined()
            html += "</ul>\n"
        }
        let changed = changes?.filter { $0.kind == .changed || $0.kind == .resized } ?? []
        let added = changes?.filter { $0.kind == .added } ?? []
        if let compared, let changes {
            html += "<h2 id=\"changes\">Changed since \(escaped(compared.displayName))</h2>\n"
            html += "<p>\(changed.count) of \(changes.count) pictures differ"
            html += added.isEmpty ? ".</p>\n" : "; \(added.count) \(added.count == 1 ? "is" : "are") new (not in the earlier gallery).</p>\n"
            if !changed.isEmpty {
                html += "<p>Red in a difference picture is a pixel that changed.</p>\n<table>\n"
                html += "<thead><tr><th>screen — state</th><th>picture</th><th>before</th><th>now</th><th>difference</th></tr></thead>\n<tbody>\n"
                for change in changed {
                    let before = compared.appending(change.screen.name, change.file).uri
                    let now = "\(change.screen.name)/\(change.file)"
                    let what = change.kind == .resized ? "size changed" : "\(percent(change.fraction)) of pixels"
                    html += "<tr><th><a href=\"#\(change.screen.name)\">\(escaped(change.screen.screen)) — \(escaped(change.screen.state))</a></th>"
                    html += "<td>\(change.file.dropLast(4))<br>\(what)</td>"
                    html += "<td><a href=\"\(escaped(before))\"><img src=\"\(escaped(before))\" loading=\"lazy\" alt=\"before\"></a></td>"
                    html += "<td><a href=\"\(now)\"><img src=\"\(now)\" loading=\"lazy\" alt=\"now\"></a></td>"
                    html += change.diffFile.map { "<td><a href=\"\($0)\"><img src=\"\($0)\" loading=\"lazy\" alt=\"difference\"></a></td>" } ?? "<td></td>"
                    html += "</tr>\n"
                }
                html += "</tbody>\n</table>\n"
            }
            if !added.isEmpty {
                html += "<p>New: " + screens.compactMap { screen -> String? in
                    let mine = added.filter { $0.screen.name == screen.name }
                    guard !mine.isEmpty else { return nil }
                    return "<a href=\"#\(screen.name)\">\(escaped(screen.screen)) — \(escaped(screen.state))</a> (\(mine.count))"
                }.joined(separator: ", ") + ".</p>\n"
            }
        }
        var groups: [String] = []
        for screen in screens where !groups.contains(screen.screen) { groups.append(screen.screen) }
        html += "<h2>Screens</h2>\n<p>" + groups.map { "<a href=\"#\(anchor($0))\">\(escaped($0))</a>" }.joined(separator: " · ") + "</p>\n"
        for group in groups {
            html += "<h3 id=\"\(anchor(group))\">\(escaped(group))</h3>\n<table>\n<thead><tr><th>state — what to look at</th>"
            html += columns.map { "<th>\(escaped(columnTitle($0)))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
            for screen in screens where screen.screen == group {
                html += "<tr id=\"\(screen.name)\"><th><b>\(escaped(screen.state))</b>\(escaped(screen.caption))"
                html += spokenHTML(directory.appending(screen.name, spokenFileName)) + "</th>"
                for column in columns {
                    let file = "\(screen.name)/\(fileName(part: column.part, variant: column.variant))"
                    guard Files.exists(directory.appending(screen.name, fileName(part: column.part, variant: column.variant))) else {
                        html += "<td class=\"missing\">missing</td>"
                        continue
                    }
                    let isChanged = changed.contains { $0.screen.name == screen.name && "\(screen.name)/\($0.file)" == file }
                    let isNew = added.contains { $0.screen.name == screen.name && "\(screen.name)/\($0.file)" == file }
                    let width = column.part.width >= 450 ? " class=\"wide\"" : ""
                    html += "<td\(isChanged ? " class=\"changed\"" : isNew ? " class=\"added\"" : "")><a href=\"\(file)\"><img\(width) src=\"\(file)\" loading=\"lazy\" "
                        + "alt=\"\(escaped("\(screen.screen), \(screen.state), \(columnTitle(column))"))\"></a></td>"
                }
                html += "</tr>\n"
            }
            html += "</tbody>\n</table>\n"
        }
        return html
    }

    /// The file beside a screen's pictures with what Orca said as the screen came, one utterance a line
    /// (written by the tour under Orca, ``SpokenWords``).
    static let spokenFileName = "spoken.txt"

    /// What Orca said as a screen came, from its `spoken` file, for the screen's row: each utterance in
    /// quotes, or a note that Orca said nothing; nothing when the tour did not run under Orca.
    static func spokenHTML(_ spoken: FilePath) -> String {
        guard let text = Files.readText(spoken) else { return "" }
        let words = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard !words.isEmpty else { return "<p class=\"spoken\">Orca said nothing.</p>" }
        return "<p class=\"spoken\">Orca said: " + words.map { "<q>\(escaped(String($0)))</q>" }.joined(separator: " ") + "</p>"
    }

    static func anchor(_ group: String) -> String {
        "screen-" + String(group.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }
}
