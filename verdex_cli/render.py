"""The only place that prints: turns Outcomes into rich output or JSON Lines.

Page text is untrusted: it is printed with markup, emoji and highlighting off,
and everything passes the sanitizer (:mod:`verdex_cli.sanitize`) twice: result
data is cleaned to one line per item before painting, and every segment the
console writes is cleaned again, so no control character of the page reaches
the terminal. Colour (any escape code at all) only on a terminal, without
``--no-color`` and without ``NO_COLOR`` in the environment.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

from rich.console import Console
from rich.padding import Padding
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from .runner import Outcome
from .render_changes import paint_changes, paint_diff
from .render_targets import PAINTERS
from .sanitize import clean, clean_data, json_line


def use_color(no_color_flag: bool, stream=None) -> bool:
    """Colour only on a terminal, unless --no-color or NO_COLOR (any value, even empty) says no."""
    if no_color_flag or "NO_COLOR" in os.environ:
        return False
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class SafeConsole(Console):
    """A rich Console that cleans every text segment it renders (its own style codes stay)."""

    def render(self, renderable, options=None):
        for seg in super().render(renderable, options):
            if seg.control or not seg.text:
                yield seg
            else:
                text = clean(seg.text, one_line=False)
                yield seg if text is seg.text else Segment(text, seg.style, seg.control)


def make_console(color: bool, stderr: bool = False, file=None, width: int | None = None) -> Console:
    stream = file if file is not None else (sys.stderr if stderr else sys.stdout)
    on = color and use_color(False, stream)
    return SafeConsole(file=file, stderr=stderr, width=width, color_system="auto" if on else None,
                       force_terminal=True if on else None, no_color=not on, markup=False, emoji=False,
                       highlight=False, soft_wrap=True)


class Renderer:
    def __init__(self, json_mode: bool = False, color: bool = True, debug: bool = False,
                 console: Console | None = None, err_console: Console | None = None):
        self.json_mode = json_mode
        self.debug = debug
        self.out = console or make_console(color)
        self.err = err_console or make_console(color, stderr=True)

    # -- entry points -----------------------------------------------------------
    def show(self, outcome: Outcome) -> None:
        self.trace(outcome)
        if self.json_mode:
            self._json(outcome.as_json())
            return
        if not outcome.ok:
            self.error(outcome.message, outcome.trace if self.debug else "")
            return
        res = outcome.result
        data = _paintable(res.kind, res.data)
        painter = getattr(self, "_r_" + res.kind, None)
        if painter is None and res.kind in PAINTERS:
            PAINTERS[res.kind](self, data)
        elif painter is None:
            self._plain(json.dumps(res.as_json(), indent=2, ensure_ascii=False, default=str))
        else:
            painter(data)
        for note in res.notes:
            self.out.print(Text(clean(note), style="yellow"))

    def show_paged(self, outcome: Outcome) -> None:
        """REPL on a terminal: output taller than the screen goes through the pager ($PAGER or less)."""
        if self.json_mode or not outcome.ok:
            self.show(outcome)
            return
        with self.out.capture() as captured:
            self.show(outcome)
        text = captured.get()
        if text.count("\n") < max(self.out.height - 2, 5) or not run_pager(text):
            self.out.file.write(text)
            self.out.file.flush()

    def flush(self) -> None:
        """Hand everything shown so far to whoever reads it (a program driving a live session)."""
        for console in (self.out, self.err):
            try:
                console.file.flush()
            except (AttributeError, ValueError):
                pass

    def error(self, message: str, trace: str = "") -> None:
        if trace:
            self.err.print(Text(clean(trace.rstrip(), one_line=False), style="dim"))
        self.err.print(Text(clean(message), style="bold red"))

    def info(self, message: str) -> None:
        if not self.json_mode:
            self.out.print(Text(clean(message), style="dim"))

    def warn(self, message: str) -> None:
        """A one-line warning on stderr (also in JSON mode: stdout stays pure JSON Lines)."""
        self.err.print(Text(clean(message), style="yellow"))

    # -- helpers ---------------------------------------------------------------
    def _json(self, obj: dict) -> None:
        line = json_line(obj)
        self.out.file.write(line + "\n")
        self.out.file.flush()

    def _plain(self, text: str, style: str = "") -> None:
        self.out.print(Text(text, style=style), markup=False, highlight=False)

    # -- painters, one per result kind ------------------------------------------
    def _r_navigation(self, d: dict) -> None:
        title = d.get("title") or "(no title)"
        verb = "Stayed on " if d.get("stayed") else "Opened "  # 'open' of a file to save (a download)
        self.out.print(Text.assemble((verb, "green"), (d.get("url", ""), "bold"), ("  " + title, "dim")))

    def _r_value(self, d: dict) -> None:
        from .browser.js_values import display_lines

        for text, style in display_lines(d):
            self._plain(text, style=style)

    def _r_wait(self, d: dict) -> None:
        what = {"text": f"text {d.get('text')!r}", "url": f"a URL with {d.get('text')!r}",
                "visible": f"{d.get('ref')} to be visible", "gone": f"{d.get('ref')} to go"}.get(d.get("for"))
        self._plain(f"Waited {d.get('waited_ms', 0)} ms" + (f" for {what}" if what else ""), style="green")

    def _r_dialog(self, d: dict) -> None:
        text = f" with {d['text']!r}" if d.get("text") is not None else ""
        self._plain(f"The next dialog will be {'accepted' if d['next'] == 'accept' else 'dismissed'}{text}.",
                    style="green")

    def _r_screenshot(self, d: dict) -> None:
        self.out.print(Text(f"Saved {d['path']} ({d['bytes']:,} bytes)", style="green"))

    def _r_quit(self, d: dict) -> None:
        pass

    def _r_help_all(self, d: dict) -> None:
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(style="bold cyan", max_width=42, overflow="fold")
        table.add_column()
        group = None
        for c in d["commands"]:
            if c.get("group") != group:  # commands come grouped: a heading row per group
                group = c.get("group")
                table.add_row(Text(str(group).capitalize(), style="bold"), "")
            alias = f" (alias {', '.join(c['aliases'])})" if c["aliases"] else ""
            # indented as a block, so a usage folded onto a second line keeps the indent
            table.add_row(Padding(Text(c["usage"]), (0, 0, 0, 2)), c["help"] + alias)
        self.out.print(table)
        self.out.print(Text("Type 'help COMMAND' for one command.", style="dim"))

    def _r_help_one(self, d: dict) -> None:
        self.out.print(Text(d["usage"], style="bold cyan"))
        self._plain("  " + d["help"])
        if d["aliases"]:
            self._plain("  Aliases: " + ", ".join(d["aliases"]), style="dim")

    def _r_snapshot(self, d: dict) -> None:
        self._plain(d["text"])  # already cleaned by _paintable, one node per line
        for note in d.get("notes", []):
            self.out.print(Text("# " + note, style="yellow"))

    def _r_action(self, d: dict) -> None:
        verb = {"click": "Clicked", "dblclick": "Double-clicked", "hover": "Hovered", "type": "Typed into",
                "fill": "Filled", "check": "Checked", "uncheck": "Unchecked", "select": "Selected in",
                "focus": "Focused", "scroll": "Scrolled to", "press": "Pressed"}.get(d.get("action"), d.get("action"))
        if d.get("action") == "press":
            self.out.print(Text.assemble((verb + " ", "green"), (d["key"], "bold")))
        elif d.get("action") == "scroll" and "ref" not in d:
            self.out.print(Text(f"Scrolled {d['direction']} (scrollY={d.get('scroll_y')})", style="green"))
        else:
            self._action_line(verb, d)
        paint_changes(self, d.get("changes"))

    def _action_line(self, verb: str, d: dict) -> None:
        what = f'{d.get("role", "")} "{d["name"]}"' if d.get("name") else d.get("role", "")
        line = Text.assemble((verb + " ", "green"), (what, "bold"), (f" ({d.get('ref')})", "cyan"))
        if "value" in d and d["value"] is not None:
            line.append(f'  value: "{d["value"]}"', style="dim")  # cleaned to one line by _paintable
        if d.get("selected"):
            line.append("  now: " + ", ".join(d["selected"]), style="dim")
        self.out.print(line)

    def _r_refs(self, d: dict) -> None:
        if not d["refs"]:
            return
        colours = {"live": "green", "changed": "yellow", "hidden": "dim", "removed": "red", "navigated": "magenta"}
        table = Table(box=None, header_style="bold", pad_edge=False)
        for col in ("ref", "role", "name", "status", "first #", "last #"):
            table.add_column(col, no_wrap=col != "name", overflow="fold")
        for r in d["refs"]:
            table.add_row(Text(r["ref"], style="cyan"), Text(r["role"]), Text(r["name"][:60]),
                          Text(r["status"], style=colours.get(r["status"], "")), str(r["first_seen"]),
                          str(r["last_seen"]))
        self.out.print(table)

    def _r_inspect(self, d: dict) -> None:
        colours = {"live": "green", "changed": "yellow", "removed": "red", "navigated": "magenta"}
        head = Text.assemble((d["ref"], "bold cyan"), "  ", (d["role"], "bold"), " ",
                             (f'"{d["name"]}"' if d["name"] else ""))
        self.out.print(head)
        self.out.print(Text.assemble("  status: ", (d["status"], colours.get(d["status"], ""))))
        if d.get("reason"):
            self._plain("  " + d["reason"], style="dim")
        if d.get("tag"):
            attrs = " ".join(f'{k}="{v}"' for k, v in d.get("attributes", {}).items())
            self._plain(f"  element: <{d['tag']}{' ' + attrs if attrs else ''}>")
        if d.get("box"):
            b = d["box"]
            self._plain(f"  box: x={b['x']:.0f} y={b['y']:.0f} {b['width']:.0f}x{b['height']:.0f}")
        if d.get("states"):
            self._plain("  states: " + ", ".join(f"{k}={v}" for k, v in d["states"].items()))
        self._plain(f"  frame: f{d['frame']}   seen in snapshots #{d['first_seen']}..#{d['last_seen']}")
        if "locator" in d:
            self._plain("  locator: " + (d["locator"] or "(none unique: use the ref)"))
            if d.get("playwright"):
                self._plain("  playwright: " + d["playwright"])
        for h in d.get("history", []):
            self._plain("  - " + h, style="dim")

    def _r_diff(self, d: dict) -> None:
        paint_diff(self, d)

    def _r_reset(self, d: dict) -> None:
        how = "numbering continues" if d["keep_counter"] else "numbering restarts at 1"
        self._plain(f"Dropped {d['dropped']} refs; {how}. Take a new snapshot.", style="green")

    def _r_frames(self, d: dict) -> None:
        for f in d["frames"]:
            where = "cross-origin" if f["cross_origin"] else "same-origin"
            parent = "" if f["parent"] is None else f"  in f{f['parent']}"
            name = f"  name={f['name']!r}" if f["name"] else ""
            self._plain(f"f{f['index']}  {f['url'] or '(no url)'}  [{where}]{parent}{name}")

    def _r_tabs(self, d: dict) -> None:
        several = len({t.get("context", 0) for t in d["tabs"]}) > 1  # tab 0 of context 0 and of context 1
        for t in d["tabs"]:
            mark = "*" if t["current"] else " "
            where = f"context {t.get('context', 0)}  " if several else ""
            line = Text(f"{mark} {where}tab {t['index']}  ", style="bold" if t["current"] else "")
            line.append(t["title"] or "(no title)")
            line.append(f"  {t['url']}", style="dim")
            self.out.print(line)
        for t in d.get("browser_tabs", ()):
            line = Text(f"  tab {t['index']}  (not adopted; 'tab {t['index']}' adopts it)  ", style="dim")
            line.append(t["title"] or "(no title)")
            line.append(f"  {t['url']}", style="dim")
            self.out.print(line)

    def _r_timings(self, d: dict) -> None:
        if d.get("command"):
            self._plain(d["command"], style="bold")
        for p in d["phases"]:
            self._plain(f"  {p['ms']:10.2f} ms  {p['phase']}")

    def trace(self, outcome) -> None:
        """--trace in text mode: the command's phases on stderr (JSON mode has them as "trace")."""
        if self.json_mode or not outcome.timings:
            return
        parts = ", ".join(f"{p['phase']} {p['ms']:.1f} ms" for p in outcome.timings)
        self.err.print(Text(f"trace: {parts}", style="dim"))

    def _r_highlight(self, d: dict) -> None:
        self._plain(f"Highlighted {d['element']} for {d['seconds']:g} s.", style="green")

    def _r_contexts(self, d: dict) -> None:
        for c in d["contexts"]:
            mark = "*" if c["current"] else " "
            pages = c["pages"]
            tabs = ("tab " if len(pages) == 1 else "tabs ") + ", ".join(str(i) for i in pages) if pages else "no tabs"
            default = "  (default)" if c["index"] == 0 else ""
            self._plain(f"{mark} context {c['index']}  {tabs}{default}")


