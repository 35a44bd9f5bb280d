"""The snapshot text the page renders (engine/text.js), stitched in Python (snapshot/views.py), is
the text render_text.py makes of the stitched tree: text, node identities, refs (in order) and hidden
refs, on seeded random trees (nasty strings, every node key, compact or not, frame index known or
not), on pages of nested frames, and for the changed lines a frame answers after a render Python
holds. One headless Chromium tab runs text.js alone (its source is a function body)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from random_trees import Gen, canonical, mutate, rand_text, walk
from verdex_cli.browser.session import Options, Session
from verdex_cli.snapshot import render_text, views
from verdex_cli.snapshot.render_text import TextRenderer
from verdex_cli.snapshot.views import FrameView, Stitched

TEXT_JS = Path(views.__file__).resolve().parents[1] / "engine" / "text.js"
PREFIX = "c0p0"


# -- the page -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def page_text(chrome):
    session = Session.start(Options(connect=chrome.http_endpoint, new_tab=True))
    target = session.page.target
    source = TEXT_JS.read_text()
    res = target.call("Runtime.evaluate", expression=f"globalThis.__pageText = (() => {{ {source} }})(); 1",
                      returnByValue=True)
    assert "exceptionDetails" not in res, res

    def run(steps: list) -> list:
        """Each step: 0 (Text.forget()) or [root, opts, capNow, capBefore] (Text.view's answer, as the
        bridge sends it: through JSON)."""
        out = []
        for at in range(0, len(steps), 150):
            payload = json.dumps(steps[at:at + 150])  # ASCII: lone surrogates as \\u escapes
            expr = ("((T, steps) => JSON.stringify(steps.map(s => s === 0 ? (T.forget(), null) : "
                    f"T.view(s[0], s[1], s[2], s[3]))))(globalThis.__pageText, {payload})")
            res = target.call("Runtime.evaluate", expression=expr, returnByValue=True, timeout=60)
            assert "exceptionDetails" not in res, res["exceptionDetails"]
            out.extend(json.loads(res["result"]["value"]))
        return out

    yield run
    session.close()


def opts_for(rng: random.Random, page_compact: bool, index: int, frame_compact: bool | None = None) -> dict:
    """Text.view's options making the frame's own choice ``frame_compact`` (a frame is compact only on
    a compact page; by default: as the page)."""
    if frame_compact is None:
        frame_compact = page_compact
    frame = index if rng.random() < 0.6 else -1
    if frame_compact:
        return {"allRefs": False, "frame": frame, "tiers": rng.choice([[0, 101], [60, 41], [101, 0]])}
    if not page_compact and rng.random() < 0.3:  # --all-refs: many refs, not compact
        return {"allRefs": True, "frame": frame, "tiers": rng.choice([[0, 0], [90, 90], [0, 500]])}
    return {"allRefs": False, "frame": frame, "tiers": rng.choice([[0, 0], [3, 4], [50, 50]])}


def python_render(stitched: dict, compact: bool) -> tuple:
    r = TextRenderer(PREFIX, compact)
    text = r.render(stitched)
    return text, list(r.ids), list(r.refs.items()), r.hidden


def page_render(root: FrameView, compact: bool) -> tuple:
    s = Stitched(compact).build(root)
    return s.text, list(s.ids), list(s.refs.items()), s.hidden


def first_difference(want: tuple, got: tuple) -> str:
    for what, a, b in zip(("text", "ids", "refs", "hidden"), want, got):
        if a != b:
            if what == "text":
                a, b = a.split("\n"), b.split("\n")
                k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                return f"text line {k}: python {a[k:k + 1]!r} page {b[k:k + 1]!r}"
            return f"{what}: python {a!r}\npage {b!r}"
    return ""


# -- 1. one frame ---------------------------------------------------------------------------------

def test_one_frame_random_trees(page_text):
    rng = random.Random(20240601)
    cases = []
    for k in range(4000):
        compact = rng.random() < 0.5
        index = rng.randint(0, 4)
        frame_compact = compact and rng.random() < 0.75  # else: the page is compact, this frame alone not
        gen = Gen(rng)
        tree = gen.root(rng.randint(0, 5))
        if k % 200 == 0:  # as deep as a snapshot nests (deep.js MAX_TREE: 200 levels, then flat)
            node = tree
            for _ in range(201):
                node.setdefault("c", []).append(gen.node(0))
                node = node["c"][-1]
                node.pop("v", None)
        tree = canonical(tree)
        cases.append((tree, compact, index, opts_for(rng, compact, index, frame_compact)))
    answers = page_text([[t, o, 0, 0] for t, _, _, o in cases])
    bad = []
    for (tree, compact, index, opts), ans in zip(cases, answers):
        want = python_render(dict(tree, fi=index), compact)
        got = page_render(FrameView.whole(ans, index, 0, PREFIX), compact)
        if want != got:
            bad.append(f"{json.dumps(tree)} compact={compact} index={index} opts={opts}\n"
                       f"{first_difference(want, got)}")
    assert not bad, f"{len(bad)} of {len(cases)} differ; first:\n" + "\n\n".join(bad[:3])


def test_whole_lines_are_the_uncut_render(page_text, monkeypatch):
    """Each line whose text the page cut comes whole as well (sent as where it differs from the cut line:
    views._long puts it together): the line render_text.py makes with nothing cut."""
    rng = random.Random(20261129)
    cases = []
    for _ in range(1500):
        compact = rng.random() < 0.5
        index = rng.randint(0, 4)
        cases.append((canonical(Gen(rng).root(rng.randint(0, 5))), compact, index, opts_for(rng, compact, index)))
    answers = page_text([[t, o, 0, 0] for t, _, _, o in cases])
    views_ = [FrameView.whole(ans, index, 0, PREFIX) for (_, _, index, _), ans in zip(cases, answers)]
    monkeypatch.setattr(render_text, "MAX_TEXT", 10 ** 9)
    monkeypatch.setattr(render_text.cut, "__defaults__", (10 ** 9,))
    bad, longs = [], 0
    for (tree, compact, index, _), v in zip(cases, views_):
        uncut = python_render(dict(tree, fi=index), compact)[0].split("\n")
        want = {k: line for k, (line, cut) in enumerate(zip(uncut, v.lines)) if line != cut}
        longs += len(v.long)
        if v.long != want:
            bad.append(f"{json.dumps(tree)} compact={compact} index={index}\npage {v.long!r}\npython {want!r}")
    assert longs > 1000
    assert not bad, f"{len(bad)} of {len(cases)} differ; first:\n" + "\n\n".join(bad[:3])


# -- 2. frames inside frames ----------------------------------------------------------------------

class Page:
    """A page of frames: each frame's tree as its bridge answers it, and what capture.py finds behind
    each frame owner: ("sub", child frame), ("err", note, frame index or None) or ("fi", index)."""

    def __init__(self, rng: random.Random, max_depth: int = 3):
        self.rng = rng
        self.trees: dict[int, dict] = {}
        self.behind: dict[int, dict[int, tuple]] = {}
        self.next = 0
        self.frame(max_depth)

    def frame(self, depth: int) -> int:
        rng = self.rng
        index = self.next
        self.next += 1
        shape = rng.random()
        gen = Gen(rng, owners=depth > 0)
        if index == 0 or shape > 0.4:
            tree = gen.root(rng.randint(0, 4))
        elif shape < 0.1:
            tree = rng.choice([{}, {"c": []}, {"n": "empty"}])
        else:  # text only
            tree = {"c": [rand_text(rng) for _ in range(rng.randint(1, 3))]}
            gen.runs(tree)
        if depth > 0 and gen.slots == 0 and rng.random() < 0.7:
            tree.setdefault("c", []).insert(0, gen.owner())
        self.trees[index] = tree = canonical(tree)
        behind = self.behind[index] = {}
        for _, _, n in walk(tree):
            if isinstance(n, str) or "fo" not in n:
                continue
            pick = rng.random()
            if pick < 0.7:
                behind[n["fo"]] = ("sub", self.frame(depth - 1))
            elif pick < 0.8:
                behind[n["fo"]] = ("err", "frame content is not available (not loaded yet or blocked)", None)
            elif pick < 0.9:
                behind[n["fo"]] = ("err", "frame nesting is too deep to capture", self.reserve())
            else:
                behind[n["fo"]] = ("fi", self.reserve())
        return index

    def depth(self, index: int) -> int:
        """How deep frames nest below frame ``index``."""
        return max((1 + self.depth(b[1]) for b in self.behind[index].values() if b[0] == "sub"), default=0)

    def reserve(self) -> int:
        self.next += 1
        return self.next - 1

    def stitched_tree(self, index: int = 0) -> dict:
        """The page's tree as capture.py stitches it (frame roots get "fi", owners "fi" and "sub" or "err")."""
        root = copy.deepcopy(self.trees[index])
        root["fi"] = index
        for _, _, n in walk(root):
            if isinstance(n, dict) and "fo" in n:
                self.own(n, self.behind[index][n["fo"]], lambda i: self.stitched_tree(i))
        return root

    def own(self, o: dict, what: tuple, sub) -> None:
        o.pop("fid", None)
        if what[0] == "sub":
            o["fi"] = what[1]
            o["sub"] = sub(what[1])
        elif what[0] == "err":
            if what[2] is not None:
                o["fi"] = what[2]
            o["err"] = what[1]
        else:
            o["fi"] = what[1]

    def stitched_view(self, answers: dict[int, dict], index: int = 0) -> FrameView:
        """The frame views as capture.py stitches them (owners get "fi" and "sub" or "err")."""
        v = FrameView.whole(answers[index], index, 0, PREFIX)
        for o in v.owners:
            self.own(o, self.behind[index][o["fo"]], lambda i: self.stitched_view(answers, i))
        return v


