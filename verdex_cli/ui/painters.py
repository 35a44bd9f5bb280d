"""What each kind of result looks like in text mode: one painter per result kind, in one table
(the renderer, render.py, looks a result's kind up in ``PAINTERS``; a kind without one prints as JSON).
Painters receive data already cleaned to one line per item (render._paintable)."""

from __future__ import annotations

import json

from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from . import render_network, render_targets, tree_lines
from ..base.words import counted
from ..browser.js_values import display_lines
from ..refs.store import describe
from .render_changes import paint_before, paint_changes, paint_diff


def navigation(r, d: dict) -> None:
    title = d.get("title") or "(no title)"
    verb = "Stayed on " if d.get("stayed") else "Opened "  # 'open' of a file to save (a download)
    if d.get("url") == d.get("asked") and d.get("title") and not d.get("stayed"):  # the URL as given: not echoed
        return r.out.print(Text.assemble((verb, "green"), (json.dumps(title, ensure_ascii=False), "dim")))
    r.out.print(Text.assemble((verb, "green"), (d.get("url", ""), "bold"), ("  " + title, "dim")))


def value(r, d: dict) -> None:
    for text, style in display_lines(d):
        r.plain(text, style=style)


def wait(r, d: dict) -> None:
    what = {"text": f"text {d.get('text')!r}", "url": f"a URL with {d.get('text')!r}",
            "visible": f"{d.get('ref')} to be visible", "gone": f"{d.get('ref')} to go"}.get(d.get("for"))
    r.plain(f"Waited {d.get('waited_ms', 0)} ms" + (f" for {what}" if what else ""), style="green")


def dialog(r, d: dict) -> None:
    text = f" with {d['text']!r}" if d.get("text") is not None else ""
    r.plain(f"The next dialog will be {'accepted' if d['next'] == 'accept' else 'dismissed'}{text}.",
                style="green")


def screenshot(r, d: dict) -> None:
    marked = f", {counted(len(d['refs']), 'ref')} marked" if "refs" in d else ""
    r.out.print(Text(f"Saved {d['path']} ({d['width']}x{d['height']}, {d['bytes']:,} bytes{marked})", style="green"))


def help_all(r, d: dict) -> None:
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
    r.out.print(table)
    r.out.print(Text("Type 'help COMMAND' for one command.", style="dim"))


def help_one(r, d: dict) -> None:
    r.out.print(Text(d["usage"], style="bold cyan"))
    r.plain("  " + d["help"])
    if d["aliases"]:
        r.plain("  Aliases: " + ", ".join(d["aliases"]), style="dim")


def snapshot(r, d: dict) -> None:
    if r.out.is_terminal:  # coloured, wrapped to the width with a hanging indent (a pipe gets the text as is)
        r.out.print(tree_lines.wrapped(d["text"], r.out.width), markup=False, highlight=False, crop=False)
    else:
        r.plain(d["text"])  # already cleaned by _paintable, one node per line
    for note in d.get("notes", []):
        r.out.print(Text("# " + note, style="yellow"))


def action(r, d: dict) -> None:
    verb = {"click": "Clicked", "dblclick": "Double-clicked", "hover": "Hovered", "type": "Typed into",
            "fill": "Filled", "check": "Checked", "uncheck": "Unchecked", "select": "Selected in",
            "focus": "Focused", "scroll": "Scrolled to", "press": "Pressed"}.get(d.get("action"), d.get("action"))
    if d.get("action") == "press":
        r.out.print(Text.assemble((verb + " ", "green"), (d["key"], "bold")))
    elif d.get("action") == "scroll" and "ref" not in d:
        r.out.print(Text(f"Scrolled {d['direction']}{_moved(d.get('moved') or {}, d.get('scroll_y'))}", style="green"))
    else:
        line = Text.assemble((verb + " ", "green"), (describe(d.get("role", ""), d.get("name")), "bold"),
                             (f" ({d.get('ref')})", "cyan"))
        if "value" in d and d["value"] is not None:
            line.append(f'  value: "{d["value"]}"', style="dim")  # cleaned to one line by _paintable
        if d.get("selected"):
            line.append("  now: " + ", ".join(d["selected"]), style="dim")
        r.out.print(line)
    paint_changes(r, d.get("changes"))
    paint_before(r, d.get("changes_before"))
    render_network.paint_action(r, d)


