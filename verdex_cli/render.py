"""The only place that prints: turns Outcomes into rich output or JSON Lines.

Page text is untrusted: it is always printed with markup and highlighting off.
"""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .runner import Outcome


class Renderer:
    def __init__(self, json_mode: bool = False, color: bool = True, debug: bool = False,
                 console: Console | None = None, err_console: Console | None = None):
        self.json_mode = json_mode
        self.debug = debug
        self.out = console or Console(no_color=not color, highlight=False, soft_wrap=True)
        self.err = err_console or Console(stderr=True, no_color=not color, highlight=False, soft_wrap=True)

    # -- entry points -----------------------------------------------------------
    def show(self, outcome: Outcome) -> None:
        if self.json_mode:
            self._json(outcome.as_json())
            return
        if not outcome.ok:
            self.error(outcome.message, outcome.trace if self.debug else "")
            return
        res = outcome.result
        painter = getattr(self, "_r_" + res.kind, None)
        if painter is None:
            self._plain(json.dumps(res.as_json(), indent=2, ensure_ascii=False, default=str))
        else:
            painter(res.data)
        for note in res.notes:
            self.out.print(Text(note, style="yellow"))

    def error(self, message: str, trace: str = "") -> None:
        if trace:
            self.err.print(Text(trace.rstrip(), style="dim"))
        self.err.print(Text(message, style="bold red"))

    def info(self, message: str) -> None:
        if not self.json_mode:
            self.out.print(Text(message, style="dim"))

    # -- helpers ---------------------------------------------------------------
    def _json(self, obj: dict) -> None:
        line = json.dumps(obj, ensure_ascii=False, default=str)
        self.out.file.write(line + "\n")
        self.out.file.flush()

    def _plain(self, text: str, style: str = "") -> None:
        self.out.print(Text(text, style=style), markup=False, highlight=False)

    # -- painters, one per result kind ------------------------------------------
    def _r_navigation(self, d: dict) -> None:
        title = d.get("title") or "(no title)"
        self.out.print(Text.assemble(("Opened ", "green"), (d.get("url", ""), "bold"), ("  " + title, "dim")))

    def _r_value(self, d: dict) -> None:
        v = d.get("value")
        text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, indent=2, default=str)
        self._plain(text)

    def _r_screenshot(self, d: dict) -> None:
        self.out.print(Text(f"Saved {d['path']} ({d['bytes']:,} bytes)", style="green"))

    def _r_quit(self, d: dict) -> None:
        pass

    def _r_help_all(self, d: dict) -> None:
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for c in d["commands"]:
            alias = f" (alias {', '.join(c['aliases'])})" if c["aliases"] else ""
            table.add_row(c["usage"], c["help"] + alias)
        self.out.print(table)
        self.out.print(Text("Type 'help COMMAND' for one command.", style="dim"))

    def _r_help_one(self, d: dict) -> None:
        self.out.print(Text(d["usage"], style="bold cyan"))
        self._plain("  " + d["help"])
        if d["aliases"]:
            self._plain("  Aliases: " + ", ".join(d["aliases"]), style="dim")

    def _r_snapshot(self, d: dict) -> None:
        self._plain(d["text"])
        for note in d.get("notes", []):
            self.out.print(Text("# " + note, style="yellow"))