def test_nested_frames(page_text):
    rng = random.Random(99)
    cases = []
    for _ in range(1000):
        page = Page(rng, rng.randint(1, 3))
        compact = rng.random() < 0.5
        opts = {i: opts_for(rng, compact, i, compact and rng.random() < 0.6) for i in page.trees}
        cases.append((page, compact, opts))
    steps = [[p.trees[i], o[i], 0, 0] for p, _, o in cases for i in sorted(p.trees)]
    answers = iter(page_text(steps))
    bad, seen = [], set()
    for page, compact, opts in cases:
        got_answers = {i: next(answers) for i in sorted(page.trees)}
        want = python_render(page.stitched_tree(), compact)
        got = page_render(page.stitched_view(got_answers), compact)
        if want != got:
            bad.append(f"{json.dumps(page.trees)} behind={page.behind} compact={compact} opts={opts}\n"
                       f"{first_difference(want, got)}")
        seen.update(("shape", got_answers[i]["shape"]) for i in got_answers if i)
        seen.update(("behind", b[0]) for owners in page.behind.values() for b in owners.values())
        seen.add(("depth", page.depth(0)))
    # child frames empty, text only and with elements; owners with a frame, a note or an index only;
    # frames nested 1 to 3 deep
    assert {("shape", 0), ("shape", 1), ("shape", 2), ("behind", "sub"), ("behind", "err"), ("behind", "fi"),
            ("depth", 1), ("depth", 2), ("depth", 3)} <= seen, seen
    assert not bad, f"{len(bad)} of {len(cases)} differ; first:\n" + "\n\n".join(bad[:3])


