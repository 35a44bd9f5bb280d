"""Reading argv before any parser runs: the first positional word and whether this is a run in a
session (kept free of imports, so the light entry point stays light)."""

from __future__ import annotations

import os

# `verdex run`'s options, as the keyword arguments they become (flags: True when given); the Typer command
# declares the same (tests/test_oneshot_speed.py holds the two to each other)
RUN_FLAGS = {"--headed": "headed", "--json": "json_mode", "--no-color": "no_color", "--debug": "debug",
             "--no-pager": "no_pager", "--trace": "trace", "--no-changes": "no_changes", "--keep-going": "keep_going"}
RUN_VALUES = {"--chrome": "chrome", "--connect": "connect", "--timeout": "timeout", "--script": "script",
              "--downloads": "downloads", "--session": "session", "--connect-header": "connect_header",
              "--connect-header-env": "connect_header_env"}
REPEATED = ("connect_header", "connect_header_env")
# options that take the next word as their value (so that word is not the first positional)
VALUE_OPTIONS = frozenset({*RUN_VALUES, "--idle-timeout", "--wait"})


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


def option_value(argv: list[str], name: str) -> str | None:
    """The value of option ``name`` (``--name VALUE`` or ``--name=VALUE``; the last one), or None."""
    value = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == name and i + 1 < len(argv):
            value = argv[i + 1]
        elif word.startswith(name + "="):
            value = word[len(name) + 1:]
    return value


def looks_like_url(word: str | None) -> bool:
    """A first word of `run` that is a URL or a file, not a command line: one word with '.', ':' or '/'
    in it (a command line is a command name, letters and '-', then its arguments after a space)."""
    return bool(word) and not any(c.isspace() for c in word) and any(c in word for c in "./:~")


def light_run(argv: list[str]) -> list[str] | None:
    """argv without the word `run` when this is a run in a session (and not a request for help):
    `--session NAME` (``--session ''`` opts out), or $VERDEX_SESSION when no URL is given."""
    word, rest = split_word(argv)
    if word != "run":
        return None
    options = rest[:rest.index("--")] if "--" in rest else rest
    if "-h" in options or "--help" in options:
        return None
    given = option_value(rest, "--session")
    if given is not None:
        return rest if given else None
    if os.environ.get("VERDEX_SESSION") and not looks_like_url(split_word(rest)[0]):
        return rest
    return None


def run_args(argv: list[str]) -> dict | None:
    """A one-shot `run URL COMMAND...` read without a parser: its options (by keyword), "url" and
    "commands"; None when it is anything else or not plain (help, an unknown or incomplete option, a
    timeout that is not a number of at least 0.1 s, no URL): Typer reads those and says what is wrong."""
    word, rest = split_word(argv)
    if word != "run" or light_run(argv) is not None:
        return None
    out: dict = {name: [] for name in REPEATED}
    words: list[str] = []
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--":
            words += rest[i + 1:]
            break
        name, eq, value = arg.partition("=")
        if arg in RUN_FLAGS:
            out[RUN_FLAGS[arg]] = True
        elif name in RUN_VALUES and (eq or i + 1 < len(rest)):
            if not eq:
                i, value = i + 1, rest[i + 1]
            key = RUN_VALUES[name]
            out[key] = [*out[key], value] if key in REPEATED else value
        elif arg.startswith("-") and arg != "-":
            return None
        else:
            words.append(arg)
        i += 1
    try:
        out["timeout"] = float(out.get("timeout", 10.0))
    except ValueError:
        return None
    if not words or not out["timeout"] >= 0.1:
        return None
    return {**out, "url": words[0], "commands": words[1:]}

