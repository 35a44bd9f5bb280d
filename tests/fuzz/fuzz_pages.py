"""Seeded pages that look like real sites, for the truth fuzzer.

Every page is a pure function of (seed, path): the same seed serves the same documents. A main page
(`/p/SEED/N`) is a shop-like page whose sections are drawn from the seed: a list that re-renders,
recycles or reorders its rows (keyed or not), a form whose fields filter, reformat or revert what is
typed (synchronously, in an animation frame, after a timer), a checkbox that undoes itself, a select
that reverts, a modal dialog, a cookie banner covering the page, late content, a button replaced by
a new node with the same text, a tall page with smooth scrolling, `target=_blank` links and
`window.open`, and iframes nested up to three levels, each from one of three origins: the same
origin, the same site on another port (one renderer), or another site (`localhost`: an
out-of-process frame). Frames (`/f/SEED/ID/V`) are small widgets; some navigate themselves (after a
timer, on a click, or when poked), and the next variant has other buttons in the same places.

Each document loads `oracle.js` first (the independent oracle) and `site.js` last (the behaviour).
"""

from __future__ import annotations

import html
import json
import random

ITEMS = ["Apples", "Pears", "Plums", "Figs", "Kiwis", "Limes", "Dates", "Grapes", "Mangos", "Melons"]
MORE = "Cherries,Lemons,Olives,Quinces,Papayas"
WIDGET_BUTTONS = [("Keep my cart", "Delete my account"), ("Subscribe", "Unsubscribe"), ("Play", "Stop"),
                  ("Like", "Report"), ("Accept", "Decline"), ("Follow", "Block")]
SECTIONS = ["list", "form", "modal", "cover", "late", "replace", "toggle", "gate", "scroll",
            "grid", "route", "chain", "rebuild", "long", "written"]

STYLE = """
body{font:15px sans-serif;margin:0 12px} section{border:1px solid #ccc;margin:8px 0;padding:6px}
iframe{width:92%;height:200px;border:1px solid #888;display:block}
[data-cover]{position:fixed;left:0;right:0;bottom:0;height:70px;background:#ffe;border-top:2px solid #aa0}
.tall{height:1400px}
"""


def rng_for(seed: int, what: str) -> random.Random:
    return random.Random(f"{seed}/{what}")


def _esc(s: str) -> str:
    return html.escape(s, quote=True)


def _head(title: str, doc: int, smooth: bool = False, quirks: bool = False) -> str:
    css = STYLE + ("html{scroll-behavior:smooth}" if smooth else "")
    return (("" if quirks else "<!doctype html>") + f'<html lang="en"><head><meta charset="utf-8"><title>{_esc(title)}</title>'
            f'<script src="/oracle.js" data-doc="{doc}"></script><style>{css}</style></head><body>')


_TAIL = '<p data-status role="status"></p><script src="/site.js"></script></body></html>'


def frame_tree(seed: int, page: int) -> list[dict]:
    """The iframes of main page `page`: [{id, origin, children: [...]}], up to three levels."""
    r = rng_for(seed, f"frames/{page}")

    def level(depth: int, prefix: str) -> list[dict]:
        if depth > 3:
            return []
        count = r.choice([0, 1, 1, 2]) if depth > 1 else r.choice([0, 1, 2, 2, 3])
        out = []
        for i in range(count):
            fid = f"{prefix}{i}"
            out.append({"id": fid, "origin": r.choice("abc"), "fixed": r.random() < 0.25,
                        "children": level(depth + 1, fid + "-")})
        return out

    return level(1, f"{page}-")


