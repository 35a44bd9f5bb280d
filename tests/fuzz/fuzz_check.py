"""Judge one command's result against the oracle's log.

Verdicts: ``correct``, ``refused correctly``, ``wrong record`` (an effect landed on another record
than the one the ref's line was last shown in, by the page's own model: the row for Zoe, the route of
Alice; or, outside any record, on another element than the ref's), ``false ok`` (ok, but the effect
did not happen, or the value or state the result reports is not the page's settled one), ``false
failure`` (an error, yet the page's log shows the whole effect happened on the record the user saw),
``false refusal`` (a refusal whose reason the page's real state contradicts: e.g. `changed` while the
element still stands in the record the user saw), ``hang`` (set by the runner) and ``unverified`` (the oracle has no
evidence either way: the ref was never mapped to an element, the element's document did not answer,
or the reason names something the oracle cannot see, such as a frame's position in its parent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

CORRECT = "correct"
REFUSED_OK = "refused correctly"
WRONG = "wrong record"
FALSE_OK = "false ok"
FALSE_FAILURE = "false failure"
FALSE_REFUSAL = "false refusal"
HANG = "hang"
UNVERIFIED = "unverified"
VERDICTS = (CORRECT, REFUSED_OK, WRONG, FALSE_OK, FALSE_FAILURE, FALSE_REFUSAL, HANG, UNVERIFIED)
ACTS = ("click", "dblclick", "check", "uncheck", "hover", "fill", "type", "press", "select", "focus")
EFFECT = ("click", "dblclick", "input", "change", "keydown")  # the events that do something to a record

SELECT_LABELS = {"Small": "s", "Medium": "m", "Large (out of stock)": "out"}
TEXT_TAGS = ("textarea",)
TEXT_TYPES = ("text", "search", "email", "url", "tel", "password", "number", "")


@dataclass
class Evidence:
    """What the oracle knows about one command."""

    op: str
    line: str
    ref: str | None
    oid: str | None                   # the element the ref was issued for (physical id)
    ref_name: str = ""                # its name in the snapshot that last showed it
    ref_role: str = ""                # its role there
    arg: str = ""
    events: list = field(default_factory=list)      # oracle 'ev' records during the command
    probe: dict | None = None         # the oracle's probe of oid after the command (None: no answer)
    settled: bool = True              # the oid's document settled before answering
    doc_gone: bool = False            # the oid's document went away (pagehide)
    renewed: bool = False             # the oid's node was reused for another item after the ref was issued
    shown_rec: str | None = None      # the record (page model id) the ref's line was last shown in
    handled: list = field(default_factory=list)     # oracle 'did' records: events the page's handlers got
    left_since: bool = False          # the oid's document went away after the ref was issued (it may be back,
    #                                   from the back/forward cache: the ref is then of an earlier visit)
    visibility: str = "visible"       # the document's visibilityState when it answered
    page_of_ref: int | None = None
    current_page: int | None = None
    inside: tuple | None = None       # an iframe: (documents in the frame it shows, the tab's other documents)
    text_shown: bool | None = None    # 'wait text Shop': a document of the tab shows it (None: not known)
    heard_all: bool = True            # every window of the tab answered the flush, with every record it sent
    #                                   before (False: a window without the oracle, or records still on the way)


def doc_of(oid: str | None) -> str | None:
    return oid.split("-")[1] if oid else None


def _trusted(ev: Evidence, *types: str) -> list[dict]:
    return [e for e in ev.events if e["type"] in types and e.get("trusted")]


def _overs(ev: Evidence) -> list[dict]:
    """The command's trusted mouseovers in the order they happened (documents log them out of order)."""
    return sorted(_trusted(ev, "mouseover"), key=lambda e: e.get("at", 0))


