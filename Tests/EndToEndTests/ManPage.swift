import Foundation

/// `avt-replay`'s man page (`share/man/man1/avt-replay.1`), written in roff from the
/// description of its commands the binary gives (`avt-replay --experimental-dump-help`): every
/// option under its group with its values and default, each subcommand, the exit status
/// table and the examples of the help. `CLIExtrasTests` compares it with the committed page.
enum ManPage {
    /// The page for the JSON of `--experimental-dump-help`.
    static func roff(fromDescription json: Data) throws -> String {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let command = root["command"] as? [String: Any]
        else { throw CocoaError(.coderReadCorrupt) }
        let name = command["commandName"] as? String ?? "avt-replay"
        var page = """
            .\\" Generated from `\(name) --experimental-dump-help` by Tests/EndToEndTests/ManPage.swift:
            .\\" do not edit; RECORD_GOLDEN=1 swift test --filter CLIExtrasTests writes it again.
            .TH \(name.uppercased()) 1 "" "\(name)" "User Commands"
            .SH NAME
            \(name) \\- \(escape(command["abstract"] as? String ?? ""))
            .SH SYNOPSIS

            """
        let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter {
            $0["commandName"] as? String != "help"
        }
        page += ".B \(name)\n[\\fIoptions\\fR] \\fIfile\\fR...\n.br\n"
        for subcommand in subcommands {
            let sub = subcommand["commandName"] as? String ?? ""
            page += ".B \(name) \(sub)\n\(synopsis(subcommand))\n.br\n"
        }
        let blocks = (command["discussion"] as? String ?? "").components(separatedBy: "\n\n")
        page += ".SH DESCRIPTION\n"
        for block in blocks where !block.hasPrefix("Exit status:") && !block.hasPrefix("Examples:") {
            page += paragraph(block)
        }
        page += ".PP\nWith no subcommand, \(name) replays: \\fB\(name) replay\\fR takes the same options.\n"
        page += ".SH OPTIONS\n" + arguments(command["arguments"] as? [[String: Any]] ?? [])
        page += ".SH COMMANDS\n"
        for subcommand in subcommands {
            let sub = subcommand["commandName"] as? String ?? ""
            page += ".SS \(sub)\n" + paragraph(subcommand["abstract"] as? String ?? "")
            if sub == "replay" {
                page += paragraph("The default command: its options are those above.")
                continue
            }
            for block in (subcommand["discussion"] as? String ?? "").components(separatedBy: "\n\n")
            where !block.isEmpty {
                page += paragraph(block)
            }
            page += arguments(subcommand["arguments"] as? [[String: Any]] ?? [], level: ".TP")
        }
        if let exit = blocks.first(where: { $0.hasPrefix("Exit status:") }) {
            page += ".SH EXIT STATUS\n" + exitStatus(exit)
        }
        if let examples = blocks.first(where: { $0.hasPrefix("Examples:") }) {
            let lines = examples.split(separator: "\n").dropFirst().map { escape(String($0.dropFirst(2))) }
            page += ".SH EXAMPLES\n.nf\n.RS 2\n" + lines.joined(separator: "\n") + "\n.RE\n.fi\n"
        }
        page += """
            .SH SEE ALSO
            The README and docs/operations.md of avt-replay: every option, report, exit status and file.

            """
        return page
    }

    /// A subcommand's synopsis: `[options]` and its arguments.
    private static func synopsis(_ command: [String: Any]) -> String {
        var words = ["[\\fIoptions\\fR]"]
        for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "positional"
        {
            let value = "\\fI\(argument["valueName"] as? String ?? "")\\fR"
            words.append(argument["isRepeating"] as? Bool == true ? value + "..." : value)
        }
        return words.joined(separator: " ")
    }

    /// The options, each group under its title (`.SS OUTPUT`), those of no group last.
    private static func arguments(_ arguments: [[String: Any]], level: String = ".SS") -> String {
        var titles: [String] = []
        var groups: [String: [[String: Any]]] = [:]
        for argument in arguments where argument["shouldDisplay"] as? Bool != false {
            let kind = argument["kind"] as? String
            let title = kind == "positional" ? "Arguments" : argument["sectionTitle"] as? String ?? "Other options"
            if groups[title] == nil { titles.append(title) }
            groups[title, default: []].append(argument)
        }
        let order =
            titles.filter { $0 == "Arguments" } + titles.filter { $0 != "Arguments" && $0 != "Other options" }
            + titles.filter { $0 == "Other options" }
        var text = ""
        for title in order {
            text += level == ".SS" ? ".SS \(title.uppercased())\n" : ".PP\n\\fI\(escape(title))\\fR\n"
            for argument in groups[title] ?? [] {
                text += ".TP\n" + label(argument) + "\n" + describe(argument) + "\n"
            }
        }
        return text
    }

    /// `\fB\-q\fR, \fB\-\-quiet\fR` or `\fB\-\-out\fR \fIdir\fR`.
    private static func label(_ argument: [String: Any]) -> String {
        let value = argument["valueName"] as? String ?? ""
        if argument["kind"] as? String == "positional" { return "\\fI\(escape(value))\\fR..." }
        let names = (argument["names"] as? [[String: Any]] ?? []).sorted { a, _ in a["kind"] as? String == "short" }
            .map { name -> String in
                let dashes = name["kind"] as? String == "short" ? "-" : "--"
                return "\\fB" + escape(dashes + (name["name"] as? String ?? "")) + "\\fR"
            }
        let label = names.joined(separator: ", ")
        return argument["kind"] as? String == "option" ? label + " \\fI" + escape(value) + "\\fR" : label
    }

    /// The help text, with the values and the default.
    private static func describe(_ argument: [String: Any]) -> String {
        var text = argument["abstract"] as? String ?? ""
        var notes: [String] = []
        if let values = argument["allValues"] as? [String], !values.isEmpty {
            notes.append("values: " + values.joined(separator: ", "))
        }
        if let value = argument["defaultValue"] as? String, !value.isEmpty { notes.append("default: " + value) }
        if argument["isRepeating"] as? Bool == true, argument["kind"] as? String == "option" {
            notes.append("repeatable")
        }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        return escape(text)
    }

    /// The help's exit status table: a `.TP` per code, and the lines after it.
    private static func exitStatus(_ block: String) -> String {
        var entries: [(code: String, text: String)] = []
        var after: [String] = []
        for line in block.split(separator: "\n").dropFirst() {
            let trimmed = String(line.drop { $0 == " " })
            let indent = line.count - trimmed.count
            if indent == 2, let code = trimmed.split(separator: " ").first, Int(code) != nil {
                entries.append((String(code), trimmed.dropFirst(code.count).trimmingCharacters(in: .whitespaces)))
            } else if indent > 2, !entries.isEmpty {
                entries[entries.count - 1].text += " " + trimmed
            } else {
                after.append(trimmed)
            }
        }
        var text = entries.map { ".TP\n.B \($0.code)\n" + escape($0.text) + "\n" }.joined()
        if !after.isEmpty { text += paragraph(after.joined(separator: " ")) }
        return text
    }

    private static func paragraph(_ text: String) -> String {
        ".PP\n" + escape(text.split(separator: "\n").joined(separator: " ")) + "\n"
    }

    /// Text as roff takes it: backslashes and hyphens escaped, no line starting with a control
    /// character.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }
}
