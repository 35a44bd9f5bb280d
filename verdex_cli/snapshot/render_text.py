"""The snapshot text format (a contract: the README's "Snapshot text format"):
``- role "name" [state]... [frame=fN] [ref=cXpYfZeN]: value``, children indented by two. A node's
text runs follow ``: `` when they are its only content, else they are ``- text: ...`` lines; a name that
came from content makes its plain text children redundant (dropped)."""

from __future__ import annotations

from array import array

from ..base.sanitize import clean, json_quote
from .model import RefInfo

MAX_TEXT = 100
# the keys a node without children and without anything rare may have (render inline, see _children)
LEAF_KEYS = frozenset(("r", "n", "nc", "e", "t", "s", "v", "i"))
STATE_ORDER = ("checked", "disabled", "expanded", "selected", "pressed", "level", "required", "editable")


def cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT].rstrip() + "..."


def one_line(text: str) -> str:
    """A text run or value, cut, with newlines and control characters escaped (one node, one line)."""
    return clean(cut(text))


def quote(text: str) -> str:
    """JSON-style quoting (non-ASCII kept), after cutting."""
    return json_quote(cut(text))


def _states(s: dict) -> str:
    parts = []
    for key in STATE_ORDER:
        v = s.get(key)
        if v is True:
            parts.append(f" [{key}]")
        elif v is not False and v is not None:
            parts.append(f" [{key}={v}]")
    return "".join(parts)


def node_key(frame: int, ident: int) -> int:
    """A line's node identity for comparing snapshots (delta.py): the bridge's number for the DOM node
    within its frame (an element's ``i`` times 1024, or a text run's ``ti`` entry: its element's
    number times 1024 plus its place); 0 when the line has none (a ref says it, or nothing does).
    The frame's document line is number 0 of its frame."""
    return ((frame + 1) << 42) | ident


MEMO_DEPTH = 40  # subtrees are remembered down to this many levels (bounds the memo on deep pages)


class Memo:
    """The rendered lines of a snapshot's subtrees, so that rendering a tree that shares them (a patched
    tree: untouched subtrees are the same objects) copies their lines. id(node) -> (node, indent, frame,
    lines, refs, hidden lines relative to the first, line identities); subtrees holding a frame are not
    kept. Entries of nodes gone from the tree are dropped when they outnumber the lines (prune)."""

    def __init__(self, prefix: str, compact: bool):
        self.prefix, self.compact = prefix, compact
        self.entries: dict[int, tuple] = {}

    def prune(self, root: dict, lines: int) -> None:
        if len(self.entries) <= 2 * lines + 1000:
            return
        live: dict[int, tuple] = {}
        stack = [root]
        while stack:
            n = stack.pop()
            m = self.entries.get(id(n))
            if m is not None and m[0] is n:
                live[id(n)] = m
            for k in n.get("c") or ():
                if not isinstance(k, str):
                    stack.append(k)
            if "sub" in n:
                stack.append(n["sub"])
        self.entries = live