def _flickers(ev: Evidence) -> bool:
    """During the command the pointer came onto the element, left it and came back (a carousel sweeping
    over it while the pointer stays): whether it is under the pointer is a matter of the moment one looks."""
    state = 0  # 0: not yet on it, 1: on it, 2: left it after
    for e in _overs(ev):
        on = _on(e, ev.oid)
        if on and state == 2:
            return True
        state = 1 if on else (2 if state else 0)
    return False


def _on(e: dict, oid: str) -> bool:
    return oid in (e.get("path") or [])


def judge(ev: Evidence, out: dict) -> tuple[str, str]:
    # (a refused hover's pointer may pass over other rows on its way: no effect there)
    if ev.op in ACTS and ev.shown_rec is not None and (out.get("ok") or ev.op != "hover"):
        other = _other_record(ev)
        if other is not None:
            what = (other.get("ctl") or {}).get("text", other.get("text", ""))
            return WRONG, (f"the page handled a trusted {other['type']} in record {other.get('rec')!r} "
                           f"({what!r}); the ref was last shown in {ev.shown_rec!r}")
    if out.get("ok"):
        return _judge_ok(ev, out.get("result") or {})
    err = out.get("error") or {}
    kind = err.get("kind", "")
    if kind not in ("usage", "js_error", "no_match", "ambiguous", "invalid_ref") and _effect_done(ev):
        return FALSE_FAILURE, f"{kind}, but the page's log shows the {ev.op} happened on {ev.shown_rec or ev.oid}"
    return _judge_refusal(ev, kind, err.get("message", ""))


def _other_record(ev: Evidence) -> dict | None:
    """The first trusted event of the command that did something to another record than the one shown
    (in the ref's own document; the hover's last pointer event)."""
    doc = doc_of(ev.oid)
    if ev.op == "hover":
        hits = _overs(ev)[-1:]
    else:
        hits = [e for e in ev.handled if e.get("trusted") and e["type"] in EFFECT]
    for e in hits:
        if doc is not None and str(e.get("doc")) == doc and e.get("rec") not in (None, ev.shown_rec):
            return e
    return None


def _effect_done(ev: Evidence) -> bool:
    """The whole effect of an action that reported an error is in the page's log: the click (double
    click) reached the ref's element in the record shown, or the box ended as asked after a trusted
    click on it, or the text went into the field (typed: each of its characters)."""
    mine = [e for e in ev.handled if e.get("trusted") and ev.oid and _on(e, ev.oid)
            and (ev.shown_rec is None or e.get("rec") == ev.shown_rec)]
    types = [e["type"] for e in mine]
    if ev.op == "dblclick":  # both clicks and the dblclick (a press another frame took: one click only)
        return "dblclick" in types and types.count("click") >= 2
    if ev.op == "click":
        return "click" in types
    if ev.op in ("check", "uncheck"):
        state = (ev.probe or {}).get("state") or {}
        return "click" in types and state.get("c") == (ev.op == "check") and (ev.probe or {}).get("type") == "checkbox"
    if ev.op == "type":  # every character (a field removed after 2 of 4: part of it)
        return types.count("input") >= max(1, len(ev.arg or ""))  # (typing "": no effect to have happened)
    return ev.op == "fill" and "input" in types


# ---------------------------------------------------------------- ok results

def _landing(ev: Evidence, types: tuple, need: bool = True) -> tuple[str, str] | None:
    """Trusted events of `types` during the command must all be on the ref's element (or inside it)."""
    hits = _trusted(ev, *types)
    field = (ev.probe or {}).get("field")  # a field the page re-rendered: its replacements are the same field
    stray = [e for e in hits if not _on(e, ev.oid) and not (field and e.get("field") == field)]
    if stray:
        e = stray[0]
        return WRONG, f"trusted {e['type']} on {e['oid']} ({(e.get('ctl') or {}).get('text', '')!r}), not on {ev.oid}"
    if need and not hits:
        return FALSE_OK, f"no trusted {'/'.join(types)} reached {ev.oid}"
    return None


