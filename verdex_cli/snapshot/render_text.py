"""The snapshot text format (a contract: see DESIGN.md, "Snapshot text format").

    - role "name" [state]... [frame=fN] [ref=cXpYfZeN]: value
      - child ...

Text runs of a node are shown after ``: `` when they are its only content, as
``- text: ...`` lines otherwise; a name that came from content makes its
plain text children redundant, so they are dropped.
"""

from __future__ import annotations

from ..sanitize import clean, json_quote
from .model import RefInfo

MAX_TEXT = 100
STATE_ORDER = ("checked", "disabled", "expanded", "selected", "pressed", "level", "required")


def cut(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + "..."


def one_line(text: str) -> str:
    """A text run or value, cut, with newlines and control characters escaped (one node, one line)."""
    return clean(cut(text))


def quote(text: str) -> str:
    """JSON-style quoting (non-ASCII kept), after cutting."""
    return json_quote(text if len(text) <= MAX_TEXT else cut(text))


def _states(s: dict) -> str:
    parts = []
    for key in STATE_ORDER:
        if key not in s:
            continue
        v = s[key]
        if v is True:
            parts.append(f" [{key}]")
        elif v is False or v is None:
            continue
        else:
            parts.append(f" [{key}={v}]")
    return "".join(parts)


class TextRenderer:
    def __init__(self, prefix: str, compact: bool):
        self.prefix = prefix
        self.compact = compact
        self.lines: list[str] = []
        self.refs: dict[str, RefInfo] = {}
        self.hidden: dict[int, str] = {}  # line index -> ref, for refs compact mode does not show

    def render(self, root: dict) -> str:
        head = "- document"
        if root.get("n"):
            head += " " + quote(root["n"])
        kids = root.get("c") or []
        self.lines.append(head + (":" if kids else ""))
        self._children(kids, "  ", root.get("fi", 0), named_from_content=False)
        return "\n".join(self.lines)

    def _children(self, kids: list, indent: str, frame: int, named_from_content: bool) -> None:
        # an explicit stack, not recursion: a page can nest thousands of levels deep
        stack = [(iter(kids), indent, frame, named_from_content)]
        while stack:
            it, indent, frame, named_from_content = stack[-1]
            for ch in it:
                if isinstance(ch, str):
                    if not named_from_content:
                        text = ch.strip()
                        if text:
                            self.lines.append(f"{indent}- text: {one_line(text)}")
                else:
                    nested = self._node(ch, indent, frame)
                    if nested is not None:
                        stack.append((iter(nested[0]), *nested[1:]))
                        break
            else:
                stack.pop()

    def _node(self, node: dict, indent: str, frame: int) -> tuple | None:
        """Add the node's line; return (children, indent, frame, named_from_content) to list under it."""
        role = node["r"]
        kids = node.get("c")
        if "sub" in node:
            kids = node["sub"].get("c") or []
        has_elements = bool(kids) and any(not isinstance(k, str) for k in kids)
        name = node.get("n", "")
        ref_no = node.get("e")
        from_content = bool(node.get("nc"))
        show_name = bool(name) and not (from_content and has_elements and not ref_no and role != "heading")
        line = [indent, "- ", role]
        if show_name:
            line.append(" " + quote(name))
        if "s" in node:
            line.append(_states(node["s"]))
        if node.get("x"):
            line.append(" [native]")  # drawn by the browser (media controls): no element, no ref
        child_frame = frame
        if "fo" in node:
            child_frame = node.get("fi", frame)
            if "fi" in node:
                line.append(f" [frame=f{child_frame}]")
        if ref_no:
            ref = f"{self.prefix}f{frame}e{ref_no}"
            tier = node.get("t", 1)
            shown = not (self.compact and tier == 2)
            self.refs[ref] = RefInfo(ref, role, name, frame, tier, shown)
            if shown:
                line.append(f" [ref={ref}]")
            else:
                self.hidden[len(self.lines)] = ref  # this node's line is the next one
        if "err" in node:
            self.lines.append("".join(line) + ":")
            self.lines.append(f"{indent}  - note: {node['err']}")
            return
        text_only = bool(kids) and not has_elements
        if text_only:
            if show_name and from_content:
                kids = None
            else:
                text = " ".join(k.strip() for k in kids if k.strip())
                self.lines.append("".join(line) + (": " + one_line(text) if text else ""))
                return
        if not kids and node.get("v"):
            line.append(": " + one_line(node["v"]))
            self.lines.append("".join(line))
            return
        if kids or node.get("more"):
            line.append(":")
        self.lines.append("".join(line))
        if node.get("more"):  # snapshot --depth cut this subtree
            self.lines.append(f"{indent}  - ... ({node['more']} more nodes)")
        if kids:
            return kids, indent + "  ", child_frame, show_name and from_content
        return None


def count_refs(root: dict) -> tuple[int, int]:
    """(tier-1 refs, tier-2 refs) in a stitched tree."""
    t1 = t2 = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.get("e"):
            if node.get("t") == 2:
                t2 += 1
            else:
                t1 += 1
        kids = node.get("c")
        if kids:
            stack.extend(k for k in kids if not isinstance(k, str))
        if "sub" in node:
            stack.append(node["sub"])
    return t1, t2