# -- 3. the changed lines after a render Python holds ---------------------------------------------

def test_changed_lines(page_text):
    """Renders A, B, C of a frame, each after the last (B's and C's changed lines), against B's and
    C's whole answers."""
    rng = random.Random(7)
    cases = []
    for _ in range(2000):
        gen = Gen(rng, owners=rng.random() < 0.3)
        a = canonical(gen.root(rng.randint(0, 5)))
        gen.ref += 50  # (refs of removed nodes are not given again)
        b = mutate(rng, a, gen)
        c = mutate(rng, b, gen)
        index = rng.randint(0, 3)
        compact = rng.random() < 0.5
        oa = opts_for(rng, compact, index)
        ob, oc = (dict(oa, tiers=opts_for(rng, rng.random() < 0.5, index)["tiers"]) if rng.random() < 0.2 else oa
                  for _ in range(2))
        cases.append((a, b, c, index, oa, ob, oc))
    steps = []
    for a, b, c, _, oa, ob, oc in cases:
        steps += [0, [a, oa, 1, 0], [b, ob, 2, 1], [c, oc, 3, 2], [b, ob, 0, 0], [c, oc, 0, 0]]
    answers = page_text(steps)
    bad, diffs = [], 0
    for k, (a, b, c, index, oa, ob, oc) in enumerate(cases):
        _, first, to_b, to_c, whole_b, whole_c = answers[6 * k:6 * k + 6]
        assert "diff" in to_b and "diff" in to_c and "diff" not in whole_b
        diffs += to_b["diff"]["del"] != 0 or to_b["diff"]["lines"] != 0
        got_b = FrameView.whole(first, index, 1, PREFIX).follow(to_b, 2, PREFIX)
        got_c = got_b.follow(to_c, 3, PREFIX)
        for want, got, name in ((FrameView.whole(whole_b, index, 2, PREFIX), got_b, "B"),
                                (FrameView.whole(whole_c, index, 3, PREFIX), got_c, "C")):
            what = next((w for w in ("text", "ids", "refs", "t2", "owners", "compact", "shape", "inline",
                                     "ref_lines", "long") if getattr(want, w) != getattr(got, w)), None)
            if what:
                bad.append(f"A={json.dumps(a)}\nB={json.dumps(b)}\nC={json.dumps(c)}\nindex={index} "
                           f"opts={oa} {ob} {oc}\n{name} {what}: whole {getattr(want, what)!r}\n"
                           f"followed {getattr(got, what)!r}")
                break
    assert diffs > len(cases) // 2
    assert not bad, f"{len(bad)} of {len(cases)} differ; first:\n" + "\n\n".join(bad[:3])
