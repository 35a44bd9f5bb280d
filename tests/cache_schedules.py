"""Random schedules for the snapshot cache's property (tests/test_cache_property.py): a plain `snapshot`
always equals `snapshot --fresh`, whatever the page did since its last capture.

A schedule is a seeded list of steps on tests/fixtures/settle/schedule.html (a page with a same-origin
and a cross-origin frame): the page scheduling work on its own (timers, intervals, animation frames,
posted messages, fetches whose bodies are read or never read, timer -> fetch -> timer chains,
microtasks; each ending in a change of text, attributes, elements, a field set by script, a shadow
tree or a <details>, in any of the three documents), verdex commands (`snapshot`, `click` on a button
whose handler starts planned work, `fill` and `type` into a debounced search, `wait MS`).
After each step the plain and the fresh snapshot are compared twice: at once, when the page's own
model says nothing changed in between (no change made, none in a frame under way), and once the page
says its work is done. The page's model (`__model`: work pending, changes made) is read in its main
world, which leaves verdex's cache alone.
"""

from __future__ import annotations

import difflib
import json
import random
import time

from conftest import ref_in

VIAS = ("now", "timeout", "interval", "raf", "message", "port", "fetch", "unread", "chain", "microtask")
MUTS = ("text", "long", "data", "hidden", "class", "label", "disabled", "add", "remove", "render", "value",
        "check", "shadow", "details", "button")
DOCS = ("main", "main", "main", "same", "cross")
DELAYS = (0, 0, 30, 120, 300, 800)
WORDS = ("a", "ad", "ada", "gr", "grace", "lin", "x", "don")
COMMANDS = ("page", "page", "click", "click", "fill", "type", "wait", "snapshot")


def ops(rng: random.Random) -> list[dict]:
    return [{"via": rng.choice(VIAS), "ms": rng.choice(DELAYS), "doc": rng.choice(DOCS),
             "mut": [rng.choice(MUTS), rng.randrange(10)]} for _ in range(rng.randint(1, 3))]


def schedule(seed: int, steps: int = 6) -> list[tuple]:
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        kind = rng.choice(COMMANDS)
        if kind in ("page", "click"):
            out.append((kind, rng.randrange(2), ops(rng)))
        elif kind in ("fill", "type"):
            out.append((kind, rng.choice(WORDS)))
        elif kind == "wait":
            out.append((kind, rng.choice((0, 50, 200, 600))))
        else:
            out.append((kind,))
    return out


class Mismatch(AssertionError):
    pass


class Runner:
    """Runs schedules on one Driver; counts what it compared."""

    def __init__(self, driver, url: str):
        self.d, self.url = driver, url
        self.compared = self.at_once = 0

    def model(self) -> dict:
        return json.loads(self.d.js("JSON.stringify(window.__model || null)"))

    def open(self) -> dict:
        """Open the page (once its frames have loaded): the refs of its controls."""
        d = self.d
        d.ok("open " + self.url)
        if not _until(lambda: d.ok("snapshot --fresh").data["text"].count('heading "Panel"') == 2, 10):
            raise Mismatch("the page's frames did not load")
        text = d.ok("snapshot").data["text"]
        return {name: ref_in(text, pattern) for name, pattern in
                (("a0", 'button "Action 0"'), ("a1", 'button "Action 1"'), ("q", 'searchbox "Search"'))}

    def run(self, seed: int, steps: int = 6, refs: dict | None = None) -> None:
        """One schedule, on the page as the last one left it (``refs``: of its controls), else opened."""
        plan = schedule(seed, steps)
        refs = refs or self.open()
        for i, step in enumerate(plan):
            self._step(step, refs)
            where = f"seed {seed}, step {i + 1} {step!r} of {plan!r}"
            self._compare_now(where)
            if not _until(lambda: self.model()["pending"] == 0, 8):
                raise Mismatch(f"{where}: the page's work never ended: {self.model()}")
            self._compare(where + " (page done)")

    def _step(self, step: tuple, refs: dict) -> None:
        d, kind = self.d, step[0]
        if kind == "page":
            d.js(f"window.sched({json.dumps(step[2])})")
            return
        if kind == "click":
            d.js(f"window.plan.a{step[1]} = {json.dumps(step[2])}")
            line = f"click {refs['a' + str(step[1])]}"
        elif kind in ("fill", "type"):
            line = f"{kind} {refs['q']} {step[1]}"
        else:
            line = " ".join(map(str, step))  # wait MS, snapshot
        out = d.run(line)
        if not out.ok and out.kind == "internal":
            raise Mismatch(f"{line}: {out.message}\n{out.trace}")

    def _compare_now(self, where: str) -> None:
        """Compared at once, unless the page changed between the two snapshots (its own count says)."""
        before = self.model()
        plain, fresh = self._pair()
        after = self.model()
        if before["away"] or after["away"] or before["made"] != after["made"]:
            return
        self.at_once += 1
        self._same(plain, fresh, where + " (at once)")

    def _compare(self, where: str) -> None:
        self._same(*self._pair(), where)

    def _pair(self) -> tuple[str, str]:
        return self.d.ok("snapshot").data["text"], self.d.ok("snapshot --fresh").data["text"]

    def _same(self, plain: str, fresh: str, where: str) -> None:
        self.compared += 1
        if plain != fresh:
            diff = "\n".join(difflib.unified_diff(fresh.splitlines(), plain.splitlines(), "fresh", "plain", n=1,
                                                  lineterm=""))
            raise Mismatch(f"{where}: the plain snapshot differs from a fresh one:\n{diff}")


def _until(check, timeout: float):
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.03)