def _moved(m: dict, y) -> str:
    """What a wheel moved: the window, a pane (by the container it is or is in) or the page's own content."""
    where = describe(m["role"], m.get("name")) if m.get("role") else ""
    if m.get("what") == "pane":
        return f": {'pane ' + where if where else 'a pane'} (scrollTop={m.get('scroll_top')})"
    if m.get("what") == "content":
        return f": {where or 'the content at the middle'} moved (the page's own scrolling)"
    return f" (scrollY={y})"


STATUS = {"live": "green", "changed": "yellow", "hidden": "dim", "removed": "red", "navigated": "magenta"}


def refs(r, d: dict) -> None:
    if not d["refs"]:
        return
    table = Table(box=None, header_style="bold", pad_edge=False)
    why = any("made_stale_by" in row for row in d["refs"])
    for col in ("ref", "role", "name", "status", "first #", "last #") + (("by command",) if why else ()):
        table.add_column(col, no_wrap=col != "name", overflow="fold")
    for row in d["refs"]:
        table.add_row(Text(row["ref"], style="cyan"), Text(row["role"]), Text(row["name"][:60]),
                      Text(row["status"], style=STATUS.get(row["status"], "")), str(row["first_seen"]),
                      str(row["last_seen"]), *((str((row.get("made_stale_by") or {}).get("n", "")),) if why else ()))
    r.out.print(table)


def inspect(r, d: dict) -> None:
    head = Text.assemble((d["ref"], "bold cyan"), "  ", (d["role"], "bold"), " ",
                         (f'"{d["name"]}"' if d["name"] else ""))
    r.out.print(head)
    r.out.print(Text.assemble("  status: ", (d["status"], STATUS.get(d["status"], ""))))
    if d.get("reason"):
        r.plain("  " + d["reason"], style="dim")
    if d.get("tag"):
        attrs = " ".join(f'{k}="{v}"' for k, v in d.get("attributes", {}).items())
        r.plain(f"  element: <{d['tag']}{' ' + attrs if attrs else ''}>")
    if d.get("box"):
        r.plain(_box(d["box"]))
    if d.get("states"):  # as a snapshot line shows them: [selected], [level=2], [checked=mixed]
        r.plain("  states: " + " ".join(f"[{k}]" if v is True else f"[{k}={v}]" for k, v in d["states"].items()
                                        if v not in (False, None)))
    by = _by(((d.get("story") or {}).get("shown") or {}).get("by"))
    seen = f"seen in snapshots #{d['first_seen']}..#{d['last_seen']}" if d["last_seen"] else (
        f"in no snapshot; shown by {by}" if by else "in no snapshot")
    r.plain(f"  frame: f{d['frame']}   {seen}")
    if "locator" in d:
        r.plain("  locator: " + (d["locator"] or "(none unique: use the ref)"))
        if d.get("playwright"):
            r.plain("  playwright: " + d["playwright"])
    _story(r, d.get("story") or {}, live="locator" in d)
    for h in d.get("history", []):
        r.plain("  - " + h, style="dim")


def _story(r, s: dict, live: bool) -> None:
    """A ref's story (inspect): issued, last shown, last known live, what made it stale, successor."""
    issued = s.get("issued") or {}
    if issued.get("snapshot") or issued.get("command"):
        by = f" by '{issued['command']}' (command {issued['command_n']})" if issued.get("command") else ""
        at = f" at {issued['url']}" if issued.get("url") else ""
        r.plain(f"  issued:{' snapshot #' + str(issued['snapshot']) if issued.get('snapshot') else ''}{by}{at}")
    shown = s.get("shown") or {}
    if shown.get("snapshot"):
        r.plain(f"  last shown: snapshot #{shown['snapshot']} as {describe(shown['role'], shown['name'])}")
    known = s.get("known")
    if known and not live:
        attrs = " ".join(f'{k}="{v}"' for k, v in known.get("attributes", {}).items())
        where = _box(known["box"]) if known.get("box") else ""
        r.plain(f"  last known (after snapshot #{known['snapshot']}): <{known.get('tag', '?')}"
                f"{' ' + attrs if attrs else ''}>{where}")
        where = ([f"in its {known['record']}"] if known.get("record") else []) + (
            [f'under heading "{known["heading"]}"'] if known.get("heading") else [])
        if where:
            r.plain("  " + ", ".join(where))
        if known.get("locator"):
            r.plain("  last locator: " + known["locator"] + (" (from its attributes; not checked)"
                                                            if known.get("checked") is False else ""))
    stale = s.get("stale")
    if stale:
        since = stale.get("since_seen")
        r.plain(f"  stale: {stale['status']} {'found ' if since else ''}during {_by(stale['by']) or 'no command'} "
                f"(after snapshot #{stale['after_snapshot']})", style="yellow")
        if since:
            r.plain("  ran since it was last seen: " + ", ".join(_by(s) for s in since), style="yellow")
    if s.get("cause"):
        r.plain("  cause: " + s["cause"], style="yellow")
    if s.get("successor"):
        r.plain("  successor: " + s["successor"])


