"""snapshot."""

from __future__ import annotations

import re

from ..act.targets import adopt, resolve_target
from ..base.errors import UsageError
from ..refs.store import RefStore
from ..snapshot import filters
from ..snapshot.capture import capture_tree
from ..snapshot.render_text import TextRenderer
from .registry import Result, command, usage_of

REPL_MAX_CHARS = 200_000  # the REPL's default cut; one-shot and JSON output are whole unless asked


def cut_text(text: str, limit: int) -> tuple[str, str | None]:
    """Cut at a line end at or before ``limit`` characters; (text, note or None)."""
    if not limit or len(text) <= limit:
        return text, None
    end = text.rfind("\n", 0, limit + 1)
    shown = text[: end if end > 0 else limit]
    rest_lines = text.count("\n", len(shown)) + (0 if end > 0 else 1)
    note = (f"Output cut at {len(shown):,} of {len(text):,} characters ({rest_lines:,} more lines); "
            f"'snapshot --max-chars 0' shows all of it.")
    return shown, note


OPTIONS = ("--all-refs: no compact mode", "--fresh: capture even when the page is unchanged",
           "--frame fN: one frame", "--no-frames: frame boundaries only",
           "--max-chars N: cut the text at N characters", "--within TARGET: one element's subtree",
           "--interactive: only refs and the landmarks and headings above them", "--depth N: N levels")
def frame_scope(ctx, flags):
    """The frame of --frame fN (its index, converted by the registry), or None."""
    index = flags.values.get("--frame")
    if index is None:
        return None
    page = ctx.page
    fr = page.frames.get(index)
    if fr is None or fr.detached or page.frames.current_loader(fr) is None:
        fr = next((f for f in ctx.session.scan_frames(page) if f.index == index), None)
    if fr is None:
        raise UsageError(f"There is no frame f{index} on this page. 'frames' lists them.")
    return fr


@command("snapshot", options=OPTIONS, group="snapshot",
         help=f"Show the page as an accessibility tree with refs ({'; '.join(OPTIONS)}).", effect="read")
def snapshot_cmd(ctx, args, flags):
    frame = frame_scope(ctx, flags)
    limit = flags.values.get("--max-chars", REPL_MAX_CHARS if ctx.interactive else 0)  # 0: none
    depth = flags.values.get("--depth")
    if depth == 0:
        raise UsageError(f"--depth needs a number of levels (1 or more). Usage: {usage_of('snapshot')}")
    page = ctx.page
    ctx.session.ask_targets()  # the after-command question (tabs opened or closed) goes with the capture
    state = ctx.page_state()
    viewed = "--interactive" in flags or depth is not None  # a view of the tree, filtered here
    if "--within" in flags:
        data, root, compact = _within(ctx.session, page, state.store, flags.values["--within"])
    else:
        snap, cached = state.snapshot(page, all_refs="--all-refs" in flags, fresh="--fresh" in flags, frame=frame,
                                      follow="--no-frames" not in flags,
                                      tree=viewed)
        data, root, compact = snap.as_json(), snap.root, snap.compact
        data["cached"] = cached
        if cached:
            data["notes"].append(f"The page has not changed since snapshot #{snap.number}: shown from the cache "
                                 "('snapshot --fresh' captures it anew).")
    if viewed:
        view = filters.interactive(root, compact) if "--interactive" in flags else root
        within = "--within" in flags  # the element is level 0 there, not the document
        view = filters.depth(view, depth + within) if depth is not None else view
        text = TextRenderer(page.prefix, compact).render(view)
        data["text"] = _dedent(text) if "--within" in flags else text
    data["text"], note = cut_text(data["text"], limit)
    if note:
        data["notes"] = list(data.get("notes", [])) + [note]
    if "--all-refs" not in flags and (note or viewed or "--within" in flags):  # cut down: the refs it shows
        shown = set(SHOWN_REF.findall(data["text"]))
        data["refs"] = {ref: info for ref, info in data.get("refs", {}).items() if ref in shown}
    return Result("snapshot", data)


SHOWN_REF = re.compile(r"\[ref=([a-z0-9]+)\]")


def _dedent(text: str) -> str:
    """A --within view without the document line: the element is the top."""
    return "\n".join(line[2:] for line in text.split("\n")[1:])


def _within(session, page, store: RefStore, raw: str) -> tuple[dict, dict, bool]:
    res = resolve_target(session, page, store, raw)
    root, frames, notes = capture_tree(page, within=(res.frame, res.ref.n))
    renderer = TextRenderer(page.prefix, compact=False)
    text = _dedent(renderer.render(root))
    for ref, info in renderer.refs.items():  # refs issued in the subtree are usable at once
        fr = page.frames.get(info.frame)
        if fr is not None:
            adopt(store, fr, int(ref.rsplit("e", 1)[1]), info.role, info.name, info.tier, f"in snapshot --within {raw}")
    if not root.get("c"):
        notes.append(f"{res.label} has no accessible content.")
    data = {"text": text, "refs": {r: {"role": i.role, "name": i.name, "frame": i.frame} for r, i in renderer.refs.items()},
            "frames": [f.as_json() for f in frames], "notes": notes + res.notes, "within": res.text, "cached": False}
    return data, root, False