def _judge_ok(ev: Evidence, res: dict) -> tuple[str, str]:
    op = ev.op
    if op == "meaning":
        return _judge_meaning(ev)
    if op in ("click", "dblclick", "check", "uncheck", "hover", "fill", "type", "press", "select", "focus",
              "scroll", "wait") and ev.ref is None:
        return CORRECT, ""  # 'press KEY', 'scroll up': nothing to pin down
    if op not in ("click", "dblclick", "check", "uncheck", "hover", "fill", "type", "press", "select", "focus",
                  "scroll", "wait"):
        return CORRECT, ""
    if ev.oid is None:
        return UNVERIFIED, "the ref was never mapped to an element"
    if ev.ref_role == "iframe" and op in ("click", "dblclick", "hover") and ev.inside is not None:
        return _judge_inside(ev, res)
    if ev.ref_role == "iframe" and op in ("click", "dblclick", "hover", "press", "type", "fill"):
        return UNVERIFIED, "a pointer or key action on an iframe lands in its document"
    if op == "wait":
        return _judge_wait_ok(ev)
    if op in ("click", "check", "uncheck"):
        bad = _landing(ev, ("click",), need=op == "click")  # check/uncheck of a box already so: no click
        if bad or op == "click":
            return bad or (CORRECT, "")
    if op == "dblclick":
        return _landing(ev, ("click", "dblclick")) or _landing(ev, ("dblclick",)) or (CORRECT, "")
    if op == "hover":
        overs = _overs(ev)
        if overs and _on(overs[-1], ev.oid):
            return CORRECT, ""
        if ev.probe and ev.probe.get("hover"):
            return CORRECT, ""
        if ev.probe is None:
            return UNVERIFIED, "the element's document did not answer"
        if _flickers(ev):
            return UNVERIFIED, f"the page moved something over {ev.oid} and off it again (where the pointer ends is a moment's)"
        return FALSE_OK, f"the pointer is not over {ev.oid} (last trusted mouseover: {overs[-1]['oid'] if overs else None})"
    if op in ("fill", "type"):
        bad = _landing(ev, ("input", "keydown"), need=False)
        if bad:
            return bad
        return _judge_value(ev, res)
    if op == "press":
        return _landing(ev, ("keydown",)) or (CORRECT, "")
    if op == "focus":
        if any(e["type"] == "focusin" and e["oid"] == ev.oid for e in ev.events):
            return CORRECT, ""
        if ev.probe is None:
            return UNVERIFIED, "the element's document did not answer"
        return (CORRECT, "") if ev.probe.get("focused") else (FALSE_OK, f"focus is not on {ev.oid}")
    if op == "scroll":
        if ev.probe is None:
            return UNVERIFIED, "the element's document did not answer"
        return (CORRECT, "") if ev.probe.get("inView") or ev.probe.get("hidden") is False and ev.probe.get("zero") \
            else (FALSE_OK, f"{ev.oid} is not in its viewport after scroll")
    if op == "select":
        return _judge_select(ev, res)
    return _judge_checked(ev, res)


def _in_frame(ev: Evidence, *types: str) -> tuple[list, list, list]:
    """Trusted events of ``types`` during the command: (in a document of the iframe's frame, in
    another known document of the tab, in a document whose place is not known)."""
    inside, others = ev.inside
    hits = _trusted(ev, *types)
    return ([e for e in hits if str(e.get("doc")) in inside], [e for e in hits if str(e.get("doc")) in others],
            [e for e in hits if str(e.get("doc")) not in inside and str(e.get("doc")) not in others])


def _last_pointer(ev: Evidence) -> dict | None:
    """The last trusted mousemove or mouseover of the command (a renderer's own hover update after a
    scroll, with the pointer's place it last knew, can come before the move that really went elsewhere)."""
    moves = sorted(_trusted(ev, "mouseover", "mousemove"), key=lambda e: e.get("at", 0))
    return moves[-1] if moves else None


