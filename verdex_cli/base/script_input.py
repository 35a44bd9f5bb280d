"""Command lines from a script file or a pipe (light: the session client uses it too)."""

from __future__ import annotations

import sys

from ..base.errors import UsageError


def read_script(script: str) -> list[str]:
    try:
        with open(script, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise UsageError(f"Cannot read script {script}: {reason}") from exc
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def live_lines():
    """Command lines from stdin, each handed over as soon as it arrives (never read ahead): a program
    can write a line, read its result, and decide the next. End of input ends the run."""
    while True:
        try:
            raw = sys.stdin.readline()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"Cannot read commands from stdin: {getattr(exc, 'strerror', None) or exc}") from exc
        if not raw:
            return
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line