def main_page(seed: int, page: int, doc: int, origins: dict[str, str], skip: tuple = ()) -> str:
    r = rng_for(seed, f"page/{page}")
    smooth = r.random() < 0.5
    parts = [_head(f"Shop {page}", doc, smooth), '<header><nav aria-label="Site">',
             f'<a href="/p/{seed}/{(page + 1) % 4}">Deals</a> ',
             f'<a href="/p/{seed}/{(page + 2) % 4}" target="_blank">Help centre</a> ',
             f'<button data-do="popup" data-url="/p/{seed}/{(page + 3) % 4}">Open chat</button>',
             '</nav></header><main><h1>Shop ' + str(page) + '</h1>']
    chosen = [s for s in SECTIONS if r.random() < 0.6 and s not in skip] or ["list"]
    r.shuffle(chosen)
    frames = frame_tree(seed, page)
    # an ad slot: the first widget frame, at the top, drawn 0 px high until it "loads" a moment after
    # the page and pushes everything below it down (a frame arriving under a point checked before)
    ad = rng_for(seed, f"ad/{page}")
    if frames and ad.random() < 0.5:
        f = frames.pop(0)
        parts.append(_iframe(f, seed, origins, ad_after=ad.choice([40, 90, 180, 400])))
    for sec in chosen:
        parts.append(_section(sec, r, seed, page))
    for f in frames:
        parts.append(_iframe(f, seed, origins))
    parts.append("</main>" + _TAIL)
    return "".join(parts)


def _section(kind: str, r: random.Random, seed: int, page: int) -> str:
    if kind in _NEW:
        return _NEW[kind](seed, page)
    if kind == "list":
        items = r.sample(ITEMS, r.randint(3, 6))
        keyed = "1" if r.random() < 0.5 else "0"
        mode = r.choice(["keyed", "recycle"]) if keyed == "1" else "recycle"
        return (f'<section data-list data-keyed="{keyed}" data-mode="{mode}" data-items="{_esc(json.dumps(items))}" '
                f'data-more="{MORE}" aria-label="Basket"><h2>Basket</h2><ul></ul>'
                '<button data-do="shuffle">Shuffle</button> <button data-do="rerender">Refresh list</button> '
                '<button data-do="add">Add item</button></section>')
    if kind == "form":
        fields = []
        for label, filt in r.sample([("Quantity", "digits"), ("Code", "upper"), ("Coupon", "clear"),
                                     ("Phone", "phone"), ("Name", ""), ("Notes", "")], 4):
            attr = f' data-filter="{filt}"' if filt else ""
            if label == "Notes":
                fields.append(f'<label>Notes <textarea name="notes"></textarea></label>')
            else:
                fields.append(f'<label>{label} <input name="{label.lower()}"{attr}></label>')
        undo = r.choice(["sync", "later", ""])
        fields.append(f'<label><input type="checkbox" name="gift"{" data-undo=" + undo if undo else ""}> Gift wrap</label>')
        fields.append('<label><input type="checkbox" name="news"> Newsletter</label>')
        revert = ' data-revert="1"' if r.random() < 0.6 else ""
        fields.append(f'<label>Size <select name="size"{revert}><option value="s">Small</option>'
                      '<option value="m">Medium</option><option value="out">Large (out of stock)</option></select></label>')
        return '<section aria-label="Checkout"><h2>Checkout</h2><form onsubmit="return false">' + " ".join(fields) + "</form></section>"
    if kind == "modal":
        return ('<section><button data-do="dialog">Edit address</button><dialog aria-label="Address">'
                '<label>Street <input name="street"></label> <button data-do="close">Close</button></dialog></section>')
    if kind == "cover":
        return '<div data-cover>We use cookies. <button data-do="accept">Accept cookies</button></div>'
    if kind == "late":
        return f'<section data-late-sec data-after="{r.choice([60, 150, 300])}"><h2>Offers</h2><button data-do="more">Load more</button></section>'
    if kind == "replace":
        return '<section><button data-do="replace">Save draft</button> <button data-flip data-do="status">Reorder</button></section>'
    if kind == "toggle":
        return ('<section><button data-do="toggle" aria-controls="det' + str(page) + '">Show details</button>'
                f'<div id="det{page}" hidden><button data-do="status">Buy warranty</button></div></section>')
    if kind == "gate":
        return (f'<section><label><input type="checkbox" data-gate="order{page}"> I agree</label> '
                f'<button id="order{page}" data-do="status" disabled>Place order</button></section>')
    # scroll
    return ('<section class="tall"><h2>Reviews</h2><p>Long reviews here.</p></section>'
            '<section><button data-do="top">Back to top</button></section>')