class TextRenderer:
    def __init__(self, prefix: str, compact: bool, memo: Memo | None = None):
        self.prefix = prefix
        self.compact = compact
        self.lines: list[str] = []
        self.refs: dict[str, RefInfo] = {}
        self.hidden: dict[int, str] = {}  # line index -> ref, for refs compact mode does not show
        self.ids: list | array = []  # per line: the node's identity (node_key), 0 for none; never shown
        # (a list while rendering, an array of 8-byte numbers once done: it is kept with the history)
        usable = memo is not None and memo.prefix == prefix and memo.compact == compact
        self.memo = memo if usable else Memo(prefix, compact)
        self._ref_order: list[tuple[str, RefInfo]] = []
        self._hidden_order: list[tuple[int, str]] = []
        self._frames = 0  # frame owners rendered so far (a subtree holding one is not remembered)

    def render(self, root: dict) -> str:
        head = "- document"
        if root.get("n"):
            head += " " + quote(root["n"])
        kids = root.get("c") or []
        self.lines.append(head + (":" if kids else ""))
        self.ids.append(node_key(root.get("fi", 0), 0))
        self._children(kids, "  ", root.get("fi", 0), named_from_content=False, ti=root.get("ti"))
        self.memo.prune(root, len(self.lines))
        self.ids = array("q", self.ids)
        return "\n".join(self.lines)

    def _children(self, kids: list, indent: str, frame: int, named_from_content: bool,
                  ti: list | None = None) -> None:
        # an explicit stack, not recursion: a page can nest thousands of levels deep
        lines, memo, ids = self.lines, self.memo.entries, self.ids
        reuse = bool(memo)  # a first render has nothing to reuse: no lookups
        # (children, indent, frame, named from content, node, its first line, ref/hidden/frame marks,
        # the node's text run identities, how many text runs so far)
        stack = [(iter(kids), indent, frame, named_from_content, None, 0, 0, 0, 0, ti or None, [0])]
        while stack:
            top = stack[-1]
            it, indent, frame, named_from_content = top[:4]
            ti, runs = top[9], top[10]
            for ch in it:
                if isinstance(ch, str):
                    j = -1
                    if ti is not None:
                        j = runs[0]
                        runs[0] = j + 1
                    if not named_from_content:
                        text = ch.strip()
                        if text:
                            lines.append(f"{indent}- text: {one_line(text)}")
                            ids.append(((frame + 1) << 42 | ti[j]) if 0 <= j < len(ti) and ti[j] else 0)  # node_key
                    continue
                if reuse:
                    m = memo.get(id(ch))
                    if m is not None and m[0] is ch and m[1] == indent and m[2] == frame:
                        self._replay(m)
                        continue
                ident = ch.get("i")  # the node's identity (node_key): its line is the next one
                ids.append(((frame + 1) << 42 | ident << 10) if ident else 0)
                if ch.keys() <= LEAF_KEYS:  # the common leaf (no children, nothing rare): _node's line, inline
                    get = ch.get
                    role, name = ch["r"], get("n")
                    if name:
                        line = f"{indent}- {role} {json_quote(name) if len(name) <= MAX_TEXT else quote(name)}"
                    else:
                        line = f"{indent}- {role}"
                    states = get("s")
                    if states is not None:
                        line += _states(states)
                    ref_no = get("e")
                    if ref_no:
                        line = self._mark(line, role, name or "", frame, ref_no, get("t", 1))
                    value = get("v")
                    lines.append(line + ": " + one_line(value) if value else line)
                    continue
                start = len(lines)
                nested = self._node(ch, indent, frame)
                if nested is not None:
                    stack.append(self._level(ch, nested, start))
                    break
            else:
                self._remember(stack.pop(), stack[-1] if stack else None)

    def _level(self, node: dict, nested: tuple, start: int) -> tuple:
        """The stack entry of ``node``'s children (see _children), ``nested`` as _node returned it and
        ``start`` its first line: where its subtree's refs, hidden lines and frames start (the node's
        own are in already)."""
        rs, hs, fs = len(self._ref_order), len(self._hidden_order), self._frames
        if node.get("e"):
            rs -= 1
            if self.compact and node.get("t", 1) == 2:
                hs -= 1
        if "fo" in node:
            fs -= 1
        ti = nested[4] or None
        return (iter(nested[0]), *nested[1:4], node, start, rs, hs, fs, ti, [0] if ti else None)

    def _remember(self, top: tuple, parent: tuple | None) -> None:
        """A subtree rendered (``top``, its stack entry): its lines, refs and hidden lines kept for the
        next render to replay, when it holds no frame and is not nested too deep."""
        node, start, rs, hs, fs = top[4:9]
        if node is None or parent is None or fs != self._frames or len(top[1]) > 2 * MEMO_DEPTH + 2:
            return
        hidden_order = self._hidden_order
        hidden = [(line - start, ref) for line, ref in hidden_order[hs:]] if len(hidden_order) > hs else ()
        self.memo.entries[id(node)] = (node, parent[1], parent[2], self.lines[start:], self._ref_order[rs:], hidden,
                                       self.ids[start:])

    def _mark(self, line: str, role: str, name: str, frame: int, ref_no: int, tier: int) -> str:
        """Ref ``ref_no`` of the node whose line is the next one, recorded: its line with the ref, or
        without it when compact mode hides it."""
        ref = f"{self.prefix}f{frame}e{ref_no}"
        shown = not (self.compact and tier == 2)
        info = self.refs[ref] = RefInfo(ref, role, name, frame, tier, shown)
        self._ref_order.append((ref, info))
        if shown:
            return line + " [ref=" + ref + "]"
        self.hidden[len(self.lines)] = ref
        self._hidden_order.append((len(self.lines), ref))
        return line

    def _replay(self, m: tuple) -> None:
        base = len(self.lines)
        self.lines.extend(m[3])
        refs = self.refs
        for ref, info in m[4]:
            refs[ref] = info
        self._ref_order.extend(m[4])
        self.ids.extend(m[6])
        for rel, ref in m[5]:
            self.hidden[base + rel] = ref
            self._hidden_order.append((base + rel, ref))

    def _node(self, node: dict, indent: str, frame: int) -> tuple | None:
        """Add the node's line; return (children, indent, frame, named_from_content) to list under it."""
        get = node.get
        role = node["r"]
        kids = get("c")
        sub = get("sub")
        if sub is not None:
            kids = sub.get("c") or []
        has_elements = bool(kids) and any(k.__class__ is not str for k in kids)
        name = get("n", "")
        ref_no = get("e")
        from_content = get("nc") == 1
        show_name = bool(name) and not (from_content and has_elements and not ref_no and role != "heading")
        if show_name:
            line = f"{indent}- {role} {json_quote(name) if len(name) <= MAX_TEXT else quote(name)}"
        else:
            line = indent + "- " + role
        states = get("s")
        if states is not None:
            line += _states(states)
        if get("x"):
            line += " [native]"  # drawn by the browser (media controls): no element, no ref
        child_frame = frame
        if "fo" in node:
            self._frames += 1
            child_frame = get("fi", frame)
            if "fi" in node:
                line += f" [frame=f{child_frame}]"
        lines = self.lines
        if ref_no:
            line = self._mark(line, role, name, frame, ref_no, get("t", 1))
        if "err" in node:
            lines.append(line + ":")
            lines.append(f"{indent}  - note: {node['err']}")
            self.ids.append(0)
            return None
        if kids and not has_elements:  # text only
            if show_name and from_content:
                kids = None
            else:
                text = " ".join([t for t in [k.strip() for k in kids] if t])
                lines.append(line + ": " + one_line(text) if text else line)
                return None
        if not kids:
            value = get("v")
            if value:
                lines.append(line + ": " + one_line(value))
                return None
        more = get("more")
        if kids or more:
            line += ":"
        lines.append(line)
        if more:  # snapshot --depth cut this subtree
            lines.append(f"{indent}  - ... ({more} more nodes)")
            self.ids.append(0)
        if kids:
            ti = (sub if sub is not None else node).get("ti")  # its text runs' identities
            return kids, indent + "  ", child_frame, show_name and from_content, ti
        return None

