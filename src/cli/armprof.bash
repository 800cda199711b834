# SPDX-License-Identifier: BSD-3-Clause
# bash completion for armprof: the commands, their options (every command
# takes --help and -h), and the names
# the command itself lists (presets, features, registers), so the
# completion never falls behind the model.
_armprof()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    local armprof=${words[0]}
    if [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$("$armprof" help --commands 2>/dev/null) --version --help" -- "$cur"))
        return
    fi
    local presets
    case ${words[1]} in
    regs)
        if [[ $prev == --preset ]]; then
            presets=$("$armprof" presets 2>/dev/null | cut -d' ' -f1)
            COMPREPLY=($(compgen -W "$presets" -- "$cur"))
        elif [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--preset --fields --help -h" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$("$armprof" regs 2>/dev/null | tail -n +2 | cut -d' ' -f1)" -- "$cur"))
        fi
        ;;
    features)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help -h" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$("$armprof" features 2>/dev/null)" -- "$cur"))
        fi
        ;;
    run)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--json --quiet --help -h" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -X '!*.aps' -- "$cur") $(compgen -d -- "$cur"))
        fi
        ;;
    decode)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--json --help -h" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        ;;
    report)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--html --svg --top --max-distinct -o --help -h" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        ;;
    demo)
        if [[ $prev == -o || $prev == --perf-data ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        else
            COMPREPLY=($(compgen -W "-o --ops --quiet --perf-data --perf-version --help -h" -- "$cur"))
        fi
        ;;
    perf-data)
        if [[ $prev == --perf-version ]]; then
            COMPREPLY=($(compgen -W "6.1 6.12 7.3" -- "$cur"))
        elif [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "-o --perf-version --elf --comm --midr --interval --topology --node-memory --help -h" -- "$cur"))
        else
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        ;;
    help)
        # a command's name: its usage and options
        if [[ $cword -eq 2 ]]; then
            COMPREPLY=($(compgen -W "--man --commands --help -h $("$armprof" help --commands 2>/dev/null)" -- "$cur"))
        fi
        ;;
    *)
        COMPREPLY=($(compgen -W "--help -h" -- "$cur"))
        ;;
    esac
}
complete -F _armprof armprof