def _pointer_inside(ev: Evidence, e: dict) -> bool:
    return str(e.get("doc")) in ev.inside[0] or _on(e, ev.oid)


def _judge_inside(ev: Evidence, res: dict) -> tuple[str, str]:
    """An ok click, double click or hover on an iframe: the input landed in a document of the frame it
    shows (where events go), nowhere else."""
    kind = {"click": "click", "dblclick": "dblclick", "hover": "mouseover"}[ev.op]
    if ev.op == "hover":  # where the pointer went last (the iframe itself, in its parent, gets a mouseover
        #                   as the pointer enters its frame)
        last = _last_pointer(ev)
        if last is not None and _pointer_inside(ev, last):
            return CORRECT, ""
        if ev.probe and ev.probe.get("hover"):
            return CORRECT, ""
        if last is None:
            return UNVERIFIED, "no pointer event at all"
        return FALSE_OK, (f"the last trusted {last['type']} went to {last['oid']} in document {last.get('doc')}, "
                          f"outside the frame {ev.oid} shows")
    inside, stray, unknown = _in_frame(ev, "click", "dblclick")
    if stray:
        e = stray[0]
        return WRONG, f"trusted {e['type']} on {e['oid']} in document {e.get('doc')}, outside the frame {ev.oid} shows"
    if any(e["type"] == kind for e in inside):
        return CORRECT, ""
    if unknown:
        return UNVERIFIED, f"a trusted {unknown[0]['type']} in document {unknown[0].get('doc')}, whose place is not known"
    if "navigated away" in " ".join((res or {}).get("notes") or []):
        return UNVERIFIED, "the frame's document went away: its events may be lost"
    if not ev.heard_all:
        return UNVERIFIED, "a window of the tab did not answer the oracle (or its records had not all arrived)"
    return FALSE_OK, f"no trusted {kind} reached a document of the frame {ev.oid} shows"


def _unanswered(ev: Evidence, settled: bool = True) -> tuple[str, str] | None:
    """Why a field's settled state cannot be judged (no probe of it; the page still moving), or None."""
    if ev.probe is None or "state" not in ev.probe:
        return UNVERIFIED, "the element's document did not answer"
    if settled and not ev.settled:
        return UNVERIFIED, "the page had not settled (a background tab runs no animation frames)"
    return None


def _judge_value(ev: Evidence, res: dict) -> tuple[str, str]:
    if (why := _unanswered(ev)) is not None:
        return why
    have = ev.probe["state"].get("v")
    said = res.get("value")
    if said != have:
        return FALSE_OK, f"result value {said!r}, but the field settled at {have!r}"
    return CORRECT, ""


def _judge_select(ev: Evidence, res: dict) -> tuple[str, str]:
    if (why := _unanswered(ev, settled=False)) is not None:
        return why
    have = ev.probe["state"].get("v")
    asked = SELECT_LABELS.get(ev.arg, ev.arg)
    if res.get("value") != have:
        return FALSE_OK, f"result value {res.get('value')!r}, but the select settled at {have!r}"
    if have != asked:
        return FALSE_OK, f"asked {asked!r}, the select settled at {have!r}, yet the result is ok"
    return CORRECT, ""


def _judge_checked(ev: Evidence, res: dict) -> tuple[str, str]:
    if (why := _unanswered(ev)) is not None:
        return why
    have = ev.probe["state"].get("c")
    asked = ev.op == "check"
    if res.get("checked") != have:
        return FALSE_OK, f"result checked={res.get('checked')}, but the box settled at {have}"
    if have != asked and ev.probe.get("type") == "checkbox":
        return FALSE_OK, f"asked checked={asked}, the box settled at {have}, yet the result is ok"
    return CORRECT, ""


