"""Views of a stitched snapshot tree for reading big pages: interactive-only, depth-limited, and search.

They work on copies of the bridge's compact node dicts (see model.py) and never change the tree
that was recorded in the ref store.
"""

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
    """Only nodes with refs (shown ones: in compact mode tier 2 has none), and the landmarks and headings
    above them."""

    def keep(kids: list) -> list:
        out: list = []
        for k in kids:
            if isinstance(k, str):
                continue
            below = keep(_kids(k))
            has_ref = any(not isinstance(x, str) and x.get("r") != "heading" for x in below)
            if (k.get("e") and not (compact and k.get("t") == 2)) or "err" in k:
                out.append(_with_kids(k, below))
            elif k["r"] in LANDMARKS and has_ref:
                out.append(_with_kids(k, below))
            elif k["r"] == "heading":
                out.append(_with_kids(k, []))
            elif has_ref:
                out.extend(below)  # a plain container: its kept children move up
        # headings only where something with a ref follows them in the same container
        while out and not isinstance(out[-1], str) and out[-1]["r"] == "heading":
            out.pop()
        return out

    return _with_kids(root, keep(_kids(root)))


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
