import ArgumentParser
import Foundation

/// The scripts of `avt-replay --generate-completion-script bash|zsh|fish`: ArgumentParser's,
/// for the commands as they are parsed (`avt-replay replay --bu<TAB>`), and a wrapper that
/// completes a command line whose first word is no subcommand as the replay's, the form people
/// type (`avt-replay --bu<TAB>`, `avt-replay --hub <TAB>`, `avt-replay logs/<TAB>`).
enum CompletionScripts {
    /// The script `arguments` ask for (`--generate-completion-script SHELL`, or `=SHELL`), or
    /// `nil` when they ask for none (or for a shell there is none for: the parser says so).
    static func requested(_ arguments: [String]) -> String? {
        let option = "--generate-completion-script"
        let name: String
        if arguments.count == 2, arguments[0] == option {
            name = arguments[1]
        } else if arguments.count == 1, arguments[0].hasPrefix(option + "=") {
            name = String(arguments[0].dropFirst(option.count + 1))
        } else {
            return nil
        }
        return CompletionShell(rawValue: name).map(script)
    }

    /// The words that start a subcommand: anything else starts the replay's arguments.
    static var subcommandWords: [String] { AvtReplayCommand.subcommandNames + ["help"] }

    /// The whole script for `shell`.
    static func script(for shell: CompletionShell) -> String {
        let generated = AvtReplayCommand.completionScript(for: shell)
        let name = ReplayTool.current.name
        switch shell {
        case .bash: return bash(generated, name: name)
        case .zsh: return zsh(generated, name: name)
        case .fish: return fish(generated, name: name)
        default: return generated
        }
    }

    /// Bash: ArgumentParser's function `_NAME` completes `NAME replay ...`; `_NAME_default`,
    /// bound to the command instead, puts `replay` in when the first word is no subcommand.
    private static func bash(_ generated: String, name: String) -> String {
        let function = "_\(name)"
        let binding = "complete -o filenames -F \(function) \(name)"
        let wrapper = """
            # \(name) [options] FILE... runs the replay: a command line whose first word is no
            # subcommand completes as \(name) replay's, and a first word as a subcommand too.
            \(function)_default() {
                local -ar subcommands=(\(subcommandWords.joined(separator: " ")))
                local word
                if [[ "${COMP_CWORD}" -gt 1 ]]; then
                    for word in "${subcommands[@]}"; do
                        if [[ "${COMP_WORDS[1]}" = "${word}" ]]; then
                            \(function) "${@}"
                            return
                        fi
                    done
                fi
                COMP_WORDS=("${COMP_WORDS[0]}" replay "${COMP_WORDS[@]:1}")
                COMP_CWORD=$((COMP_CWORD + 1))
                local -ir length="${#COMP_LINE}"
                COMP_LINE="${COMP_WORDS[0]} replay${COMP_LINE#*"${COMP_WORDS[0]}"}"
                COMP_POINT=$((COMP_POINT + ${#COMP_LINE} - length))
                \(function) "${1}" "${2}" "${COMP_WORDS[COMP_CWORD - 1]}"
                if [[ "${COMP_CWORD}" -eq 2 && "${2}" != -* ]]; then
                    COMPREPLY+=($(compgen -W "${subcommands[*]}" -- "${2}"))
                fi
            }

            complete -o filenames -F \(function)_default \(name)

            """
        guard let range = generated.range(of: binding, options: .backwards) else {
            return generated
        }
        return generated.replacingCharacters(in: range, with: wrapper)
    }

    /// Zsh: ArgumentParser's function `_NAME` completes `NAME replay ...`; `_NAME_default`,
    /// bound to the command instead, puts `replay` in when the first word is no subcommand.
    private static func zsh(_ generated: String, name: String) -> String {
        let function = "_\(name)"
        let binding = """
            if [[ "${funcstack[1]}" = \(function) ]]; then
                \(function) "${@}"
            else
                compdef \(function) \(name)
            fi
            """
        let wrapper = """
            # \(name) [options] FILE... runs the replay: a command line whose first word is no
            # subcommand completes as \(name) replay's, and a first word as a subcommand too.
            \(function)_default() {
                local -ar subcommands=(\(subcommandWords.joined(separator: " ")))
                local -i ret=1
                if (( CURRENT > 2 && ${subcommands[(Ie)${words[2]}]} )); then
                    \(function) "${@}"
                    return
                fi
                if (( CURRENT == 2 )) && [[ "${words[2]}" != -* ]]; then
                    \(function) "${@}" && ret=0
                fi
                words=("${words[1]}" replay "${(@)words[2,-1]}")
                (( CURRENT++ ))
                \(function) "${@}" && ret=0
                return "${ret}"
            }

            if [[ "${funcstack[1]}" = \(function) ]]; then
                \(function)_default "${@}"
            fi
            compdef \(function)_default \(name)
            """
        guard let range = generated.range(of: binding, options: .backwards) else { return generated }
        return generated.replacingCharacters(in: range, with: wrapper)
    }

    /// Fish: the command line is read with `replay` put in when its first word is no
    /// subcommand, and a first word is offered the subcommands too.
    private static func fish(_ generated: String, name: String) -> String {
        let tokens = "__\(name)_tokens"
        let original = """
            function \(tokens)
                if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
                    commandline --tokens-raw $argv
                else
                    commandline -o $argv
                end
            end
            """
        let replacement = """
            # \(name) [options] FILE... runs the replay: a command line whose first word is no
            # subcommand is read as \(name) replay's.
            function \(tokens)
                if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
                    set -f tokens (commandline --tokens-raw $argv)
                else
                    set -f tokens (commandline -o $argv)
                end
                if test (count $tokens) -ge 1; and not contains -- "$tokens[2]" \(subcommandWords.joined(separator: " "))
                    set -f tokens $tokens[1] replay $tokens[2..]
                end
                printf '%s\\n' $tokens
            end

            function __\(name)_completing_first_word
                test (count (commandline -opc)) -eq 1
            end
            """
        let subcommandCondition = "-n '__\(name)_should_offer_completions_for_positional \"\(name)\" -eq 1'"
        guard generated.contains(original) else { return generated }
        return generated.replacingOccurrences(of: original, with: replacement)
            .replacingOccurrences(of: subcommandCondition, with: "-n '__\(name)_completing_first_word'")
    }
}
