"""Views of a stitched snapshot tree for reading big pages: interactive-only, depth-limited, and search
(on copies: the recorded tree never changes)."""

from __future__ import annotations

LANDMARKS = frozenset({"banner", "complementary", "contentinfo", "form", "main", "navigation", "region", "search",
                       "dialog", "alertdialog", "iframe", "document"})


def _kids(node: dict) -> list:
    if "sub" in node:
        return node["sub"].get("c") or []
    return node.get("c") or []


def _with_kids(node: dict, kids: list) -> dict:
    out = {k: v for k, v in node.items() if k not in ("c", "sub")}
    if "sub" in node:
        out["sub"] = dict(node["sub"], c=kids)
    elif kids:
        out["c"] = kids
    return out


def interactive(root: dict, compact: bool = False) -> dict:
    """Only nodes with refs (shown ones: in compact mode tier 2 has none), every one of them, and the
    landmarks and headings that lead to them: a heading keeps the refs inside it (a headline link)."""

    def bare(node: dict) -> bool:  # a heading kept for what follows it, with no ref of its own or inside
        return node["r"] == "heading" and not _kids(node) and not _shown(node, compact)

    def keep(kids: list) -> list:
        out: list = []
        for k in kids:
            if isinstance(k, str):
                continue
            below = keep(_kids(k))
            leads = any(not bare(x) for x in below)
            if _shown(k, compact) or k["r"] == "heading" or (k["r"] in LANDMARKS and leads):
                kept = _with_kids(k, below)
                if bare(kept) and out and bare(out[-1]) and _level(out[-1]) >= _level(kept):
                    out.pop()  # a section with no ref in it, ended by this heading
                out.append(kept)
            elif leads:
                out.extend(below)  # a plain container: its kept children move up
        # a heading without refs only where something with a ref follows it in the same container
        while out and bare(out[-1]):
            out.pop()
        return out

    return _with_kids(root, keep(_kids(root)))


def _level(heading: dict) -> int:
    level = (heading.get("s") or {}).get("level")
    return level if isinstance(level, int) else 2


def _shown(node: dict, compact: bool) -> bool:
    """The node shows a ref (or a frame's reason) of its own."""
    return bool(node.get("e") and not (compact and node.get("t") == 2)) or "err" in node


def depth(root: dict, limit: int) -> dict:
    """The tree down to `limit` levels below the document; deeper parts are counted, not shown."""

    def count(kids: list) -> int:
        return sum(1 + count(_kids(k)) for k in kids if not isinstance(k, str))

    def cut(node: dict, level: int) -> dict:
        kids = _kids(node)
        if level >= limit:
            hidden = count(kids)
            out = _with_kids(node, [])
            if hidden:
                out["more"] = hidden
            return out
        return _with_kids(node, [k if isinstance(k, str) else cut(k, level + 1) for k in kids])

    return cut(root, 0)


def find(root: dict, prefix: str, text: str, limit: int = 100) -> tuple[list[dict], int]:
    """Nodes whose role, name or text contain `text` (ignoring case), with ref and ancestor path."""
    want = text.casefold()
    found: list[dict] = []
    total = 0

    def label(node: dict) -> str:
        return f'{node["r"]} "{node["n"]}"' if node.get("n") else node["r"]

    def visit(node: dict, frame: int, path: list[str]) -> None:
        nonlocal total
        kids = _kids(node)
        texts = " ".join(k.strip() for k in kids if isinstance(k, str) and k.strip())
        if not texts and not kids and node.get("nc"):
            texts = node.get("n", "")  # its text-only content, sent as its name
        hit = want in node["r"].casefold() or want in (node.get("n") or "").casefold() or want in texts.casefold() \
            or want in (node.get("v") or "").casefold()
        if hit and node is not root:
            total += 1
            if len(found) < limit:
                item = {"ref": f"{prefix}f{frame}e{node['e']}" if node.get("e") else None, "role": node["r"],
                        "name": node.get("n", ""), "path": list(path)}
                if texts:
                    item["text"] = texts
                found.append(item)
        child_frame = node["sub"].get("fi", frame) if "sub" in node else frame
        for k in kids:
            if not isinstance(k, str):
                visit(k, child_frame, path + [label(node)])

    visit(root, root.get("fi", 0), [])
    return found, total