def run_pager(text: str) -> bool:
    """Show ``text`` in $PAGER (default ``less -R``); False when no pager could run."""
    command = os.environ.get("PAGER") or "less -R"
    try:
        argv = shlex.split(command)
    except ValueError:
        return False
    if not argv:
        return False
    try:
        sys.stdout.flush()
        subprocess.run(argv, input=text.encode("utf-8", "replace"), check=False)
    except OSError:
        return False
    except KeyboardInterrupt:  # Ctrl-C in the pager ends it, like 'q'
        pass
    return True


def _paintable(kind: str, data: dict) -> dict:
    """Result data for painting: every page string cleaned to one line.

    The snapshot text keeps its own line structure (render_text escaped the
    newlines inside names and values); an eval value is painted by
    js_values.display_lines, which escapes control characters itself (the
    SafeConsole cleans whatever reaches it all the same).
    """
    out = clean_data(data)
    if kind == "snapshot" and isinstance(data.get("text"), str):
        out["text"] = clean(data["text"], one_line=False)
    if kind == "text" and isinstance(data.get("text"), str):  # `text TARGET`: every line, nothing cut
        out["text"] = clean(data["text"], one_line=False)
    if kind == "value":  # painted by js_values, which quotes and escapes strings like the console
        out["value"] = data.get("value")
    return out
