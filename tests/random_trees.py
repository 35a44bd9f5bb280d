"""Seeded random frame trees of the bridge's shape (model.py's keys) with the strings the snapshot
text format has rules for, and their mutations (tests/test_page_text.py)."""

from __future__ import annotations

import copy
import json
import random

from verdex_cli.snapshot.render_text import STATE_ORDER

ROLES = ("button", "link", "heading", "generic", "list", "listitem", "row", "cell", "option", "textbox",
         "checkbox", "img", "paragraph", "group", "navigation", "combobox", "text")
# characters the format has rules for: whitespace as Python's str.isspace has it (\ufeff and \u200b
# are not), controls (C0, DEL, C1), separators, quotes, backslashes, astral ones and lone surrogates
NASTY = ["\x00", "\x01", "\x07", "\x08", "\t", "\n", "\x0b", "\x0c", "\r", "\x1b", "\x1c", "\x1d", "\x1e",
         "\x1f", "\x7f", "\x80", "\x85", "\x9b", "\x9f", "\xa0", "\u1680", "\u180e", "\u2000", "\u200a",
         "\u200b", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff", '"', "'", "\\", "\\n", "/",
         "\U0001f600", "\U0001d11e", "\ud800", "\udbff", "\udc00", "\udfff", "é", "中", "<b>", "{}"]
SPACES = [" ", "\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1f", "\x85", "\xa0", "\u2003", "\u2028",
          "\u2029", "\u3000", "\ufeff"]
WORDS = ["a", "ok", "Save", "name", "x" * 7, "Lorem ipsum", "dolor sit amet"]


