"""`fill REF --env VAR` / `type REF --env VAR`: the text comes from the environment, never from the
command line (where every local user sees it in `ps`). Light: the session client uses it too."""

from __future__ import annotations

import os
import re

ENV_TEXT = re.compile(r"--env\s+([A-Za-z_][A-Za-z0-9_]*)")
ENV_LINE = re.compile(r"\s*(?:fill|type)\s+\S.*?\s" + ENV_TEXT.pattern + r"\s*")


def env_text(text: str) -> str | None:
    """The name VAR when a fill/type TEXT is `--env VAR`, else None."""
    found = ENV_TEXT.fullmatch(text.strip())
    return found[1] if found else None


def env_of_line(line: str) -> dict:
    """What a session client sends with a `fill|type REF --env VAR` line: {VAR: value} when VAR is set
    here (the server runs the command but the value is the client's), else {}."""
    found = ENV_LINE.fullmatch(line)
    return {found[1]: os.environ[found[1]]} if found and found[1] in os.environ else {}
