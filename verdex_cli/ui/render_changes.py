"""Painters for what changed: the `changes` under an action and the `diff` command (used by render.py).

    + button "Remove" [ref=c0p0f0e9]
    - text "Your cart is empty"
    ~ button "Add to cart" -> "Added" [ref=c0p0f0e3]
    ~ 3 re-rendered (old refs gone): button "Apple" c0p0f0e10, "Banana" c0p0f0e11, link "More" c0p0f0e12

Data arrives cleaned by render._paintable (page strings on one line).
"""

from __future__ import annotations

import os
from collections import Counter

from rich.text import Text

from ..base.sanitize import json_quote
from ..base.words import counted
from ..snapshot.delta import count

ACTION_LINES = 12  # change lines shown under an action; `diff` lists them all
REDRAWN_SHOWN = 20  # re-rendered elements named on their one line under an action


def _desc(it: dict, role: bool = True) -> str:
    """A node as its snapshot line says it: role "name" [state]: value (text nodes: text: ...)."""
    if it.get("role") == "text":
        return ("text: " if role else "") + str(it.get("name", ""))[:100]
    parts = [it.get("role", "")] if role else []
    if it.get("name"):
        parts.append(json_quote(str(it["name"])[:100]))
    parts.extend(f"[{s}]" for s in it.get("states") or ())
    text = " ".join(p for p in parts if p)
    if it.get("value"):
        text += (": " if text else "") + str(it["value"])[:100]
    return text


def _pair(old: str, new: str, room: int = 100) -> tuple[str, str]:
    """Two texts as a change shows them, at most ``room`` characters each: from their start, or, when
    they first differ past that, from a little before the difference (with a leading ...)."""
    same = len(os.path.commonprefix([old, new]))
    start = same - 40 if same > room - 20 else 0
    return ("..." if start else "") + old[start:start + room], ("..." if start else "") + new[start:start + room]


def _ref(it: dict) -> str:
    return f" [ref={it['ref']}]" if it.get("ref") else ""


def _bare(it: dict) -> bool:
    """A container that says nothing by itself (no ref, name, states or value): a list, a group..."""
    return (it.get("role") != "text" and not it.get("ref") and not it.get("name")
            and not it.get("states") and not it.get("value"))


def lines(d: dict, fold: bool = False) -> list[tuple[str, str]]:
    """(line, style) for every added, removed and changed node. With `fold` (under an action): a node
    removed and one added that look the same (role, name, states, value) were re-rendered, and share
    one line that names the new refs; the added or removed containers that say nothing by themselves
    share one line each (`+ list, listitem (no name)`), after the lines that carry names, text and refs."""
    added, removed = d.get("added") or [], d.get("removed") or []
    if fold:
        added, removed, redrawn = _redrawn(added, removed)
    out, tail = [], []
    for sign, items, style in (("+", added, "green"), ("-", removed, "red")):
        bare = []
        for it in items:
            if fold and _bare(it):
                bare.append(it.get("role") or "?")
            else:
                out.append((f"{sign} {_desc(it)}{_ref(it)}", style))
        if bare:
            tail.append((f"{sign} {', '.join(bare[:8])}{', ...' if len(bare) > 8 else ''} (no name)", style))
    for it in d.get("changed") or ():
        out.append((f"~ {_changed(it)}{_ref(it)}", "yellow"))
    if fold and redrawn:
        out.append((_redrawn_line(redrawn), "yellow"))
    return out + tail


def _look(it: dict) -> tuple:
    return (it.get("role"), it.get("name"), tuple(it.get("states") or ()), it.get("value") or "", bool(it.get("ref")))


def _redrawn(added: list, removed: list) -> tuple[list, list, list]:
    """(added, removed, re-rendered): each added node that looks like a removed one (the page drew it
    anew, e.g. a list rebuilt with innerHTML) is taken out of both, paired in document order; the
    re-rendered ones that carry a ref are returned (the others say nothing new)."""
    gone = Counter(map(_look, removed))
    kept_added, redrawn, paired = [], [], Counter()
    for it in added:
        look = _look(it)
        if paired[look] < gone[look]:
            paired[look] += 1
            if it.get("ref"):
                redrawn.append(it)
        else:
            kept_added.append(it)
    kept_removed = []
    for it in removed:
        look = _look(it)
        if paired[look] > 0:
            paired[look] -= 1
        else:
            kept_removed.append(it)
    return kept_added, kept_removed, redrawn


