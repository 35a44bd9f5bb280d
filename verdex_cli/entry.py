"""The console entry point (`verdex`, `python -m verdex_cli`).

`verdex run --session NAME ...` (or `run` with $VERDEX_SESSION set) goes straight to the light
session client, before Typer, Rich or the browser layer is imported; everything else goes to the
Typer command line (cli.py).
"""

from __future__ import annotations

import os
import sys

# options that take the next word as their value (so that word is not the first positional)
VALUE_OPTIONS = frozenset({"--chrome", "--connect", "--timeout", "--script", "--downloads", "--session",
                           "--idle-timeout", "--connect-header"})


def split_word(argv: list[str]) -> tuple[str | None, list[str]]:
    """The first positional word (options may stand before it) and argv without it."""
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return None, argv
        if word.startswith("-"):
            if word in VALUE_OPTIONS:
                i += 1
            i += 1
            continue
        return word, argv[:i] + argv[i + 1:]
    return None, argv


def light_run(argv: list[str]) -> list[str] | None:
    """argv without the word `run` when this is a run in a session (and not a request for help)."""
    word, rest = split_word(argv)
    if word != "run":
        return None
    options = rest[:rest.index("--")] if "--" in rest else rest
    if "-h" in options or "--help" in options:
        return None
    if any(o == "--session" or o.startswith("--session=") for o in options) or os.environ.get("VERDEX_SESSION"):
        return rest
    return None


def main(argv: list[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    rest = light_run(argv)
    if rest is not None:
        from .sessions.client import main as run_in_session

        sys.exit(run_in_session(rest))
    from .cli import main as cli_main

    cli_main(argv)
