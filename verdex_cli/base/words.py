"""Scanning typed text that may quote and bracket: `role=button[name="Save as"]`, `a >> b`. Shared by
the command-line splitter (commands/registry.py) and target chains (targets.py); no imports, so the
registry stays light."""

from __future__ import annotations

from typing import Callable


def counted(n: int, word: str, plural: str | None = None) -> str:
    """'1 change', '2 changes' ('1 level up' with word 'level', '3 levels')."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def age(seconds: float) -> str:
    """'42s', '5m', '1.5h'."""
    if seconds < 60:
        return f"{seconds:.0f}s"
    return f"{seconds / 60:.0f}m" if seconds < 3600 else f"{seconds / 3600:.1f}h"


def scan(text: str, i: int, stop: Callable[[str, int], bool]) -> int:
    """The first index from ``i`` where ``stop(text, index)`` holds outside quotes and brackets (a
    backslash escapes the next character inside quotes), or ``len(text)``."""
    quote, depth, n = None, 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif depth == 0 and stop(text, i):
            return i
        i += 1
    return n
