"""Snapshot lines for a terminal: roles, names, states and refs in their own colours, and each line
wrapped to the terminal's width with a hanging indent, never inside a `[ref=...]` or state token.

Only for a terminal (pipes, `--json` and one-shot output keep the contract's text as it is)."""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text

_LINE = re.compile(r'^(?P<indent> *)- (?P<role>[^\s":\[]+)(?P<name> "(?:[^"\\]|\\.)*")?'
                   r'(?P<tokens>(?: \[[^\]]*\])*)(?P<rest>.*)$')
_TOKEN = re.compile(r" \[[^\]]*\]")
_WORD = re.compile(r"\s*\S+|\s+")
HANG = 4  # continuation lines: the node's indent plus this


def _pieces(line: str) -> tuple[int, list[tuple[str, str, bool]]]:
    """(indent, [(text, style, may break inside)]) of one snapshot line."""
    m = _LINE.match(line)
    if m is None:
        return len(line) - len(line.lstrip(" ")), [(line, "", True)]
    out = [(m["indent"] + "- " + m["role"], "cyan", False)]
    if m["name"]:
        out.append((m["name"], "bold", True))
    for token in _TOKEN.findall(m["tokens"]):
        out.append((token, "magenta" if token.startswith((" [ref=", " [frame=")) else "dim", False))
    if m["rest"]:
        out.append((m["rest"], "", True))
    return len(m["indent"]), out


def wrapped(text: str, width: int) -> Text:
    """The snapshot text, coloured and wrapped to ``width`` columns."""
    out = Text(no_wrap=True, overflow="ignore")
    for n, line in enumerate(text.split("\n")):
        if n:
            out.append("\n")
        indent, pieces = _pieces(line)
        hang = " " * (indent + HANG)
        col = 0
        for piece, style, breakable in pieces:
            run = ""  # one span per piece and row, not one per word
            for word in (_WORD.findall(piece) if breakable else [piece]):
                size = cell_len(word)
                if col + size > width and col > len(hang) and word.strip():
                    out.append(run, style)
                    out.append("\n" + hang)
                    run, word = "", word.lstrip()
                    col, size = len(hang), cell_len(word)
                run += word
                col += size
            out.append(run, style)
    return out
