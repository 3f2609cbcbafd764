function __avt-replay_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __avt-replay_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __avt-replay_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __avt-replay_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __avt-replay_parse_tokens -S
    set -l unparsed_tokens (__avt-replay_tokens -pc)
    switch $unparsed_tokens[1]
    case 'avt-replay'
        __avt-replay_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'replay'
            __avt-replay_parse_subcommand -r 1 'out=' 'hub=' 'tentacles=' 'strict' 'max-rejects=' 'ts-unit=' 'since=' 'until=' 'max-lateness=' 'max-late=' 'idle-gap=' 'trace' 'trace-rejected' 'bucket=' 'group-by=+' 'metrics=' 'aggregate' 'breakdown-min-views=' 'prefix=' 'vp-duration=+' 'vp-middleware=+' 'summary-json=' 'influx=' 'influx-secret-file=' 'graphite=' 'spool=' 'state=' 'finish' 'replace-run' 'previous-merge=' 'shard=' 'threads=' 'q/quiet' 'version' 'h/help'
        case 'merge'
            __avt-replay_parse_subcommand -r 1 'out=' 'influx=' 'influx-secret-file=' 'graphite=' 'spool=' 'q/quiet' 'partial' 'version' 'h/help'
        case 'partition'
            __avt-replay_parse_subcommand -r 1 'shards=' 'out=' 'max-lateness=' 'ts-unit=' 'threads=' 'q/quiet' 'version' 'h/help'
        case 'flush'
            __avt-replay_parse_subcommand 0 'influx=' 'influx-secret-file=' 'graphite=' 'spool=' 'q/quiet' 'version' 'h/help'
        case 'check'
            __avt-replay_parse_subcommand -r 1 'expect=' 'record' 'junit=' 'max-differences=' 'hub=' 'tentacles=' 'strict' 'max-rejects=' 'ts-unit=' 'since=' 'until=' 'max-lateness=' 'max-late=' 'idle-gap=' 'trace' 'trace-rejected' 'bucket=' 'group-by=+' 'metrics=' 'aggregate' 'breakdown-min-views=' 'prefix=' 'vp-duration=+' 'vp-middleware=+' 'threads=' 'version' 'h/help'
        case 'diff'
            __avt-replay_parse_subcommand 2 'max-differences=' 'version' 'h/help'
        case 'version'
            __avt-replay_parse_subcommand 0 'version' 'h/help'
        case 'help'
            __avt-replay_parse_subcommand -r 1 'version'
        end
    end
end

# avt-replay [options] FILE... runs the replay: a command line whose first word is no
# subcommand is read as avt-replay replay's.
function __avt-replay_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        set -f tokens (commandline --tokens-raw $argv)
    else
        set -f tokens (commandline -o $argv)
    end
    if test (count $tokens) -ge 1; and not contains -- "$tokens[2]" replay merge partition flush check diff version help
        set -f tokens $tokens[1] replay $tokens[2..]
    end
    printf '%s\n' $tokens
end

function __avt-replay_completing_first_word
    test (count (commandline -opc)) -eq 1
end

