"""What differs between two snapshots of a page: every node, not only the ones with refs.

Works on the snapshot text (one node per line), the refs compact mode did not print
(``Snapshot.hidden``) and each line's node identity (``Snapshot.ids``: render_text.node_key), so a
history entry costs its text and one number per line. Nodes pair up by identity only: the same ref, or
the same DOM node (a text run: the same element's run at the same place), in a frame still showing the
same document. Anything else is removed and added, never "changed": two tab panels are two nodes, and a
paragraph a modal dialog made inert is gone, not renamed to the dialog's. Lines without identity (media
controls, texts of a caller without identities) pair only with an equal line, in order."""

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
    if body.startswith(("text: ", "note: ")):
        return Node(body[:4], body[6:], (), "", None)
    end = len(body)
    for i, ch in enumerate(body):
        if ch in ' :':
            end = i
            break
    role, pos, name = body[:end], end, ""
    if body.startswith(' "', pos):
        try:
            name, pos = _DECODE(body, pos + 1)
        except ValueError:
            pass
    states, ref = [], hidden_ref
    while (m := _STATE.match(body, pos)) is not None:
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


def _key_frame(key: int) -> int:
    return (key >> 42) - 1  # render_text.node_key


def compare(old_text: str, old_hidden: dict[int, str], new_text: str, new_hidden: dict[int, str],
            navigated: frozenset[int] | set[int] = frozenset(), old_ids=None, new_ids=None,
            old_long: dict[int, str] | None = None, new_long: dict[int, str] | None = None,
            aside: tuple[set[int], set[int]] | None = None) -> dict:
    """{"added", "removed", "changed"} between two snapshot texts, each in document order. ``navigated``:
    frames whose document changed in between (a ref or identity of theirs names another node now;
    frame 0: the whole page is another document). ``old_ids``/``new_ids``: each line's node identity
    (0: none); without them, lines without refs pair only with equal lines. ``old_long``/``new_long``:
    the lines whose text the snapshot cut, whole (line index -> line): texts are compared and reported
    whole when both sides have them. ``aside``: (old lines, new lines) whose changes are reported apart,
    under "aside" (a removed node by its old line, the others by their new one)."""
    a, b = old_text.split("\n"), new_text.split("\n")
    if old_long is not None and new_long is not None:  # whole texts: a change past a cut is a change
        a, b = _whole(a, old_long), _whole(b, new_long)
    if 0 in navigated:  # another main document: nothing pairs up
        return {"added": [parse_line(line, new_hidden.get(j)).item() for j, line in enumerate(b)],
                "removed": [parse_line(line, old_hidden.get(i)).item() for i, line in enumerate(a)], "changed": []}
    lo, a_end, b_end = _common_ends(a, old_hidden, old_ids, b, new_hidden, new_ids)
    old = [(i, parse_line(a[i], old_hidden.get(i)), _key(old_ids, i)) for i in range(lo, a_end)]
    new = [(j, parse_line(b[j], new_hidden.get(j)), _key(new_ids, j)) for j in range(lo, b_end)]

    def same_doc(ref: str | None) -> bool:
        return ref is not None and _frame(ref) not in navigated

    old_refs = {n.ref: n for _, n, _ in old if same_doc(n.ref)}
    new_refs = {n.ref: n for _, n, _ in new if same_doc(n.ref)}
    old_keys, new_keys = _keyed(old), _keyed(new)
    added, removed, changed = [], [], []  # (line index, item), sorted at the end
    plain_old, plain_new = [], []
    for i, n, k in old:
        if n.ref is not None:
            if n.ref not in new_refs:
                removed.append((i, n.item()))
        elif k:
            if k not in new_keys or _key_frame(k) in navigated:
                removed.append((i, n.item()))
        else:
            plain_old.append((i, n))
    for j, n, k in new:
        if n.ref is not None:
            was = old_refs.get(n.ref) if same_doc(n.ref) else None
        elif k:
            was = old_keys.get(k) if _key_frame(k) not in navigated else None
        else:
            plain_new.append((j, n))
            continue
        if was is None:
            added.append((j, n.item()))
        elif was.content != n.content:
            changed.append((j, _changed(was, n)))
    _match_plain(plain_old, plain_new, added, removed)
    out = {"added": added, "removed": removed, "changed": changed}
    if aside is None:
        return {k: _ordered(v) for k, v in out.items()}
    apart = {k: [x for x in v if x[0] in aside[k != "removed"]] for k, v in out.items()}
    out = {k: _ordered([x for x in v if x[0] not in aside[k != "removed"]]) for k, v in out.items()}
    out["aside"] = {k: _ordered(v) for k, v in apart.items()}
    return out


def _whole(lines: list[str], long: dict[int, str]) -> list[str]:
    for i, line in long.items():
        if i < len(lines):
            lines[i] = line
    return lines


def _key(ids, i: int) -> int:
    return ids[i] if ids is not None and i < len(ids) else 0


def _keyed(nodes: list) -> dict:
    """identity -> node, for the nodes without a ref that have one (a repeated one counts once)."""
    out = {}
    for _, n, k in nodes:
        if k and n.ref is None and k not in out:
            out[k] = n
    return out


def _ordered(items: list) -> list:
    items.sort(key=lambda x: x[0])
    return [it for _, it in items]


def _common_ends(a: list[str], ha: dict, ia, b: list[str], hb: dict, ib) -> tuple[int, int, int]:
    """(first differing line, end of the differing part in a, in b): heads and tails that are the
    same lines of the same nodes skipped."""
    n = min(len(a), len(b))
    lo = 0
    while lo < n and a[lo] == b[lo] and ha.get(lo) == hb.get(lo) and _key(ia, lo) == _key(ib, lo):
        lo += 1
    i, j = len(a), len(b)
    while (i > lo and j > lo and a[i - 1] == b[j - 1] and ha.get(i - 1) == hb.get(j - 1)
           and _key(ia, i - 1) == _key(ib, j - 1)):
        i -= 1
        j -= 1
    return lo, i, j


def _match_plain(old: list[tuple[int, Node]], new: list[tuple[int, Node]], added: list, removed: list) -> None:
    """Lines with no identity at all: equal ones matched in order; the rest were added or removed."""
    if len(old) * len(new) > MATCH_LIMIT:  # a page rebuilt wholesale: no pairing, just what differs
        gone, came = Counter(n.content for _, n in old), Counter(n.content for _, n in new)
        removed.extend((i, n.item()) for i, n in _take(old, gone - came))
        added.extend((j, n.item()) for j, n in _take(new, came - gone))
        return
    keys_a, keys_b = [n.content for _, n in old], [n.content for _, n in new]
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed.extend((i, n.item()) for i, n in old[i1:i2])
        added.extend((j, n.item()) for j, n in new[j1:j2])


def _take(nodes: list[tuple[int, Node]], wanted: Counter) -> list[tuple[int, Node]]:
    out = []
    for i, n in nodes:
        if wanted[n.content] > 0:
            wanted[n.content] -= 1
            out.append((i, n))
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