def _judge_wait_ok(ev: Evidence) -> tuple[str, str]:
    # inert behind a modal dialog counts as hidden, as in the timeout judgement below and in snapshots
    gone = ev.doc_gone or (ev.probe is not None and (not ev.probe.get("connected") or ev.probe.get("hidden")
                                                     or ev.probe.get("inert")))
    if ev.arg == "gone":
        return (CORRECT, "") if gone or ev.probe is None else (FALSE_OK, f"{ev.oid} is still there and visible")
    if ev.arg == "ref":
        if ev.probe is None:
            return UNVERIFIED, "the element's document did not answer"
        return (FALSE_OK, f"{ev.oid} is gone or hidden") if gone else (CORRECT, "")
    return CORRECT, ""


def _judge_meaning(ev: Evidence) -> tuple[str, str]:
    name = ev.arg.lower()
    kind = "click" if ev.line.startswith("click") else "mouseover"
    hits = _trusted(ev, kind)
    if kind == "mouseover":
        return (CORRECT, "") if not hits or any(name in ((e.get("ctl") or {}).get("text", "").lower()) for e in hits) \
            else (UNVERIFIED, "no mouseover on a control of that name (the pointer may already be there)")
    if not hits:
        return FALSE_OK, f"no trusted click during {ev.line!r}"
    for e in hits:
        text = ((e.get("ctl") or {}).get("text") or "").lower()
        if name not in text:
            return WRONG, f"trusted click on {e['oid']} ({text!r}), not a control named {ev.arg!r}"
    return CORRECT, ""


# ---------------------------------------------------------------- refusals

_FIELD_REFUSAL = re.compile(r"Use '(check|click|select|upload|fill)'|read-only|not a text|not an editable field|cannot be (filled|typed)|"
                            r"not a (checkbox|select)|is not editable|takes no text|does not take", re.I)


