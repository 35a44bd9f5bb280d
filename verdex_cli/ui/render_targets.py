"""Painters for the results of find, text, container, siblings, anchors and export (used by render.py).

Data arrives cleaned by render._paintable (page strings on one line, `text` keeping its lines).
"""

from __future__ import annotations

import json

from rich.text import Text

from ..base.words import counted


def _what(role: str, name: str) -> str:
    return f"{role} {json.dumps(name, ensure_ascii=False)}" if name else role


def _ref(ref) -> str:
    return f" [ref={ref}]" if ref else ""


def find(r, d: dict) -> None:
    for m in d["matches"]:
        line = Text(_what(m["role"], m["name"]), style="bold")
        if m.get("text") and m["text"] != m["name"]:  # a link's text is its name: said once
            line.append(": " + m["text"][:100])
        line.append(_ref(m["ref"]), style="cyan")
        r.out.print(line)
        path = m["path"][1:] if m["path"] and m["path"][0].startswith("document") else m["path"]
        if path:  # the page's own document is where every path starts: not repeated on each
            r.plain("    in " + " > ".join(path), style="dim")


def text(r, d: dict) -> None:
    r.plain(d["text"])
    if "value" in d:
        r.plain(f"value: {d['value']}", style="dim")


def container(r, d: dict) -> None:
    for depth, c in enumerate(reversed(d["chain"])):
        tag = c["tag"] + (f"#{c['id']}" if c["id"] else "") + "".join("." + k for k in c["classes"])
        line = Text("  " * depth + tag, style="bold")
        if c["role"] not in ("generic", c["tag"]) or c["name"]:
            line.append("  " + _what(c["role"], c["name"]))
        if c["testid"]:
            line.append(f"  testid={c['testid']}", style="magenta")
        line.append(_ref(c["ref"]), style="cyan")
        r.out.print(line)


def siblings(r, d: dict) -> None:
    if not d["signature"]:
        return
    head = f"{d['count']} × {d['signature']} ({counted(d['level'], 'level')} up)"
    if d["differ"]:
        head += "; they differ in: " + ", ".join(d["differ"])
    r.plain(head, style="bold")
    for it in d["items"]:
        line = Text(("* " if it["self"] else "  ") + f"{it['index'] + 1}  " + _what(it["role"], it["name"]))
        line.append(_ref(it["ref"]), style="cyan")
        cp = it.get("counterpart")
        if cp:
            line.append("  -> " + _what(cp["role"], cp["name"]))
            line.append(_ref(cp["ref"]), style="cyan")
        r.out.print(line)
        diffs = [f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in it["differs"].items() if k != "name"]
        if diffs:
            r.plain("       " + "  ".join(diffs)[:300], style="dim")


def anchors(r, d: dict) -> None:
    w = d["within"]
    r.plain(f"Within {w['tag']}" + (f" {_what(w['role'], w['name'])}" if w["name"] else "")
             + f" ({counted(d['level'], 'level')} up){_ref(w['ref'])}:", style="bold")
    for a in d["anchors"]:
        if a["kind"] == "heading":
            body = _what("heading", a["name"]) + (f" [level={a['level']}]" if a.get("level") else "")
        elif a["kind"] == "landmark":
            body = _what(a["role"], a["name"])
        elif a["kind"] == "testid":
            body = f"testid={a['value']}  ({_what(a['role'], a['name'])})"
        else:
            body = f"text {json.dumps(a['text'], ensure_ascii=False)}  (in {a['role']})"
        line = Text(f"  {a['kind']:<8} {body}")
        line.append(_ref(a["ref"]), style="cyan")
        r.out.print(line)


def export(r, d: dict) -> None:
    kind = "Playwright test" if d["format"] == "playwright" else "verdex script"
    r.out.print(Text(f"Wrote {d['path']}: {kind}, {d['steps']} steps", style="green"))


PAINTERS = {"find": find, "text": text, "container": container, "siblings": siblings, "anchors": anchors,
            "export": export}