def rand_text(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.08:
        return ""
    if kind < 0.18:
        return "".join(rng.choice(SPACES) for _ in range(rng.randint(1, 4)))
    if kind < 0.5:
        return rng.choice(WORDS)
    if kind < 0.75:  # short, mixed
        return "".join(rng.choice(NASTY + WORDS + SPACES) for _ in range(rng.randint(1, 8)))
    # long: something chosen around the 100th code point (the cut)
    at = rng.randint(95, 102)
    head = "".join(rng.choice("abcdef ") for _ in range(at))
    mid = "".join(rng.choice(NASTY + SPACES) for _ in range(rng.randint(1, 4)))
    tail = "".join(rng.choice("ghij " + "\U0001f600") for _ in range(rng.randint(0, 20)))
    return rng.choice(SPACES + [""]) + head + mid + tail


class Gen:
    """Random frame trees of the bridge's shape (model.py's keys)."""

    def __init__(self, rng: random.Random, owners: bool = False):
        self.rng, self.owners = rng, owners
        self.ref = 0
        self.el = 0
        self.slots = 0

    def states(self) -> dict:
        rng = self.rng
        keys = rng.sample(STATE_ORDER + ("busy",), rng.randint(1, 4))
        return {k: rng.choice([True, False, None, 0, 1, 3, "mixed", "page", ""]) for k in keys}

    def owner(self) -> dict:
        rng = self.rng
        o = {"r": "iframe", "fo": self.slots}
        self.slots += 1
        if rng.random() < 0.5:
            o["n"] = rand_text(rng)
        if rng.random() < 0.5:
            self.ref += 1
            o["e"] = self.ref
            if rng.random() < 0.3:
                o["t"] = 2
        else:
            self.el += 1
            o["i"] = self.el
        if rng.random() < 0.2:
            o["s"] = self.states()
        if rng.random() < 0.2:
            o["fid"] = f"F{rng.randint(1, 99)}"
        return o

    def node(self, depth: int) -> dict:
        rng = self.rng
        if self.owners and rng.random() < 0.12:
            return self.owner()
        n = {"r": rng.choice(ROLES)}
        if rng.random() < 0.6:
            n["n"] = rand_text(rng)
            if rng.random() < 0.4:
                n["nc"] = 1
        if rng.random() < 0.45:
            self.ref += 1
            n["e"] = self.ref
            if rng.random() < 0.45:
                n["t"] = 2
        elif rng.random() < 0.8:
            self.el += 1
            n["i"] = self.el
        if rng.random() < 0.25:
            n["s"] = self.states()
        if rng.random() < 0.2:
            n["v"] = rand_text(rng)
        if rng.random() < 0.05:
            n["x"] = 1
        if depth > 0 and rng.random() < 0.55:
            n["c"] = self.kids(depth - 1)
            self.runs(n)
        elif rng.random() < 0.05:
            n["c"] = []
        return n

    def kids(self, depth: int) -> list:
        rng = self.rng
        p_text = rng.choice([0.0, 0.3, 0.6, 1.0])
        return [rand_text(rng) if rng.random() < p_text else self.node(depth) for _ in range(rng.randint(0, 5))]

    def runs(self, n: dict) -> None:
        """The text runs' identities (``ti``), parallel to the strings, maybe shorter, maybe with 0."""
        strings = sum(isinstance(k, str) for k in n.get("c") or ())
        if strings and self.rng.random() < 0.7:
            base = (n.get("i") or self.rng.randint(1, 5000)) * 1024
            n["ti"] = [self.rng.choice([base + j + 1, base + j + 1, 0]) for j in range(self.rng.randint(0, strings))]

    def root(self, depth: int) -> dict:
        rng = self.rng
        r = {}
        if rng.random() < 0.6:
            r["n"] = rand_text(rng)
        if rng.random() < 0.9:
            r["c"] = self.kids(depth)
            self.runs(r)
        return r


def walk(root: dict):
    """(parent, index, node) of every element below ``root``, document order."""
    stack = [root]
    while stack:
        n = stack.pop()
        kids = n.get("c") or []
        for i in range(len(kids) - 1, -1, -1):
            if not isinstance(kids[i], str):
                stack.append(kids[i])
        for i, k in enumerate(kids):
            yield n, i, k


def canonical(tree: dict) -> dict:
    """The tree as the page sees it (a high and a low surrogate next to each other are one character)."""
    return json.loads(json.dumps(tree))


def mutate(rng: random.Random, tree: dict, gen: Gen) -> dict:
    tree = copy.deepcopy(tree)
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3, 6])):
        spots = list(walk(tree))
        what = rng.random()
        if what < 0.06:
            tree["n"] = rand_text(rng)
            continue
        if not spots or what < 0.2:  # insert a subtree (or a text run)
            parent = rng.choice([tree] + [n for _, _, n in spots if isinstance(n, dict) and "fo" not in n])
            kids = parent.setdefault("c", [])
            kids.insert(rng.randint(0, len(kids)), rand_text(rng) if rng.random() < 0.3 else gen.node(2))
            continue
        parent, i, n = rng.choice(spots)
        if what < 0.35:
            del parent["c"][i]
        elif what < 0.45 or isinstance(n, str):
            parent["c"][i] = rand_text(rng) if rng.random() < 0.5 else gen.node(2)
        elif what < 0.6:
            n["n"] = rand_text(rng)
        elif what < 0.7:  # a new ref, or none
            n.pop("i", None)
            if rng.random() < 0.3:
                n.pop("e", None)
            else:
                gen.ref += 1
                n["e"] = gen.ref
        elif what < 0.8:  # the tier
            if n.get("t") == 2:
                del n["t"]
            elif n.get("e"):
                n["t"] = 2
        elif what < 0.85:
            n["s"] = gen.states()
        elif what < 0.9:  # only past the cut: the line stays, the ref's name does not
            n["n"] = (n.get("n") or "") + "y" * 101 + rng.choice("yz")
        elif what < 0.95:  # another element (its identity)
            gen.el += 1
            if "e" not in n:
                n["i"] = gen.el
        else:
            n["v"] = rand_text(rng)
    return canonical(tree)
