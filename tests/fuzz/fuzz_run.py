"""Run a seeded action plan through verdex's own command runner and judge every result.

For each step: build the command line from the plan and the snapshots seen so far (refs from the
latest snapshot, from older ones: stale refs, from the refs an action's changes issued, or a target
by meaning), run it in-process with a hard bound (a command that outlives it is a hang), then ask
every document of the current tab for its settled state (a flush: the oracle answers once the
page's handlers are done, with probes of the ref's element), collect the oracle's events of the
command, and judge (fuzz_check). Every ref string is mapped to the element it named when it was
issued (its oracle id, read with `container`: the element's classes); a ref string that later names another element is a
violation of its own.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from fuzz_check import FALSE_OK, FALSE_REFUSAL, HANG, UNVERIFIED, VERDICTS, Evidence, doc_of, judge
from fuzz_plan import Step, make_plan

from verdex_cli.browser.session import Options, Session
from verdex_cli.commands.context import Workspace
from verdex_cli.commands.runner import execute

REF = re.compile(r"^c(\d+)p(\d+)f(\d+)e(\d+)$")
LINE_REF = re.compile(r"\[ref=(c\d+p\d+f\d+e\d+)\]")
TOKEN = re.compile(r"(?<![\w#])#([glu][A-Za-z0-9]+)")
RECORD_ROLES = ("listitem", "row", "article", "option", "treeitem")
_NOISE = ("path", "gen", "origin", "recv", "seq", "frames", "fields")
WALK = """(() => { let n = 0; const token = %s, probe = %s, moving = %s;
  (function walk(w, path) { n++; w.postMessage({__oracleFlush: token, probe, path, moving}, '*');
    for (let i = 0; i < w.length; i++) { try { walk(w[i], path.concat([i])); } catch (e) {} } })(window, []);
  return n; })()"""


@dataclass
class Case:
    index: int
    line: str
    verdict: str
    detail: str
    result: dict
    oracle: list = field(default_factory=list)

    def describe(self, seed: int) -> str:
        res = self.result
        summary = (f"ok {json.dumps({k: v for k, v in (res.get('result') or {}).items() if k not in ('changes', 'requests')})[:300]}"
                   if res.get("ok") else f"{(res.get('error') or {}).get('kind')}: {(res.get('error') or {}).get('message', '')[:300]}")
        lines = [f"seed {seed} action {self.index}: {self.line!r} -> {self.verdict}: {self.detail}", f"  result: {summary}"]
        shown = [r for r in self.oracle if r.get("type") != "mousemove"][:14]  # the page's log, less the noise
        lines += [f"  page: {json.dumps({k: v for k, v in r.items() if k not in _NOISE})[:400]}" for r in shown]
        return "\n".join(lines)


@dataclass
class Report:
    seed: int
    cases: list
    reissued: list
    history: list
    elapsed: float

    def counts(self) -> Counter:
        c = Counter({v: 0 for v in VERDICTS})
        c.update(case.verdict for case in self.cases)
        return c

    def bad(self, *verdicts: str) -> list:
        return [c for c in self.cases if c.verdict in verdicts]

    def summary(self) -> str:
        c = self.counts()
        return (f"seed {self.seed}: {len(self.cases)} actions in {self.elapsed:.0f} s: "
                + ", ".join(f"{k} {c[k]}" for k in VERDICTS) + f"; ref strings naming two elements {len(self.reissued)}")


class Fuzzer:
    def __init__(self, endpoint: str, server, seed: int, actions: int, timeout: float = 1.5):
        opts = Options(connect=endpoint, new_tab=True, timeout=timeout)
        self.ctx = Workspace(lambda: Session.start(opts))
        self.server, self.log, self.seed = server, server.log, seed
        self.plan = make_plan(seed, actions)
        self.hang_after = 3 * timeout + 8.0
        self.snaps: list[tuple[int, dict]] = []   # (page index, refs) of every snapshot, in order
        self.from_changes: dict[str, dict] = {}  # refs the last action's changes issued
        self.refmap: dict[str, dict] = {}         # ref string -> the element it names now: {"oid", "name"}
        self.reissued: list[str] = []
        self.cases: list[Case] = []
        self.history: list[str] = []
        self.dead: set[str] = set()               # documents that went away (pagehide, or absent from their tab)
        self.left_at: dict[str, float] = {}       # document -> when it last went away (pagehide), even if it came back
        self.doc_page: dict[str, int] = {}        # document -> the tab (page index) it was seen in
        self.doc_path: dict[str, tuple] = {}      # document -> (its tab, the frame path it last answered from)
        self.renewed: dict[str, float] = {}       # oid -> when the site last reused its node
        self.shown: dict[str, str | None] = {}    # ref -> the record (page model id) its line was last shown in
        self._seen = 0
        self.last_capture = 0.0                   # when the last capture (snapshot, action's changes) ended
        self._token = 0
        self.heard_all = True  # the last flush: every window of the tab answered, every record before it arrived

    # ------------------------------------------------------------ running
    def run(self) -> Report:
        start = time.monotonic()
        try:
            if not self._open_first():
                return Report(self.seed, self.cases, self.reissued, self.history, time.monotonic() - start)
            for step in self.plan:
                if not self._step(step):
                    break
        finally:
            if not any(c.verdict == HANG for c in self.cases):
                self.ctx.close()
        return Report(self.seed, self.cases, self.reissued, self.history, time.monotonic() - start)

    def _open_first(self) -> bool:
        """Open the chunk's first page (tried 3 times: a loaded machine may be slow to start the tab). Not
        opened: the chunk is one case, a hang (no answer in time) or unverified (refused), and ends."""
        line = f"open {self.server.page(self.seed, 0)}"
        for _ in range(3):
            first = self._bounded(line)
            if first is None:  # still running: no second command into the same session
                self.cases.append(Case(0, line, HANG, f"the chunk's first open: no answer within "
                                       f"{self.hang_after:.0f} s", {}))
                return False
            if first.ok:
                return True
        self.cases.append(Case(0, line, UNVERIFIED, "the chunk's first page did not open; its actions were not run",
                               first.as_json()))
        return False

    def _bounded(self, line: str):
        box: dict = {}
        th = threading.Thread(target=lambda: box.setdefault("out", execute(self.ctx, line)), daemon=True)
        th.start()
        th.join(self.hang_after)
        return box.get("out")

    def _step(self, step: Step) -> bool:
        line, ref, oid = self._line(step)
        self.history.append(line)
        mark = len(self.log)
        t0 = time.time() * 1000
        out = self._bounded(line)
        t1 = time.time() * 1000
        if out is None:
            self.cases.append(Case(step.index, line, HANG, f"no answer within {self.hang_after:.0f} s", {}))
            return False
        res = out.as_json()
        moving = "moving" in (res.get("error") or {}).get("message", "")
        flush = self._flush([oid] if oid else [], moving) if ref or step.op in ("meaning", "click", "dblclick", "wait") else {}
        self._note_records()
        during = [r for r in self.log.since(mark) if t0 - 5 <= r.get("at", 0) <= t1 + 5]
        events = [r for r in during if r.get("t") == "ev"]
        handled = [r for r in during if r.get("t") == "did"]
        evidence = self._evidence(step, line, ref, oid, events, flush)
        evidence.handled = handled
        evidence.heard_all = self.heard_all if flush else True
        verdict, detail = judge(evidence, res)
        if res.get("ok") and step.op in ("click", "dblclick", "meaning") and _unreported(self.log.since(mark), t0, t1, res):
            verdict, detail = FALSE_OK, "the page changed a text after its 100th character; the result reports no change"
        if verdict == FALSE_REFUSAL and "in view and not covered" in detail:
            verdict, detail = self._confirm_reachable(oid, flush, detail)
        oracle = events + handled + [r for r in flush.values() if oid and oid in (r.get("probes") or {})]
        self.cases.append(Case(step.index, line, verdict, detail, res, oracle))
        self._learn(line, res)
        if res.get("ok") and (line == "snapshot" or (res.get("result") or {}).get("changes")):
            self.last_capture = t1
        return True

    # ------------------------------------------------------------ choosing
    def _current_page(self) -> int | None:
        s = self.ctx.session
        return s.current[1] if s is not None else None

    def _pool(self, step: Step) -> list[tuple[str, dict]]:
        page = self._current_page()
        mine = [refs for p, refs in self.snaps if p == page] or [refs for _, refs in self.snaps]
        if not mine:
            return []
        if step.source == "older" and len(self.snaps) > 1:
            refs = self.snaps[max(0, len(self.snaps) - 1 - step.extra.get("back", 1))][1]
        elif step.source == "changes" and self.from_changes:
            refs = self.from_changes
        else:
            refs = mine[-1]
        return list(refs.items())

    def _pick(self, step: Step) -> tuple[str, dict] | None:
        pool = self._pool(step)
        if step.roles:
            pool = [p for p in pool if p[1].get("role") in step.roles] or pool
        return pool[int(step.u * len(pool))] if pool else None

    def _line(self, step: Step) -> tuple[str, str | None, str | None]:
        """The command line, the ref it uses and the element that ref named in the snapshot (or
        changes) it was taken from."""
        picked = None
        if step.op in ("click", "dblclick", "hover", "fill", "type", "press", "select", "check", "uncheck", "focus",
                       "scroll", "wait"):
            picked = self._pick(step)
        line, ref = self._line_for(step, picked)
        oid = (picked[1].get("oid") or self.refmap.get(ref, {}).get("oid")) if ref and picked else None
        return line, ref, oid

    def _line_for(self, step: Step, picked) -> tuple[str, str | None]:
        op = step.op
        if op == "snapshot":
            return "snapshot", None
        if op == "poke":
            return f"eval window.__site && __site.poke({step.arg})", None
        if op == "open":
            return f"open {self.server.page(self.seed, int(step.arg))}", None
        if op in ("back", "forward"):
            return op, None
        if op == "tab":
            pages = sorted(i for (_, i) in self.ctx.session.pages) if self.ctx.session else [0]
            cur = self._current_page()
            others = [p for p in pages if p != cur]
            if step.arg == "close" and others and len(pages) > 2:
                return f"tab close {others[int(step.u * len(others))]}", None
            return f"tab {pages[int(step.u * len(pages))]}", None
        if op == "wait" and step.arg in ("ms", "text"):
            return ("wait 60" if step.arg == "ms" else "wait text Shop"), None
        if op == "meaning":
            names = sorted({i["name"] for _, i in self._pool(Step(0, "x")) if i.get("role") == "button" and i.get("name")})
            if not names:
                return "snapshot", None
            step.arg = names[int(step.u * len(names))]
            return f'{step.extra["how"]} "button:{step.arg}"', None
        if op == "press" and step.extra.get("focused"):
            return f"press {step.arg}", None
        if op == "scroll" and step.arg in ("up", "down"):
            return f"scroll {step.arg}", None
        if picked is None:
            return "snapshot", None
        ref = picked[0]
        if op in ("fill", "type"):
            return f'{op} {ref} {step.arg if step.arg else chr(34) * 2}', ref
        if op == "press":
            return f"press {ref} {step.arg}", ref
        if op == "select":
            return f'select {ref} "{step.arg}"', ref
        if op == "wait":
            return (f"wait gone {ref}" if step.arg == "gone" else f"wait {ref}"), ref
        return f"{op} {ref}", ref

    # ------------------------------------------------------------ the oracle
    def _flush(self, probe: list[str], moving: bool = False) -> dict[str, dict]:
        """Every document of the current tab, settled: {doc: its flush record}."""
        self._token += 1
        token = f"{self.seed}:{self._token}"
        try:
            expected = int(self.ctx.page.evaluate(WALK % (json.dumps(token), json.dumps(probe), json.dumps(moving)), timeout=3.0) or 0)
        except Exception:  # the page is gone or busy: no answers
            return {}
        got: dict[str, dict] = {}

        def done(recs):
            for r in recs[done.i:]:
                if r.get("t") == "flush" and r.get("token") == token:
                    got[r["doc"]] = r
            done.i = len(recs)
            return len(got) >= expected
        done.i = 0
        complete = self.log.wait_for(done, 2.5)
        self.heard_all = complete
        page = self._current_page()
        answered = {str(d) for d in got}
        for d, f in got.items():
            self.doc_path[str(d)] = (page, tuple(f.get("path") or ()))
        self.dead -= answered  # a document back from the back/forward cache lives again
        if complete and got:  # every window of this tab answered: its other documents are gone
            self.dead.update(d for d, p in self.doc_page.items() if p == page and d not in answered)
        # every record a document sent before its answer has arrived too (beacons may overtake)
        arrived = self.log.wait_for(lambda recs: all(self._complete(d, f["seq"], recs) for d, f in got.items()), 1.0)
        self.heard_all = complete and arrived
        return got

    @staticmethod
    def _complete(doc: str, upto: int, recs: list) -> bool:
        return len({r["seq"] for r in recs if r.get("doc") == doc and r.get("seq", 0) <= upto}) >= upto

    def _note_records(self) -> None:
        recs = self.log.since(self._seen)
        self._seen += len(recs)
        for r in recs:
            if r.get("t") == "bye":
                self.dead.add(str(r["doc"]))
                self.left_at[str(r["doc"])] = r.get("at", 0)
            elif r.get("t") == "renew":
                self.renewed[r["oid"]] = r["at"]

    def _evidence(self, step, line, ref, oid, events, flush) -> Evidence:
        doc = doc_of(oid)
        rec = next((f for f in flush.values() if str(f["doc"]) == doc), None)
        probe = (rec.get("probes") or {}).get(oid) if rec else None
        if probe and rec.get("active") == oid:  # the document's focused element, read once its handlers ran
            probe["focused"] = True
        m = REF.match(ref or "")
        info = self.refmap.get(ref, {}) if ref else {}
        return Evidence(
            op=step.op, line=line, ref=ref, oid=oid, ref_name=info.get("name", ""), ref_role=info.get("role", ""),
            arg=step.arg, events=events,
            probe=probe if probe and probe.get("known") else (None if rec is None else {"known": False, "connected": False}),
            settled=bool(rec and rec.get("settled")), doc_gone=doc in self.dead,
            visibility=rec.get("visibility", "visible") if rec else "visible",
            renewed=oid in self.renewed and self.renewed[oid] >= info.get("mapped_at", 0),
            shown_rec=self.shown.get(ref) if ref else None,
            left_since=self.left_at.get(doc, -1) >= info.get("mapped_at", 0),
            page_of_ref=int(m.group(2)) if m else None, current_page=self._current_page(),
            inside=self._inside(rec, probe),
            text_shown=None if any(f.get("modal") for f in flush.values()) or not flush
            else any(f.get("shop") for f in flush.values()))

    def _inside(self, rec: dict | None, probe: dict | None) -> tuple[set, set] | None:
        """For an iframe: (the documents of this tab known to be in the frame it shows, at any depth;
        the tab's other known documents); None when its frame's place is not known."""
        if not rec or not probe or probe.get("win") is None:
            return None
        child = tuple(rec.get("path") or ()) + (probe["win"],)
        page = self._current_page()
        mine = {d: p for d, (pg, p) in self.doc_path.items() if pg == page}
        inside = {d for d, p in mine.items() if p[:len(child)] == child}
        return inside, set(mine) - inside

    def _confirm_reachable(self, oid: str, flush: dict, detail: str) -> tuple[str, str]:
        """A refusal for 'covered' or 'outside the viewport' is false only when a real pointer moved to
        the element's centre (translated through every frame above it) reaches the element."""
        point = self._clearly_visible(oid, flush)
        if point is None:
            return UNVERIFIED, "its frame may be out of view or covered in a parent document"
        mark = len(self.log)
        try:  # from elsewhere, so that arriving there makes a mouseover even if the pointer was there
            for x, y in ((1, 1), point):
                self.ctx.page.target.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, timeout=3.0)
        except Exception:
            return UNVERIFIED, "could not move the pointer to confirm"
        # the move is confirmed by the oracle's own event (or, when the pointer already was there, by :hover)
        if self.log.wait_for(lambda recs: any(r.get("t") == "ev" and r.get("type") == "mouseover" and oid in (r.get("path") or [])
                                              for r in recs[mark:]), 1.5):
            return FALSE_REFUSAL, detail + f"; a real pointer at ({point[0]:.0f}, {point[1]:.0f}) reaches it"
        again = self._flush([oid])
        rec = next((f for f in again.values() if str(f["doc"]) == doc_of(oid)), None)
        if rec and (rec.get("probes", {}).get(oid) or {}).get("hover"):
            return FALSE_REFUSAL, detail + f"; a real pointer at ({point[0]:.0f}, {point[1]:.0f}) is over it"
        return UNVERIFIED, "a real pointer at its centre does not reach it"

    def _clearly_visible(self, oid: str | None, flush: dict) -> tuple[float, float] | None:
        """The element's centre in the tab's viewport, when it is in view and reaches its own frame in
        every document above it; else None."""
        rec = next((f for f in flush.values() if str(f["doc"]) == doc_of(oid)), None)
        if rec is None:
            return None
        p = rec["probes"].get(oid) or {}
        x, y, w, h = p.get("rect") or [0, 0, 0, 0]
        x, y = x + w / 2, y + h / 2
        path = rec.get("path") or []
        by_path = {tuple(f.get("path") or []): f for f in flush.values()}
        for k in range(len(path), 0, -1):
            parent = by_path.get(tuple(path[:k - 1]))
            if parent is None or path[k - 1] >= len(parent.get("frames") or []):
                return None
            fv = parent["frames"][path[k - 1]]
            bx, by, bw, bh = fv["box"]
            if not fv["full"] or fv["inert"] or not (0 <= x < bw and 0 <= y < bh):
                return None
            if not fv["grid"][min(3, int(y * 4 / bh))][min(5, int(x * 6 / bw))]:
                return None
            x, y = x + bx, y + by
        return x, y

    # ------------------------------------------------------------ refs -> elements
    def _learn(self, line: str, res: dict) -> None:
        result = res.get("result") or {}
        if line == "snapshot" and res.get("ok"):  # (also a step with nothing to pick: its line is 'snapshot')
            refs = result.get("refs") or {}
            self.snaps.append((self._current_page(), refs))
            self._map(refs)
            self.shown.update(records_of(result.get("text") or "", refs))
        changes = result.get("changes") or {}
        added = {i["ref"]: dict(i) for i in changes.get("added", []) if i.get("ref")}
        if added:
            self.from_changes = added
            self._map(added)
        named = {i["ref"] for k in ("added", "changed") for i in changes.get(k, []) if i.get("ref")}
        if named:
            self._shown_in_changes(named)
        if result.get("ref") and result["ref"] not in self.refmap:
            self._map({result["ref"]: {"role": result.get("role"), "name": result.get("name", "")}})

    def _shown_in_changes(self, refs: set) -> None:
        """A change line shows its ref's element where it stands now: ask the page's model which record
        that element belongs to (a change line carries no row of its own)."""
        oids = {r: self.refmap[r]["oid"] for r in refs if r in self.refmap}
        answers = self._flush(list(oids.values())) if oids else {}
        probes = {k: v for f in answers.values() for k, v in (f.get("probes") or {}).items()}
        for ref in refs:
            p = probes.get(oids.get(ref, ""))
            self.shown[ref] = p.get("rec") if p and p.get("known") else None

    def _map(self, refs: dict) -> None:
        """Read the oracle id of each ref's element the first time the ref string is seen, or again
        when the document it was mapped in went away (a re-issued string then names a new element).
        Each ref's info (in the snapshot or changes it came from) keeps the element it named then."""
        self._note_records()
        for ref, info in refs.items():
            known = self.refmap.get(ref)
            if known and doc_of(known["oid"]) not in self.dead:
                known["name"] = info.get("name", known["name"])
                info["oid"] = known["oid"]
                continue
            out = self._bounded(f"container {ref}")
            if out is None or not out.ok or not out.result.data.get("chain"):
                continue
            oid = next((c for c in out.result.data["chain"][0].get("classes") or [] if c.startswith("oid-")), None)
            if oid is None:
                continue
            info["oid"] = oid
            m = REF.match(ref)
            if m:
                self.doc_page.setdefault(doc_of(oid), int(m.group(2)))
            if known and known["oid"] != oid:
                # an action through this string taken from an older snapshot must still not land here
                self.reissued.append(f"seed {self.seed} after action {len(self.cases) - 1} ({self.history[-1]!r}): ref {ref} "
                                     f"named {known['oid']} ({known['name']!r}), now names {oid} ({info.get('name')!r})")
            self.refmap[ref] = {"oid": oid, "name": info.get("name", ""), "role": info.get("role", ""),
                                "mapped_at": time.time() * 1000}