def _grid(seed: int, page: int) -> str:
    """People in a grid whose rows the page recycles when its own buttons sort, filter or scroll it."""
    return ('<section data-grid aria-label="People"><h2>People</h2><button data-do="grid-sort-name">Sort by name</button> '
            '<button data-do="grid-sort-id">Sort by id</button> <button data-do="grid-up">Rows up</button> '
            '<button data-do="grid-down">Rows down</button> <label>Filter people <input type="search" name="q"></label>'
            '<table><tbody></tbody></table></section>')


def _route(seed: int, page: int) -> str:
    """A pushState route: one article whose heading and buttons show another user."""
    links = " ".join(f'<a href="/p/{seed}/{page}?u={i}" data-do="route">{n}</a>' for i, n in enumerate(["Alice", "Bob", "Cleo", "Dan"], 1))
    return (f'<section aria-label="Users"><nav aria-label="Users">{links}</nav><article data-route-view><h2></h2><p></p>'
            '<button data-do="status">Delete user</button> <button data-do="status">Message</button></article></section>')


_NEW = {
    "grid": _grid,
    "route": _route,
    "chain": lambda seed, page: '<section aria-label="Stock"><h2>Stock</h2><p>Stock: ?</p><button data-do="chain">Check stock</button></section>',
    "rebuild": lambda seed, page: '<section data-rebuild aria-label="Profile"><h2>Profile</h2><div></div></section>',
    "long": lambda seed, page: '<section data-long aria-label="Order"><p></p><button data-do="long">Confirm order</button></section>',
    "written": lambda seed, page: '<section><iframe title="Written widget" data-write style="height:90px"></iframe></section>',
}


def _height(f: dict) -> int:
    """Tall enough for the widget and every frame inside it; 200 px (its content scrolls) when drawn so."""
    return 200 if f.get("fixed") else 130 + sum(_height(c) + 8 for c in f["children"])


def _iframe(f: dict, seed: int, origins: dict[str, str], ad_after: int = 0) -> str:
    src = f"{origins[f['origin']]}/f/{seed}/{f['id']}/0"
    if ad_after:  # site.js gives it its height after ad_after ms
        return (f'<iframe title="Widget {_esc(f["id"])}" src="{src}" data-ad data-h="{_height(f)}" '
                f'data-after="{ad_after}" style="height:0;border:0"></iframe>')
    return f'<iframe title="Widget {_esc(f["id"])}" src="{src}" style="height:{_height(f)}px"></iframe>'


def find_frame(seed: int, fid: str) -> dict | None:
    page = int(fid.split("-", 1)[0])
    stack = list(frame_tree(seed, page))
    while stack:
        f = stack.pop()
        if f["id"] == fid:
            return f
        stack.extend(f["children"])
    return None


def frame_page(seed: int, fid: str, variant: int, doc: int, origins: dict[str, str], skip: tuple = ()) -> str | None:
    f = find_frame(seed, fid)
    if f is None:
        return None
    r = rng_for(seed, f"frame/{fid}")
    pair = r.choice(WIDGET_BUTTONS)
    navigates = r.random() < 0.5
    label = pair[variant % 2]
    nxt = f"/f/{seed}/{fid}/{variant + 1}"
    quirks = r.random() < 0.3 and "quirks" not in skip  # a legacy embed without a doctype
    parts = [_head(f"Widget {fid} v{variant}", doc, quirks=quirks), f"<h3>Widget {_esc(fid)}</h3>",
             f'<button data-do="status">{_esc(label)}</button> ']
    if navigates:
        parts.append(f'<button data-do="next" data-url="{nxt}" data-next="{nxt}">Next</button> ')
        if variant == 0 and r.random() < 0.5:
            parts.append(f'<span data-auto-next="{nxt}" data-after="{r.choice([200, 500, 900])}"></span>')
    else:
        parts.append(f'<span data-next="{nxt}"></span>')
    parts.append(f'<label>Comment <input name="c{_esc(fid)}"{" data-filter=digits" if r.random() < 0.3 else ""}></label>')
    parts.append('<label><input type="checkbox"> Remember</label>')
    for child in f["children"]:
        parts.append(_iframe(child, seed, origins))
    parts.append(_TAIL)
    return "".join(parts)