function __avt-replay_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __avt-replay_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __avt-replay_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__avt-replay_tokens -p)
    if test -z "$(__avt-replay_tokens -t)"
        set -l index (count (__avt-replay_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'avt-replay' -f
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'replay' -d 'Replay event logs and write the reports (the default command).'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'merge' -d 'Combine the report folders of the shards of a run (--shard K/N) into one report set.'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'partition' -d 'Split the input among the N shards of a sharded run, each shard\'s records into a folder of its own.'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'flush' -d 'Send the metrics kept in a spool (after a server was unreachable), and nothing else.'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'check' -d 'Replay event logs and compare the reports with a stored set (regression testing).'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'diff' -d 'Compare two stored report sets, file by file, and say what changed from the first to the second.'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'version' -d 'Print the version of avt-replay.'
complete -c 'avt-replay' -n '__avt-replay_completing_first_word' -fa 'help' -d 'Show subcommand help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" out' -l 'out' -d 'The folder the reports are written into (created if missing).' -rfa '(__avt-replay_complete_directories)'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_positional "avt-replay replay" -ge 1' -F
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" hub' -l 'hub' -d 'The hub every instrument runs: ads (HubCoreAds) or core (HubCore).' -rfka 'ads core'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" tentacles' -l 'tentacles' -d 'The Tentacles names value-proposition events carry: value-proposition (category valueProposition, valuePropositionSessionId; Tentacles ffcb97e) or domain-activity (domainActivity, domainActivitySessionId and timestamp; aef2fe4).' -rfka 'value-proposition domain-activity'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" strict' -l 'strict' -d 'Fail (exit 4, no reports written) when any input is skipped.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" max-rejects' -l 'max-rejects' -d 'Fail (exit 4, no reports written) when a file has more rejected lines than this: a count, or a percentage of its lines (5%).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" ts-unit' -l 'ts-unit' -d 'The unit of a ts given as a number: ms (the format\'s) or s (for loggers that write epoch seconds; fractions allowed). Without it, numbers are milliseconds and those that look like seconds are warned of.' -rfka 'ms s'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" since' -l 'since' -d 'Report only the sessions whose first record is at or after this time: a date (2025-11-20, UTC), an RFC 3339 time, or epoch seconds or milliseconds (told apart by magnitude).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" until' -l 'until' -d 'Report only the sessions whose first record is before this time (as --since).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" max-lateness' -l 'max-lateness' -d 'How much later than a record after it in time a record may come in its file and still be replayed in order (90s, 30m, 1h30m). (default: 30m)' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" max-late' -l 'max-late' -d 'Fail (exit 4, no reports written) when a file has more records rejected as late than this: a count, or a percentage of its lines (5%).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" idle-gap' -l 'idle-gap' -d 'Forget an instrument, app or player after this long without records, in log time (90s, 1h30m, 2d); a later record starts a new life. (default: 12h)' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" trace' -l 'trace' -d 'Also write events.jsonl: every event that left the hub, with its metrics.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" trace-rejected' -l 'trace-rejected' -d 'List the events the hub rejected in events.jsonl too (implies --trace).'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" bucket' -l 'bucket' -d 'The time buckets of summary.csv and aggregates.csv, from 1m to 1d. (default: 1h)' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay"' -l 'group-by' -d 'Split summary.csv and aggregates.csv (and the --aggregate points) by these dimensions: attribute names or system, instrument, source_host, app, name, player; repeatable, e.g. --group-by title,source_host.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" metrics' -l 'metrics' -d 'What metrics.influx and metrics.graphite hold, and what is pushed: aggregates (those of aggregates.csv: a bounded number of series), playbacks (a point per report row in metrics.influx, the aggregates in metrics.graphite) or events (every event\'s metrics, device ids as InfluxDB fields).' -rfka 'events playbacks aggregates'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" aggregate' -l 'aggregate' -d 'Also write the aggregates of aggregates.csv to metrics.influx and metrics.graphite.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" breakdown-min-views' -l 'breakdown-min-views' -d 'In report.html\'s breakdowns, add up the values with fewer views than this into one last row.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" prefix' -l 'prefix' -d 'The first part of metric names (Graphite path nodes, InfluxDB measurement).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay"' -l 'vp-duration' -d 'Add the milliseconds between two statuses to value-proposition events that have both, as durationFromTo.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay"' -l 'vp-middleware' -d 'A value-proposition middleware: duration:FROM:TO, capitalise-keys, skip-category:CAT or skip-name:N[,N]; prefix trace= or metrics= for one output. Applied in order, after --vp-duration.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" summary-json' -l 'summary-json' -d 'Where to write the run\'s summary as JSON (default: <out>/run.json; - for standard output).' -rF
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" influx' -l 'influx' -d 'Also write metrics.influx to InfluxDB: a 1.x write URL (http://HOST:8086/write?db=DB, optionally rp= and a USER@) or a 2.x/3.x one (http://HOST:8086/api/v2/write?org=ORG&bucket=BUCKET); precision=ns is added.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" influx-secret-file' -l 'influx-secret-file' -d 'A file holding InfluxDB\'s token (2.x/3.x) or the user\'s password (1.x); else the AVT_REPLAY_INFLUX_SECRET environment variable. Never on the command line.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" graphite' -l 'graphite' -d 'Also send metrics.graphite to carbon\'s plaintext port.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" spool' -l 'spool' -d 'Where batches that could not be delivered are kept until a later run or flush (default: <out>.spool, beside the reports).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" state' -l 'state' -d 'Keep the sessions still open at the end in FILE, and go on with the ones FILE holds (nightly runs). An input FILE consumed already is refused (exit 4).' -rF
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" finish' -l 'finish' -d 'With --state, close every session at the end anyway (the last run of a series).'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" replace-run' -l 'replace-run' -d 'With --state, replay the last run again when the inputs were replayed into FILE already: start from FILE.previous, the state before that run.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" previous-merge' -l 'previous-merge' -d 'With --shard and --state, in a sharded nightly series: the folder merge wrote for the night the state goes on from (its merge.state says which buckets are still open in any shard).' -rfa '(__avt-replay_complete_directories)'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" shard' -l 'shard' -d 'Replay only the sessions whose id hashes to shard K of N (reading all input), and write what merge needs to combine the N shards\' reports.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" threads' -l 'threads' -d 'Threads that decode and replay, from 1 to 256 (default: the cores this process may use). 1: one thread reads, one replays, one writes; N: the lives are shared among N replay engines. The reports are the same for every N.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay"' -l 'quiet' -s 'q' -d 'Print no progress line and no summary; warnings and input problems still go to standard error. Twice (-qq): print nothing but fatal errors.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" out' -l 'out' -d 'The folder the merged reports are written into (created if missing).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" influx' -l 'influx' -d 'Also write metrics.influx to InfluxDB: a 1.x write URL (http://HOST:8086/write?db=DB, optionally rp= and a USER@) or a 2.x/3.x one (http://HOST:8086/api/v2/write?org=ORG&bucket=BUCKET); precision=ns is added.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" influx-secret-file' -l 'influx-secret-file' -d 'A file holding InfluxDB\'s token (2.x/3.x) or the user\'s password (1.x); else the AVT_REPLAY_INFLUX_SECRET environment variable. Never on the command line.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" graphite' -l 'graphite' -d 'Also send metrics.graphite to carbon\'s plaintext port.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" spool' -l 'spool' -d 'Where batches that could not be delivered are kept until a later run or flush (default: <out>.spool, beside the reports).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" q quiet' -l 'quiet' -s 'q' -d 'Print nothing but fatal errors.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" partial' -l 'partial' -d 'Merge the shards given even when some of the N are missing (their sessions are then not in the reports).'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay merge" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" shards' -l 'shards' -d 'How many shards to split the input into.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" out' -l 'out' -d 'The folder to write the partition into.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" max-lateness' -l 'max-lateness' -d 'The reorder window the shards will replay with (their --max-lateness): it places the late records. (default: 30m)' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" ts-unit' -l 'ts-unit' -d 'The unit of a ts given as a number (as the shards\' --ts-unit).' -rfka 'ms s'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" threads' -l 'threads' -d 'Threads that decode and replay, from 1 to 256 (default: the cores this process may use). 1: one thread reads, one replays, one writes; N: the lives are shared among N replay engines. The reports are the same for every N.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" q quiet' -l 'quiet' -s 'q' -d 'Print nothing but fatal errors.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay partition" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay flush" influx' -l 'influx' -d 'Also write metrics.influx to InfluxDB: a 1.x write URL (http://HOST:8086/write?db=DB, optionally rp= and a USER@) or a 2.x/3.x one (http://HOST:8086/api/v2/write?org=ORG&bucket=BUCKET); precision=ns is added.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay flush" influx-secret-file' -l 'influx-secret-file' -d 'A file holding InfluxDB\'s token (2.x/3.x) or the user\'s password (1.x); else the AVT_REPLAY_INFLUX_SECRET environment variable. Never on the command line.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay flush" graphite' -l 'graphite' -d 'Also send metrics.graphite to carbon\'s plaintext port.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay flush" spool' -l 'spool' -d 'Where batches that could not be delivered are kept until a later run or flush (default: <out>.spool, beside the reports).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay flush" q quiet' -l 'quiet' -s 'q' -d 'Print nothing but fatal errors.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay flush" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay flush" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" expect' -l 'expect' -d 'The stored report set to compare with (written with --record).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" record' -l 'record' -d 'Write the replay\'s reports into the --expect folder instead of comparing.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" junit' -l 'junit' -d 'Also write the outcome as JUnit XML to this file (- for standard output; the differences then go to standard error).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" max-differences' -l 'max-differences' -d 'Differences printed in full for each file; the rest of the file\'s are counted.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_positional "avt-replay check" -ge 1' -F
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" hub' -l 'hub' -d 'The hub every instrument runs: ads (HubCoreAds) or core (HubCore).' -rfka 'ads core'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" tentacles' -l 'tentacles' -d 'The Tentacles names value-proposition events carry: value-proposition (category valueProposition, valuePropositionSessionId; Tentacles ffcb97e) or domain-activity (domainActivity, domainActivitySessionId and timestamp; aef2fe4).' -rfka 'value-proposition domain-activity'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" strict' -l 'strict' -d 'Fail (exit 4, no reports written) when any input is skipped.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" max-rejects' -l 'max-rejects' -d 'Fail (exit 4, no reports written) when a file has more rejected lines than this: a count, or a percentage of its lines (5%).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" ts-unit' -l 'ts-unit' -d 'The unit of a ts given as a number: ms (the format\'s) or s (for loggers that write epoch seconds; fractions allowed). Without it, numbers are milliseconds and those that look like seconds are warned of.' -rfka 'ms s'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" since' -l 'since' -d 'Report only the sessions whose first record is at or after this time: a date (2025-11-20, UTC), an RFC 3339 time, or epoch seconds or milliseconds (told apart by magnitude).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" until' -l 'until' -d 'Report only the sessions whose first record is before this time (as --since).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" max-lateness' -l 'max-lateness' -d 'How much later than a record after it in time a record may come in its file and still be replayed in order (90s, 30m, 1h30m). (default: 30m)' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" max-late' -l 'max-late' -d 'Fail (exit 4, no reports written) when a file has more records rejected as late than this: a count, or a percentage of its lines (5%).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" idle-gap' -l 'idle-gap' -d 'Forget an instrument, app or player after this long without records, in log time (90s, 1h30m, 2d); a later record starts a new life. (default: 12h)' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" trace' -l 'trace' -d 'Also write events.jsonl: every event that left the hub, with its metrics.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" trace-rejected' -l 'trace-rejected' -d 'List the events the hub rejected in events.jsonl too (implies --trace).'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" bucket' -l 'bucket' -d 'The time buckets of summary.csv and aggregates.csv, from 1m to 1d. (default: 1h)' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check"' -l 'group-by' -d 'Split summary.csv and aggregates.csv (and the --aggregate points) by these dimensions: attribute names or system, instrument, source_host, app, name, player; repeatable, e.g. --group-by title,source_host.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" metrics' -l 'metrics' -d 'What metrics.influx and metrics.graphite hold, and what is pushed: aggregates (those of aggregates.csv: a bounded number of series), playbacks (a point per report row in metrics.influx, the aggregates in metrics.graphite) or events (every event\'s metrics, device ids as InfluxDB fields).' -rfka 'events playbacks aggregates'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" aggregate' -l 'aggregate' -d 'Also write the aggregates of aggregates.csv to metrics.influx and metrics.graphite.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" breakdown-min-views' -l 'breakdown-min-views' -d 'In report.html\'s breakdowns, add up the values with fewer views than this into one last row.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" prefix' -l 'prefix' -d 'The first part of metric names (Graphite path nodes, InfluxDB measurement).' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check"' -l 'vp-duration' -d 'Add the milliseconds between two statuses to value-proposition events that have both, as durationFromTo.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check"' -l 'vp-middleware' -d 'A value-proposition middleware: duration:FROM:TO, capitalise-keys, skip-category:CAT or skip-name:N[,N]; prefix trace= or metrics= for one output. Applied in order, after --vp-duration.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" threads' -l 'threads' -d 'Threads that decode and replay, from 1 to 256 (default: the cores this process may use). 1: one thread reads, one replays, one writes; N: the lives are shared among N replay engines. The reports are the same for every N.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay diff" max-differences' -l 'max-differences' -d 'Differences printed in full for each file; the rest of the file\'s are counted.' -rfka ''
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay diff" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay diff" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay version" version' -l 'version' -d 'Show the version.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay version" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'avt-replay' -n '__avt-replay_should_offer_completions_for_flags_or_options "avt-replay help" version' -l 'version' -d 'Show the version.'