"""Structure and reading big pages: find, text, container, siblings, anchors."""

from __future__ import annotations

from ..act.fields import MASK
from ..act.targets import adopt, resolve_target
from ..base.errors import UsageError
from ..snapshot import filters
from ..snapshot.take import tree_of
from .registry import Result, command


def _ask(ctx, raw: str, fn: str, *args):
    """(page, store, the target resolved, the engine's answer to ``fn`` about its element)."""
    page = ctx.page
    store = ctx.page_state().store
    res = resolve_target(ctx.session, page, store, raw)
    out = page.bridge.structure(res.frame, fn, res.ref.n, *args)
    if out is None:
        raise UsageError(f"Element {res.label} is no longer in the document. Take a new snapshot.")
    return page, store, res, out


def _ref(page, store, res, n: int, role: str = "", name: str = "", tier: int = 0, why: str = "") -> str | None:
    """The ref string of number n in the target's frame, when the store knows it (or is told now)."""
    if not n:
        return None
    ref = f"{page.prefix}f{res.frame.index}e{n}"
    if ref in store.records:
        return ref
    if why and tier:
        return adopt(store, res.frame, n, role, name, tier, why).ref
    return None


@command("find", params="TEXT", group="snapshot",
         help="List the nodes of the last snapshot whose role, name or text contain TEXT, with ref and path.",
         effect="read")
def find_cmd(ctx, args, flags):
    store = ctx.page_state().store
    snap = ctx.page_state().last
    if snap is None:
        raise UsageError("No snapshot yet: take one with 'snapshot', then 'find TEXT'.")
    text = args[0].strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    if not text.strip():
        raise UsageError("find needs some text to look for (an empty one would list every node). Usage: find TEXT")
    notes = []
    root = tree_of(ctx.page, snap)
    if root is None:  # the page captured again since (its text is what it holds): a snapshot now
        was = snap.number
        snap, _ = ctx.page_state().snapshot(ctx.page, tree=True)
        root = snap.root
        notes.append(f"Snapshot #{was} is no longer held by the page: searched snapshot #{snap.number}, taken now.")
    found, total = filters.find(root, store.prefix, text)
    if not found:
        notes.append(f"Nothing in snapshot #{snap.number} contains {text!r}.")
    if total > len(found):
        notes.append(f"{total} matches; the first {len(found)} are listed.")
    return Result("find", {"query": text, "snapshot": snap.number, "matches": found, "total": total}, notes)


@command("text", params="TARGET", group="snapshot",
         help="Print the element's full text (nothing cut).", effect="read")
def text_cmd(ctx, args, flags):
    page, store, res, out = _ask(ctx, args[0], "text")
    data = {"ref": res.text, "role": out["role"], "name": out["name"], "text": out["text"]}
    if "value" in out:
        data["value"] = MASK if out.get("masked") else out["value"]
    return Result("text", data, list(res.notes))


@command("container", params="TARGET", group="refs",
         help="Show the element's ancestors up to body: tag, role, id, classes, test id, name and ref.", effect="read")
def container_cmd(ctx, args, flags):
    page, store, res, chain = _ask(ctx, args[0], "container")
    rows = []
    for i, c in enumerate(chain):
        ref = res.text if i == 0 else _ref(page, store, res, c["n"])
        rows.append({"tag": c["tag"], "role": c["role"], "id": c["id"], "classes": c["classes"],
                     "testid": c["testid"], "name": c["name"], "ref": ref})
    return Result("container", {"ref": res.text, "chain": rows}, list(res.notes))


@command("siblings", params="TARGET [LEVEL]", group="refs",
         help="Show the look-alike siblings at the nearest repeating ancestor (or LEVEL steps up) and what differs.",
         effect="read")
def siblings_cmd(ctx, args, flags):
    level = args.values.get("level")
    page, store, res, out = _ask(ctx, args[0], "siblings", level)
    if not out.get("found"):
        return Result("siblings", {"ref": res.text, "level": level, "signature": None, "count": 0, "differ": [],
                                   "items": []}, [f"No ancestor of {res.label} repeats (no look-alike siblings)."])
    page.frames.note_issued(res.frame, out["counter"])
    items = []
    for it in out["items"]:
        item = {"index": it["index"], "self": it["self"], "role": it["role"], "name": it["name"],
                "ref": _ref(page, store, res, it["n"]), "differs": it["differs"]}
        cp = it.get("counterpart")
        if cp:
            item["counterpart"] = {"role": cp["role"], "name": cp["name"],
                                   "ref": _ref(page, store, res, cp["n"], cp["role"], cp["name"], cp["tier"],
                                               f"as a sibling of {res.text}")}
        items.append(item)
    data = {"ref": res.text, "level": out["level"], "signature": out["signature"], "count": out["count"],
            "differ": out["differ"], "items": items}
    notes = list(res.notes)
    if out["count"] > len(items):
        notes.append(f"{out['count']} siblings; the first {len(items)} are listed.")
    return Result("siblings", data, notes)


@command("anchors", params="TARGET [LEVEL]", group="refs",
         help="List headings, labelled landmarks, test ids and unique text around the element (its repeating "
              "ancestor, or LEVEL steps up).", effect="read")
def anchors_cmd(ctx, args, flags):
    page, store, res, out = _ask(ctx, args[0], "anchors", args.values.get("level"))
    items = []
    for a in out["anchors"]:
        item = {k: v for k, v in a.items() if k != "n"}
        item["ref"] = _ref(page, store, res, a["n"])
        items.append(item)
    w = out["within"]
    within = {"tag": w["tag"], "role": w["role"], "name": w["name"], "id": w["id"], "classes": w["classes"],
              "ref": _ref(page, store, res, w["n"])}
    notes = list(res.notes) + ([] if items else [f"No anchors found around {res.label}."])
    return Result("anchors", {"ref": res.text, "level": out["level"], "within": within, "anchors": items}, notes)