def _judge_refusal(ev: Evidence, kind: str, msg: str) -> tuple[str, str]:
    p = ev.probe
    if kind == "internal":  # never a true answer, whatever the page did
        return FALSE_REFUSAL, f"internal error: {msg[:120]}"
    if kind in ("usage", "js_error", "no_match", "ambiguous"):
        return REFUSED_OK, ""  # the fuzzer's own line or the page state; nothing an element could contradict
    if kind == "navigation_failed" and ev.op in ("back", "forward"):
        return REFUSED_OK, ""
    if kind in ("page_mismatch", "context_mismatch"):
        ok = ev.page_of_ref is not None and ev.page_of_ref != ev.current_page
        return (REFUSED_OK, "") if ok else (FALSE_REFUSAL, "the ref is of the current page")
    if kind == "timeout" and ev.op == "wait" and ev.line == "wait text Shop":
        if ev.text_shown is None:
            return UNVERIFIED, "the tab's documents did not answer (or a modal dialog hides the page)"
        return (FALSE_FAILURE, "a document of the tab shows the text") if ev.text_shown else (REFUSED_OK, "")
    if kind == "timeout" and ev.op != "wait":  # the generated pages never run a long script
        return FALSE_REFUSAL, f"unexpected timeout: the page runs no long script (document {ev.visibility})"
    if ev.ref is None:
        return UNVERIFIED, "no element to check the reason against"
    if ev.oid is None:
        return UNVERIFIED, "the ref was never mapped to an element"
    if kind == "unknown_ref":
        return FALSE_REFUSAL, f"'never issued' is false: it was issued for {ev.oid}"
    if kind == "navigated":  # the contract: a ref of a document the frame left is navigated for good,
        # also when that document comes back from the back/forward cache
        return (REFUSED_OK, "") if ev.doc_gone or ev.left_since else (
            FALSE_REFUSAL, f"the document of {ev.oid} is still there and never left")
    if kind == "removed":
        if ev.doc_gone or (p is not None and not p.get("connected")):
            return REFUSED_OK, ""
        if p is None:
            return UNVERIFIED, "the element's document did not answer"
        return FALSE_REFUSAL, f"{ev.oid} is still in its document"
    if kind == "changed":
        if ev.doc_gone:
            return REFUSED_OK, ""
        if ev.shown_rec is not None and p is not None and p.get("known"):
            if p.get("rec") != ev.shown_rec:
                return REFUSED_OK, ""
            if ev.ref_name and ev.ref_name.lower() in (p.get("text") or "").lower():
                return FALSE_REFUSAL, f"{ev.oid} still stands in record {ev.shown_rec!r}, its name unchanged"
        if ev.renewed:
            return REFUSED_OK, ""
        if p is not None and ev.ref_name and ev.ref_name.lower() not in (p.get("text") or "").lower():
            return REFUSED_OK, ""  # its text no longer holds the name it had
        if p is None:
            return UNVERIFIED, "the element's document did not answer"
        return REFUSED_OK if "Its " in msg else FALSE_REFUSAL, f"the oracle saw no change of {ev.oid} ({p.get('text')!r})"
    if kind in ("not_applied", "not_actionable") and ev.ref_role == "iframe" and ev.inside is not None \
            and ev.op in ("click", "dblclick", "hover") and not _FIELD_REFUSAL.search(msg):
        verdict = _judge_inside_refusal(ev, kind, msg)
        if verdict is not None:
            return verdict
    if kind == "not_applied" and ev.op == "hover":
        # "not under the pointer": judged by where the pointer ended, as an ok hover is (a page that moves
        # something over the element a moment after the move took the hover away: an ok would be false)
        overs = _overs(ev)
        there = _on(overs[-1], ev.oid) if overs else bool(p and p.get("hover"))
        if _flickers(ev):
            return UNVERIFIED, f"the page moved something over {ev.oid} and off it again"
        return (FALSE_REFUSAL, f"the pointer ended over {ev.oid}") if there else (REFUSED_OK, "")
    if kind == "not_applied" and ev.op in ("click", "dblclick"):
        # part of the input reached the element (the press, or the first click), then the page moved it; or
        # only the release did (the press went to something the page moved away): no click, nothing done
        got = [e["type"] for e in _trusted(ev, "mousedown", "mouseup", "click") if _on(e, ev.oid)]
        if got and "mousedown" not in got and "click" not in got and "only the release" not in msg:
            return FALSE_REFUSAL, f"only the release reached {ev.oid}; the refusal says otherwise"
        return (REFUSED_OK, "") if got else (FALSE_REFUSAL, f"no trusted input reached {ev.oid}")
    if kind == "not_applied":
        if p is None or "state" not in p:
            return UNVERIFIED, "the element's document did not answer"
        st = p["state"]
        if ev.op in ("check", "uncheck"):
            return (REFUSED_OK, "") if st.get("c") != (ev.op == "check") else (FALSE_REFUSAL, f"the box is {st.get('c')} as asked")
        if ev.op == "select":
            return (REFUSED_OK, "") if st.get("v") != SELECT_LABELS.get(ev.arg, ev.arg) else (FALSE_REFUSAL, "the select holds the value asked")
        return UNVERIFIED, ""
    if kind == "not_actionable":
        return _judge_not_actionable(ev, msg)
    if kind == "timeout" and ev.op == "wait":
        if p is None:
            return UNVERIFIED, "the element's document did not answer"
        gone = not p.get("connected") or p.get("hidden") or p.get("inert")
        if ev.arg == "gone":
            return (FALSE_REFUSAL, f"{ev.oid} is gone or hidden") if gone else (REFUSED_OK, "")
        return (REFUSED_OK, "") if gone else (FALSE_REFUSAL, f"{ev.oid} is visible")
    return FALSE_REFUSAL, f"unexpected {kind}"


