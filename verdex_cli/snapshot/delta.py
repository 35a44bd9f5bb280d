"""What differs between two snapshots of a page: every node, not only the ones with refs.

Works on the snapshot text (the format in render_text.py), one node per line, plus the refs that
compact mode did not print (``Snapshot.hidden``: line index -> ref), so a history entry costs its
text and nothing else. Nodes with a ref are the same node exactly when their ref is the same (and
their frame still shows the same document); nodes without one (text, headings, cells) are matched in
order, and a node replaced by another of the same role counts as changed ("Total: $5" -> "$10").
"""

from __future__ import annotations

import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass

_STATE = re.compile(r" \[([^\]\[]*)\]")
_DECODE = json.JSONDecoder().raw_decode
MATCH_LIMIT = 4_000_000  # line pairs beyond which unmatched lines are compared as multisets


@dataclass(frozen=True)
class Node:
    role: str
    name: str
    states: tuple[str, ...]
    value: str
    ref: str | None

    def item(self) -> dict:
        out = {"ref": self.ref, "role": self.role, "name": self.name}
        if self.states:
            out["states"] = list(self.states)
        if self.value:
            out["value"] = self.value
        return out

    @property
    def content(self) -> tuple:
        return self.role, self.name, self.states, self.value


def parse_line(line: str, hidden_ref: str | None = None) -> Node:
    """One line of snapshot text as a Node (``hidden_ref``: the ref compact mode left out)."""
    body = line.lstrip(" ")[2:]  # after "- "
    if body.startswith("text: "):
        return Node("text", body[6:], (), "", None)
    if body.startswith("note: "):
        return Node("note", body[6:], (), "", None)
    end = len(body)
    for i, ch in enumerate(body):
        if ch in ' :':
            end = i
            break
    role, pos, name = body[:end], end, ""
    if body.startswith(' "', pos):
        try:
            name, stop = _DECODE(body, pos + 1)
            pos = stop
        except ValueError:
            pass
    states, ref = [], hidden_ref
    while True:
        m = _STATE.match(body, pos)
        if m is None:
            break
        token = m.group(1)
        if token.startswith("ref="):
            ref = token[4:]
        else:
            states.append(token)
        pos = m.end()
    value = body[pos + 2:] if body.startswith(": ", pos) else ""
    return Node(role, name, tuple(states), value, ref)


def _frame(ref: str) -> int:
    return int(ref.split("f", 1)[1].split("e", 1)[0])


def compare(old_text: str, old_hidden: dict[int, str], new_text: str, new_hidden: dict[int, str],
            navigated: frozenset[int] | set[int] = frozenset()) -> dict:
    """{"added", "removed", "changed"} between two snapshot texts, each in document order. ``navigated``:
    frames whose document changed in between (a ref of theirs names another element now; frame 0:
    the whole page is another document)."""
    a, b = old_text.split("\n"), new_text.split("\n")
    if 0 in navigated:  # another main document: nothing pairs up
        return {"added": [parse_line(line, new_hidden.get(j)).item() for j, line in enumerate(b)],
                "removed": [parse_line(line, old_hidden.get(i)).item() for i, line in enumerate(a)], "changed": []}
    lo, a_end, b_end = _common_ends(a, old_hidden, b, new_hidden)
    old = [parse_line(a[i], old_hidden.get(i)) for i in range(lo, a_end)]
    new = [parse_line(b[j], new_hidden.get(j)) for j in range(lo, b_end)]

    def same_doc(ref: str | None) -> bool:
        return ref is not None and _frame(ref) not in navigated

    old_refs = {n.ref: n for n in old if same_doc(n.ref)}
    new_refs = {n.ref: n for n in new if same_doc(n.ref)}
    added, removed, changed = [], [], []
    for n in old:
        if n.ref is not None and n.ref not in new_refs:
            removed.append(n.item())
    for n in new:
        if n.ref is None:
            continue
        was = old_refs.get(n.ref) if same_doc(n.ref) else None
        if was is None:
            added.append(n.item())
        elif was.content != n.content:
            changed.append(_changed(was, n))
    _match_plain([n for n in old if n.ref is None], [n for n in new if n.ref is None], added, removed, changed)
    return {"added": added, "removed": removed, "changed": changed}


def _common_ends(a: list[str], ha: dict, b: list[str], hb: dict) -> tuple[int, int, int]:
    """(first differing line, end of the differing part in a, in b): identical heads and tails skipped."""
    n = min(len(a), len(b))
    lo = 0
    while lo < n and a[lo] == b[lo] and ha.get(lo) == hb.get(lo):
        lo += 1
    i, j = len(a), len(b)
    while i > lo and j > lo and a[i - 1] == b[j - 1] and ha.get(i - 1) == hb.get(j - 1):
        i -= 1
        j -= 1
    return lo, i, j


def _match_plain(old: list[Node], new: list[Node], added: list, removed: list, changed: list) -> None:
    """Nodes without refs: unchanged runs matched in order; within a replaced run, a node and one of
    the same role pair up as changed; the rest were added or removed."""
    if not old and not new:
        return
    if len(old) * len(new) > MATCH_LIMIT:  # a page rebuilt wholesale: no pairing, just what differs
        gone, came = Counter(n.content for n in old), Counter(n.content for n in new)
        removed.extend(n.item() for n in _take(old, gone - came))
        added.extend(n.item() for n in _take(new, came - gone))
        return
    keys_a, keys_b = [n.content for n in old], [n.content for n in new]
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        olds, news = old[i1:i2], new[j1:j2]
        used = [False] * len(news)
        for o in olds:
            k = next((k for k, n in enumerate(news) if not used[k] and n.role == o.role), None)
            if k is None:
                removed.append(o.item())
            else:
                used[k] = True
                changed.append(_changed(o, news[k]))
        added.extend(n.item() for k, n in enumerate(news) if not used[k])


def _take(nodes: list[Node], wanted: Counter) -> list[Node]:
    out = []
    for n in nodes:
        if wanted[n.content] > 0:
            wanted[n.content] -= 1
            out.append(n)
    return out


def _changed(was: Node, now: Node) -> dict:
    out = now.item()
    prev = {"role": was.role, "name": was.name}
    if was.states or now.states:
        prev["states"] = list(was.states)
    if was.value or now.value:
        prev["value"] = was.value
    out["was"] = prev
    return out


def count(changes: dict) -> int:
    return sum(len(changes.get(k) or ()) for k in ("added", "removed", "changed"))
