"""The seeded action plan: what to do at each step, decided before anything runs.

A step names a command and how to choose its target (which snapshot: the latest, an older one for
stale refs, or the refs the last action's changes issued; which roles; a number in [0, 1) that picks
among them), so the plan is a pure function of the seed. Which concrete ref it picks depends on the
page, which is a pure function of the seed too (up to the page's own timers).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

TEXTS = ["12ab", "hello", "AB12CD", "x", "", "5551234", "Zoë 7", "abcd", "42", "SAVE10"]
KEYS = ["Tab", "Enter", "ArrowDown", "End", "Escape", "a", "Backspace", "Shift+Tab"]
SELECT_VALUES = ["s", "m", "out", "Small", "Medium", "Large (out of stock)"]
TEXT_ROLES = ("textbox", "searchbox", "spinbutton")
CHECK_ROLES = ("checkbox", "radio", "switch")
SELECT_ROLES = ("combobox", "listbox")

# (op, weight)
OPS = [("snapshot", 14), ("click", 18), ("dblclick", 3), ("hover", 7), ("fill", 9), ("type", 4),
       ("press", 4), ("select", 5), ("check", 5), ("uncheck", 3), ("focus", 3), ("scroll", 3),
       ("tab", 3), ("back", 2), ("forward", 1), ("wait", 3), ("poke", 8), ("open", 1), ("meaning", 4)]

ROLES = {"fill": TEXT_ROLES, "type": TEXT_ROLES, "check": CHECK_ROLES, "uncheck": CHECK_ROLES,
         "select": SELECT_ROLES}


@dataclass
class Step:
    index: int
    op: str
    source: str = "latest"        # latest | older | changes
    roles: tuple = ()             # wanted roles (empty: any)
    u: float = 0.0                # picks among the candidates
    arg: str = ""                 # text, key, value, wait kind, poke number, page number
    extra: dict = field(default_factory=dict)


def make_plan(seed: int, count: int) -> list[Step]:
    r = random.Random(f"plan/{seed}")
    names = [op for op, _ in OPS]
    weights = [w for _, w in OPS]
    steps = [Step(0, "snapshot")]
    for i in range(1, count):
        op = r.choices(names, weights)[0]
        s = Step(i, op, u=r.random())
        roll = r.random()
        s.source = "latest" if roll < 0.7 else ("older" if roll < 0.9 else "changes")
        s.extra["back"] = r.randint(1, 4)  # how many snapshots back for an older ref
        if op in ROLES and r.random() < 0.9:
            s.roles = ROLES[op]
        if op in ("fill", "type"):
            s.arg = r.choice(TEXTS)
        elif op == "press":
            s.arg = r.choice(KEYS)
            s.extra["focused"] = r.random() < 0.25  # 'press KEY' to whatever has focus
        elif op == "select":
            s.arg = r.choice(SELECT_VALUES)
        elif op == "scroll":
            s.arg = r.choice(["ref", "ref", "up", "down"])
        elif op == "wait":
            s.arg = r.choice(["ms", "ref", "gone", "text"])
        elif op == "poke":
            s.arg = str(r.randrange(1000))
        elif op == "open":
            s.arg = str(r.randrange(4))
        elif op == "tab":
            s.arg = r.choice(["switch", "switch", "close"])
        elif op == "meaning":
            s.extra["how"] = r.choice(["click", "click", "hover"])
        steps.append(s)
    return steps