def _judge_inside_refusal(ev: Evidence, kind: str, msg: str) -> tuple[str, str] | None:
    """A refusal of a click, double click or hover on an iframe, judged by what reached the documents
    of the frame it shows (None: judged as for any element, e.g. covered in its own document)."""
    whole = {"click": "click", "dblclick": "dblclick", "hover": "mouseover"}[ev.op]
    inside, _stray, _unknown = _in_frame(ev, "mousedown", "mouseup", "click", "dblclick", "mouseover")
    if ev.op == "hover" and "not under the pointer" in msg:  # where the pointer went last
        last = _last_pointer(ev)
        return (FALSE_REFUSAL, f"the last trusted {last['type']} went into the frame {ev.oid} shows") if (
            last is not None and _pointer_inside(ev, last)) else (REFUSED_OK, "")
    if "not under the pointer" in msg:  # nothing pressed: no click may have reached the frame's documents
        return (FALSE_REFUSAL, f"a trusted {whole} reached the frame {ev.oid} shows") if any(
            e["type"] == whole for e in inside) else (REFUSED_OK, "")
    if kind == "not_applied":
        if any(e["type"] == whole for e in inside) and "clicked once" not in msg:
            return FALSE_REFUSAL, f"a trusted {whole} reached the frame {ev.oid} shows"
        return (REFUSED_OK, "") if any(e["type"] in ("mousedown", "mouseup", "click") for e in inside) else (
            FALSE_REFUSAL, f"no trusted input reached the frame {ev.oid} shows")
    if "did not receive" in msg or "was not clicked" in msg or "no mouse event reached" in msg:
        if any(e["type"] == whole for e in inside):
            return FALSE_REFUSAL, f"a trusted {whole} reached the frame {ev.oid} shows"
        return REFUSED_OK, ""
    if "about:blank" in msg:
        return (REFUSED_OK, "") if not inside else (FALSE_REFUSAL, "events reached the frame's documents")
    return None


def _judge_not_actionable(ev: Evidence, msg: str) -> tuple[str, str]:
    p = ev.probe
    if _FIELD_REFUSAL.search(msg):
        return REFUSED_OK, ""  # a command for another kind of field
    if p is None:
        return UNVERIFIED, "the element's document did not answer"
    if "hidden" in msg:
        if p.get("hidden") or p.get("zero") or not p.get("connected"):
            return REFUSED_OK, ""
        if p.get("inert"):
            return REFUSED_OK, "inert behind a modal dialog (called hidden)"
        return FALSE_REFUSAL, f"{ev.oid} is visible"
    if "disabled" in msg:
        return (REFUSED_OK, "") if p.get("disabled") else (FALSE_REFUSAL, f"{ev.oid} is enabled")
    if "zero size" in msg:
        return (REFUSED_OK, "") if p.get("zero") else (FALSE_REFUSAL, f"{ev.oid} has a size")
    if "moving" in msg:
        if p.get("moving"):
            return REFUSED_OK, ""
        if ev.visibility != "visible":
            return FALSE_REFUSAL, f"{ev.oid} stands still in a background tab (document {ev.visibility})"
        return FALSE_REFUSAL, f"{ev.oid} is not moving (rect {p.get('rect')})"
    if "covered" in msg or "outside the viewport" in msg or "not under the pointer" in msg:
        if p.get("inert") or p.get("covered"):
            return REFUSED_OK, ""
        if not p.get("inView"):
            return UNVERIFIED, "not in its own document's viewport"
        # the runner keeps this only when every frame above shows that point (else: unverified)
        return FALSE_REFUSAL, f"{ev.oid} is in view and not covered in its own document"
    if "did not receive" in msg or "was not clicked" in msg:
        clicks = _trusted(ev, "click", "dblclick", "mouseover")
        if any(_on(e, ev.oid) for e in clicks if e["type"] != "mouseover"):
            return FALSE_REFUSAL, f"a trusted click reached {ev.oid}"
        if p.get("tag") == "iframe":
            return UNVERIFIED, "a click on an iframe lands in its document"
        return (REFUSED_OK, "") if clicks else (UNVERIFIED, "no trusted event at all")
    if "focus" in msg:
        return UNVERIFIED, "focus moves are not judged"
    return UNVERIFIED, "reason not judged"
