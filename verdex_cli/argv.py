"""Reading argv before any parser runs: the first positional word and whether this is a run in a
session (kept free of imports, so the light entry point stays light)."""

from __future__ import annotations

import os

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