def _by(step: dict | None) -> str:
    return f"{step['n']} '{step['command'][:40]}'" if step else ""


def _box(b: dict) -> str:
    return f"  box: x={b['x']:.0f} y={b['y']:.0f} {b['width']:.0f}x{b['height']:.0f}"


def log(r, d: dict) -> None:
    """The tab's commands: number, snapshots before/after, outcome, the refs each made stale."""
    if d["total"] > d["kept"]:
        r.plain(f"(the first {d['total'] - d['kept']} commands are no longer kept)", style="dim")
    for c in d["commands"]:
        snaps = f"#{c['snapshot_before']}" + (f"->#{c['snapshot_after']}" if c["snapshot_after"] != c["snapshot_before"] else "")
        line = Text(f"{c['n']:>4}  {snaps:<9} ")
        line.append(c["outcome"], style="green" if c["outcome"] == "ok" else "red")
        line.append("  " + c["command"], style="bold")
        r.out.print(line)
        if c["message"]:
            r.plain("        " + c["message"], style="dim")
        if c["stale_count"]:
            more = c["stale_count"] - len(c["stale"])
            r.plain(f"        made stale: {' '.join(c['stale'])}" + (f" and {more} more" if more else ""),
                    style="yellow")


def reset(r, d: dict) -> None:
    how = ("numbering restarts at 1: old ref strings will name new elements" if d["restart"] else
           "numbering goes on: no ref string will name another element")
    r.plain(f"Dropped {counted(d['dropped'], 'ref')}; {how}. Take a new snapshot.", style="green")


def frames(r, d: dict) -> None:
    for f in d["frames"]:
        where = "cross-origin" if f["cross_origin"] else "same-origin"
        parent = "" if f["parent"] is None else f"  in f{f['parent']}"
        name = f"  name={f['name']!r}" if f["name"] else ""
        r.plain(f"f{f['index']}  {f['url'] or '(no url)'}  [{where}]{parent}{name}")


def tabs(r, d: dict) -> None:
    several = len({t.get("context", 0) for t in d["tabs"]}) > 1  # tab 0 of context 0 and of context 1
    rows = []
    for t in d["tabs"]:
        where = f"context {t.get('context', 0)}  " if several else ""
        rows.append((Text(f"{'*' if t['current'] else ' '} {where}tab {t['index']}  ",
                          style="bold" if t["current"] else ""), t))
    rows += [(Text(f"  tab {t['index']}  (not adopted; 'tab {t['index']}' adopts it)  ", style="dim"), t)
             for t in d.get("browser_tabs", ())]
    for line, t in rows:
        line.append(t["title"] or "(no title)")
        line.append(f"  {t['url']}", style="dim")
        r.out.print(line)


def timings(r, d: dict) -> None:
    if d.get("command"):
        r.plain(d["command"], style="bold")
    for p in d["phases"]:
        r.plain(f"  {p['ms']:10.2f} ms  {p['phase']}")


def highlight(r, d: dict) -> None:
    r.plain(f"Highlighted {d['element']} for {d['seconds']:g} s.", style="green")


def contexts(r, d: dict) -> None:
    for c in d["contexts"]:
        mark = "*" if c["current"] else " "
        pages = c["pages"]
        tabs = ("tab " if len(pages) == 1 else "tabs ") + ", ".join(str(i) for i in pages) if pages else "no tabs"
        default = "  (default)" if c["index"] == 0 else ""
        r.plain(f"{mark} context {c['index']}  {tabs}{default}")


PAINTERS = {"navigation": navigation, "value": value, "wait": wait, "dialog": dialog, "screenshot": screenshot,
            "quit": lambda r, d: None, "help_all": help_all, "help_one": help_one, "snapshot": snapshot, "action": action,
            "refs": refs, "inspect": inspect, "log": log, "reset": reset, "frames": frames, "tabs": tabs, "timings": timings,
            "highlight": highlight, "contexts": contexts, "diff": paint_diff, **render_targets.PAINTERS,
            "requests": render_network.requests, "request": render_network.request, "console": render_network.console}