def _redrawn_line(items: list) -> str:
    """`~ 3 re-rendered (old refs gone): button "Apple" c0p0f0e10, "Banana" c0p0f0e11, link ...`: the
    role said once for a run of the same role."""
    parts, role = [], None
    for it in items[:REDRAWN_SHOWN]:
        desc = _desc(it, role=it.get("role") != role)
        role = it.get("role")
        parts.append(f"{desc} {it['ref']}" if desc else it["ref"])
    more = f", ... and {len(items) - REDRAWN_SHOWN} more ('diff' lists them)" if len(items) > REDRAWN_SHOWN else ""
    return f"~ {len(items)} re-rendered (old refs gone): {', '.join(parts)}{more}"


def _changed(it: dict) -> str:
    """`button "Add to cart" -> "Added"`, `textbox "Email": "" -> "ada@example.com"`,
    `checkbox "Gift" -> [checked]`: the node as it was, then only what differs now."""
    was = it.get("was") or {}
    if was.get("role") != it.get("role"):
        return f"{_desc(was)} -> {_desc(it)}"
    if it.get("role") == "text":
        old_text, new_text = _pair(str(was.get("name", "")), str(it.get("name", "")))
        return f"text: {old_text} -> {new_text}"
    name_moved = was.get("name", "") != it.get("name", "")
    states_moved = list(was.get("states") or ()) != list(it.get("states") or ())
    old_value, new_value = _pair(str(was.get("value") or ""), str(it.get("value") or ""))
    if not name_moved and not states_moved:  # only the value (or text) changed
        head = _desc({**it, "value": ""})
        return f"{head}: {json_quote(old_value)} -> {json_quote(new_value)}"
    now = []
    if name_moved:
        now.append(json_quote(str(it.get("name", ""))[:100]))
    if states_moved:
        now.append(" ".join(f"[{s}]" for s in it.get("states") or ()) or "[no states]")
    if old_value != new_value:
        now.append(": " + json_quote(new_value))
    return f"{_desc(was)} -> {' '.join(now)}"


def paint_changes(r, changes: dict | None) -> None:
    """Under an action: at most ACTION_LINES lines, then how many more."""
    if not changes:
        return
    if changes.get("navigated"):
        r.plain("~ the page navigated: 'snapshot' shows the new page", style="yellow")
        return
    shown = lines(changes, fold=True)
    if not shown:
        r.plain("  (no change on the page)", style="dim")
        return
    for text, style in shown[:ACTION_LINES]:
        r.out.print(Text("  " + text, style=style))
    rest = len(shown) - ACTION_LINES
    if rest > 0:
        r.plain(f"  ... and {rest} more ('diff' lists every change)", style="dim")


def paint_before(r, before: dict | None) -> None:
    """Under an action's own changes, one line: what the page changed before it (since the user last
    saw it) and what its own timers changed meanwhile; `diff` lists them."""
    if not before:
        return
    ahead, meanwhile = count(before), count(before.get("meanwhile") or {})
    parts = [f"{counted(ahead, 'change')} before it (since snapshot #{before['since']})"] if ahead else []
    if meanwhile:
        parts.append(f"{counted(meanwhile, 'change')} by the page's own timers meanwhile")
    if parts:
        r.plain(f"  Not caused by it: {' and '.join(parts)} ('diff {before['since']}' lists every change)",
                style="dim")


def paint_diff(r, d: dict) -> None:
    if d.get("from") is None:
        return
    shown = lines(d)
    if not shown:
        r.plain(f"No change between snapshot #{d['from']} and #{d['to']}.")
        return
    r.plain(f"Snapshot #{d['from']} -> #{d['to']}: {counted(len(shown), 'change')}", style="bold")
    for text, style in shown:
        r.out.print(Text(text, style=style))
