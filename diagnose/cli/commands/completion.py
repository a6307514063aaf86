"""``ascend-doctor completion bash|zsh|fish``: a shell completion script, made from the parser itself
(every subcommand and its options, and the bundled profile names after ``--sim``).

    eval "$(ascend-doctor completion bash)"                 # in ~/.bashrc
    ascend-doctor completion fish > ~/.config/fish/completions/ascend-doctor.fish
"""
from __future__ import annotations

NAME = "completion"
HELP = "print a shell completion script (bash, zsh or fish)"
SHELLS = ("bash", "zsh", "fish")


def add_arguments(parser) -> None:
    parser.add_argument("shell", choices=SHELLS, help="the shell to complete in")


def commands() -> dict[str, list[str]]:
    """subcommand -> its long options, from the real parser."""
    import argparse

    from ..main import build_parser

    out: dict[str, list[str]] = {}
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out[name] = sorted({o for a in sub._actions for o in a.option_strings if o.startswith("--")})
    return out


def bash_script(cmds: dict[str, list[str]], profiles: list[str]) -> str:
    cases = "\n".join(f'        {name}) opts="{" ".join(opts)}" ;;' for name, opts in sorted(cmds.items()))
    return f'''# ascend-doctor completion for bash (zsh: autoload -U bashcompinit && bashcompinit first)
_ascend_doctor() {{
    local cur prev cmd opts
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
    cmd="${{COMP_WORDS[1]}}"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=( $(compgen -W "{" ".join(sorted(cmds))} --help --version --lang" -- "$cur") )
        return
    fi
    case "$prev" in
        --sim) COMPREPLY=( $(compgen -W "{" ".join(profiles)}" -- "$cur") ); return ;;
        --lang) COMPREPLY=( $(compgen -W "en zh" -- "$cur") ); return ;;
        --replay|--kb|-o|--output|--json|--junit|--markdown|--python) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
    esac
    case "$cmd" in
{cases}
        *) opts="" ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=( $(compgen -W "$opts --lang --help" -- "$cur") )
    else
        COMPREPLY=( $(compgen -f -- "$cur") )
    fi
}}
complete -F _ascend_doctor ascend-doctor
'''


def fish_script(cmds: dict[str, list[str]], profiles: list[str]) -> str:
    lines = ["# ascend-doctor completion for fish",
             f"complete -c ascend-doctor -f -n '__fish_use_subcommand' -a '{' '.join(sorted(cmds))}'",
             "complete -c ascend-doctor -l lang -x -a 'en zh'",
             f"complete -c ascend-doctor -l sim -x -a '{' '.join(profiles)}'"]
    for name, opts in sorted(cmds.items()):
        for o in opts:
            if o not in ("--lang", "--sim"):
                lines.append(f"complete -c ascend-doctor -n '__fish_seen_subcommand_from {name}' -l {o[2:]}")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    import sys

    from ...system import list_profiles

    cmds = commands()
    profiles = list_profiles()
    if args.shell == "fish":
        sys.stdout.write(fish_script(cmds, profiles))
    else:
        script = bash_script(cmds, profiles)
        if args.shell == "zsh":
            script = "autoload -U +X bashcompinit && bashcompinit\n" + script
        sys.stdout.write(script)
    return 0
