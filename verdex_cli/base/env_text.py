"""`fill REF --env VAR` / `type REF --env VAR`: the text comes from the environment, never from the
command line (where every local user sees it in `ps`). Light: the session client uses it too."""

from __future__ import annotations

import os


def env_text(text: str) -> str | None:
    """The name VAR when a fill/type TEXT is `--env VAR`, else None."""
    words = text.split()
    if len(words) == 2 and words[0] == "--env" and words[1].isidentifier() and words[1].isascii():
        return words[1]
    return None


def env_of_line(line: str) -> dict:
    """What a session client sends with a `fill|type REF --env VAR` line: {VAR: value} when VAR is set
    here (the server runs the command but the value is the client's), else {}. (No `re`: the light
    client starts without it.)"""
    words = line.split()
    name = env_text(" ".join(words[-2:])) if len(words) >= 4 and words[0] in ("fill", "type") else None
    return {name: os.environ[name]} if name and name in os.environ else {}