def records_of(text: str, refs: dict) -> dict[str, str | None]:
    """ref -> the record its snapshot line stands in: the model id (`#ID` in the page's text) in the
    lines of its nearest record ancestor (a list item, row, article, option, tree item), or None."""
    lines = text.split("\n")
    depth = [len(x) - len(x.lstrip(" ")) for x in lines]
    out: dict[str, str | None] = {r: None for r in refs}
    for i, line in enumerate(lines):
        m = LINE_REF.search(line)
        if not m:
            continue
        anc, d = i, depth[i] + 1
        while anc >= 0:  # the line itself, then each ancestor
            if depth[anc] < d:
                d = depth[anc]
                if lines[anc].lstrip(" ")[2:].split(" ", 1)[0].rstrip(":") in RECORD_ROLES:
                    end = anc + 1
                    while end < len(lines) and depth[end] > d:
                        end += 1
                    found = {t for x in lines[anc:end] for t in TOKEN.findall(x)}
                    out[m.group(1)] = found.pop() if len(found) == 1 else None
                    break
            anc -= 1
    return out


def _unreported(records: list, t0: float, t1: float, res: dict) -> bool:
    """The page noted a change of a long text's tail during the command, and the result lists none."""
    flips = [r for r in records if r.get("t") == "note" and r.get("what") == "long" and t0 - 5 <= r.get("at", 0) <= t1 + 5]
    if len(flips) % 2 == 0:  # none, or back to the text it had
        return False
    changes = (res.get("result") or {}).get("changes") or {}
    return not any(changes.get(k) for k in ("added", "removed", "changed"))
