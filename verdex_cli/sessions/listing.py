"""`verdex session list [--json]` (light: neither Typer nor Rich, so it starts as fast as the run client).
A session that does not answer within a moment is listed as such (``?``: its server is stuck)."""

from __future__ import annotations

import os
import sys
import time

from . import names, wire
from ..base.errors import VerdexError, exit_status, ok_json
from ..base.words import age

INFO_WAIT = 3.0
COLUMNS = ("NAME", "PID", "TABS", "CLIENTS", "BUSY", "QUEUED", "IDLE", "BROWSER")


def info(name: str, wait: float = INFO_WAIT) -> dict | None:
    """The server's own account of itself, or None when it does not answer within ``wait`` s."""
    try:
        channel = wire.connect(name)
    except VerdexError:
        return None
    try:
        channel.sock.settimeout(wait)
        channel.send({"op": "info"})
        reply = channel.recv()
        return reply if reply and reply.get("op") == "info" else None
    except OSError:
        return None
    finally:
        channel.close()


def rows() -> list[dict]:
    directory = names.session_dir()
    found = []
    for name in names.known_names(directory):
        pid = names.running_pid(name, directory)  # a dead server's socket is cleaned here
        if pid is None:
            continue
        row = info(name) or {"name": name, "pid": pid, "browser": "(not answering)", "tabs": None,
                             "clients": None, "attached": None, "idle_s": None, "busy": None, "queued": None}
        row.pop("op", None)
        found.append(row)
    return found


def _cell(row: dict, column: str) -> str:
    value = row.get(column.lower())
    if column == "CLIENTS" and value is not None and row.get("attached"):
        return f"{value} ({row['attached']} attached)"
    if column == "BUSY":
        return "?" if value is None else (str(row.get("running") or "yes") if value else "-")
    if column == "IDLE":
        value = row.get("idle_s")
        return "?" if value is None else age(value)
    return "?" if value is None else str(value)


def table(found: list[dict]) -> list[str]:
    """The rows as aligned text lines (a long name widens its column; the browser comes last)."""
    cells = [COLUMNS] + [tuple(_cell(r, c) for c in COLUMNS) for r in found]
    widths = [max(len(line[i]) for line in cells) for i in range(len(COLUMNS) - 1)]
    lines = []
    for line in cells:
        parts = [line[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(line[1:-1], widths[1:])]
        lines.append("  ".join(parts + [line[-1]]).rstrip())
    return lines


def main(argv: list[str]) -> int:
    """`verdex session list [--json] [--no-color]`; anything else is for the full command line."""
    from ..base.sanitize import clean, json_line
    from .client import Output

    json_mode = "--json" in argv
    started = time.perf_counter()
    try:
        found = rows()
    except VerdexError as exc:
        Output(json_mode, "--no-color" in argv).failure("session list", exc.kind, exc.message)
        return int(exit_status(exc.kind))
    if json_mode:
        elapsed = (time.perf_counter() - started) * 1000
        sys.stdout.write(json_line(ok_json("session list", {"sessions": found}, elapsed)) + "\n")
        return 0
    if not found:
        sys.stdout.write("No sessions.\n")
        return 0
    bold = sys.stdout.isatty() and "--no-color" not in argv and "NO_COLOR" not in os.environ
    head, *body = table(found)
    sys.stdout.write((f"\x1b[1m{head}\x1b[0m" if bold else head) + "\n")
    sys.stdout.write("".join(clean(line) + "\n" for line in body))
    return 0
