"""Words that must be true: a scroll that moved nothing is not ok, a hover refusal speaks of hovering,
a ref's story names the command that issued it, inspect's label is the snapshot's, `wait text` does not
wait for frames it need not ask.

The pages (tests/fixtures/words/) render the way app code does: a render function writing innerHTML, an
app shell whose window never scrolls (its main pane does), buttons whose text sits in a <span> beside an
icon, a widget of another site in a frame. Results are judged by what the page logged.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from conftest import Driver, pages_site, ref_in, until
from verdex_cli.ui.render import Renderer

site = pages_site("words")


@pytest.fixture
def d(chrome_http, site):
    drv = Driver(chrome_http, timeout=3)
    drv.site = site
    yield drv
    drv.close()


def open_page(d: Driver, name: str, origin: str = "a") -> None:
    d.ok("open " + d.site.url(name, origin))


# -- 1. scroll: ok only when something moved ----------------------------------------------------------

def test_scroll_on_a_page_that_fits_is_refused_not_a_false_success(d):
    open_page(d, "short.html")
    for way in ("down", "up"):
        out = d.fail(f"scroll {way}", "not_applied")
        assert out.message == (f"Nothing scrolled {way}: the page cannot scroll (its content fits in the viewport, "
                               "and nothing at its middle scrolls).")
    assert d.js("window.log") == []  # the page saw no scroll


def test_scroll_over_a_spinner_turning_by_itself_is_refused(d):
    """The page's loading spinner at the middle moves on its own: that is not the wheel's doing."""
    open_page(d, "loading.html")
    for way in ("down", "up"):
        out = d.fail(f"scroll {way}", "not_applied")
        assert out.message.startswith(f"Nothing scrolled {way}: the page cannot scroll")
    assert d.js("window.log") == [] and d.js("document.querySelector('.spinner').getAnimations().length") == 1


def test_scroll_at_the_bottom_and_top_is_refused(d):
    open_page(d, "long.html")
    d.fail("scroll up", "not_applied")
    assert d.js("window.scrollY") == 0
    d.js("window.scrollTo(0, document.documentElement.scrollHeight)")
    bottom = d.js("window.scrollY")
    out = d.fail("scroll down", "not_applied")
    assert out.message == "Nothing scrolled down: the page is already at the bottom."
    assert d.js("window.scrollY") == bottom
    assert d.ok("scroll up").data["scroll_y"] == d.js("window.scrollY") < bottom


def painted(d: Driver, line: str) -> str:
    buf = io.StringIO()
    Renderer(console=Console(file=buf, width=200, no_color=True, highlight=False)).show(d.run(line))
    return buf.getvalue().splitlines()[0]


def test_scroll_moves_an_app_shell_pane_and_says_so_until_its_end(d):
    """The window cannot scroll, the pane can: the result names the pane and its offset, not scrollY=0."""
    open_page(d, "panes.html")
    out = d.ok("scroll down")
    top = d.js("main.scrollTop")
    assert d.js("window.log")[-1] == f"pane {top}" and top > 0
    assert out.data["scroll_y"] == 0 and out.data["moved"] == {"what": "pane", "role": "main", "name": "",
                                                              "scroll_top": top}
    assert painted(d, "scroll down") == f"Scrolled down: pane main (scrollTop={d.js('main.scrollTop')})"
    for _ in range(12):
        out = d.run("scroll down")
        if not out.ok:
            break
    assert out.kind == "not_applied" and out.message == "Nothing scrolled down: the page is already at the bottom."
    assert d.js("main.scrollTop + main.clientHeight >= main.scrollHeight - 1")


def test_scroll_a_virtual_list_that_takes_the_wheel_is_ok_until_its_last_row(d):
    """A virtual list turns the wheel into its own offset and rewrites its recycled rows: nothing scrolls
    natively, yet the user sees the list move. ok, naming the list; refused once the page moves no more."""
    open_page(d, "vlist.html")
    assert painted(d, "scroll down") == 'Scrolled down: list "Contacts" moved (the page\'s own scrolling)'
    assert d.js("window.log")[-1].endswith("first u1016") and d.js("firstVisible") == "u1016"
    for _ in range(6):
        out = d.run("scroll down")
        if not out.ok:
            break
        assert out.result.data["moved"] == {"what": "content", "role": "list", "name": "Contacts"}
    assert out.kind == "not_applied" and out.message == ("Nothing scrolled down: the page takes the wheel "
                                                         "itself, and moved nothing.")
    last = d.js("window.log")[-1]
    assert d.ok("scroll up").data["moved"]["what"] == "content" and d.js("window.log")[-1] != last


def test_scroll_a_carousel_moved_by_a_transform_is_ok_slide_by_slide(d):
    open_page(d, "carousel.html")
    for slide in ("Bridge", "Market", "Station"):
        assert d.ok("scroll down").data["moved"] == {"what": "content", "role": "region", "name": "Photos"}
        assert d.js("window.log")[-1] == "slide " + slide
    d.fail("scroll down", "not_applied")
    assert d.js("window.log")[-1] == "slide Station" and d.js("state.index") == 3
    d.ok("scroll up")
    assert d.js("window.log")[-1] == "slide Market"


def test_scroll_waits_for_a_pane_that_glides_once_the_wheel_gesture_ends(d):
    """The page sums the wheel's deltas and glides its pane (smooth) once the gesture ends (a debounce):
    the motion starts well after the wheel. Its pending timer and scroll are waited for, then ok."""
    open_page(d, "smooth.html")
    out = d.ok("scroll down")
    assert out.data["moved"]["what"] == "pane" and out.data["moved"]["scroll_top"] > 0
    assert d.js("window.log")[0].startswith("glide ")
    assert until(lambda: d.js("window.log")[-1].startswith("at "), 5)


def test_scroll_over_a_frame_of_another_site_is_ok_and_says_its_scroll_is_not_read(d):
    """The wheel at the middle of the viewport goes into a document viewer of another site, which
    scrolls; the page around it cannot. verdex cannot read that frame's scroll from the page: ok, saying
    so, never 'nothing scrolled'."""
    open_page(d, "viewer.html")
    assert until(lambda: 'heading "Page 1"' in d.ok("snapshot").data["text"], 10)
    out = d.ok("scroll down")
    assert out.notes == ["The wheel went to the frame at the middle of the viewport; whether it scrolled there "
                         "is not known (the page itself did not move)."]
    assert until(lambda: any(e.startswith("scroll ") for e in d.js("window.log")), 5)  # the report moved


# -- 2. a refusal in a frame says what did not happen for its verb -----------------------------------------

def _route_moves_aside(d: Driver, monkeypatch, dx: float) -> None:
    """The browser's hit test puts the pointer ``dx`` to the right of where verdex aims (in another
    frame's content), as it does when its hit-test data is a frame behind the layout: the one part of
    this that cannot be made happen on demand."""
    target = d.ctx.page.target
    real = target.call

    def call(method, timeout=None, interrupt=None, **params):
        if method == "Input.dispatchMouseEvent" and params.get("type") == "mouseMoved":
            params = dict(params, x=params["x"] + dx)
        return real(method, timeout=timeout, interrupt=interrupt, **params)
    monkeypatch.setattr(target, "call", call)


@pytest.mark.parametrize("verb", ["hover", "click", "dblclick"])
def test_a_pointer_refusal_in_a_frame_says_what_did_not_happen_for_its_verb(d, monkeypatch, verb):
    open_page(d, "desk.html")
    assert until(lambda: 'button "Offers"' in d.ok("snapshot").data["text"], 10)
    help_button = ref_in(d.ok("snapshot").data["text"], 'button "Help"')
    _route_moves_aside(d, monkeypatch, dx=404)  # into the promotion frame beside the widget
    out = d.fail(f"{verb} {help_button}", "not_actionable")
    assert out.message.startswith('Element button "Help"'), out.message
    assert "is not under the pointer where it was aimed: the browser puts the pointer in another frame's " \
           "content there" in out.message
    assert out.message.endswith("so it was not hovered." if verb == "hover" else "so nothing was pressed.")
    if verb == "hover":
        assert "press" not in out.message
    until(lambda: d.js("window.log"), 5)
    got = d.js("window.log")  # the pointer went into the other frame's content; nothing was pressed anywhere
    assert "promo document" in got and set(got) <= {"promo document", "promo pointerenter"}, got


# -- 3. a ref's story names the command that issued it, and inspect is not its own showing --------------

def test_a_ref_issued_by_a_target_says_which_command_issued_it_and_inspect_does_not_count_itself(d):
    from test_ref_story import painted_inspect
    open_page(d, "toolbar.html")  # (command 1; no snapshot is ever taken)
    save = d.ok("click text=Save").data["ref"]  # (2) issues and shows the ref
    assert d.js("window.log") == ["save"]
    first = d.ok(f"inspect {save}").data  # (3)
    assert first["history"][0] == 'issued by command 2 (click) as button "Save", for target text=Save'
    assert first["story"]["shown"]["by"] == {"n": 2, "command": "click text=Save"}
    text = painted_inspect(first)
    assert "snapshot #0" not in text and "in no snapshot; shown by 2 'click text=Save'" in text, text
    again = d.ok(f"inspect {save}").data  # (4) the first inspect showed it; this one does not count itself
    assert again["story"]["shown"]["by"] == {"n": 3, "command": f"inspect {save}"}


# -- 5. wait text asks the frames only when the main frame does not have the text --------------------------

def test_wait_text_in_the_main_frame_reads_no_frame_tree_and_still_finds_text_in_a_frame(d, monkeypatch):
    from verdex_cli.browser.session import Session
    open_page(d, "feed.html")
    scans = []
    real = Session.scan_frames
    monkeypatch.setattr(Session, "scan_frames", lambda self, page: scans.append(1) or real(self, page))
    d.ok("wait text News")  # in the main frame already
    main_scans = len(scans)
    d.ok("wait text Rates held steady")  # the main frame's list, rendered after a timer
    d.ok("wait text Sunny in Oslo")  # only in the weather widget's frame (another site)
    assert main_scans == 0 and len(scans) >= 1
    d.fail("wait text Nowhere at all", "timeout")


# -- 4. a row's label is what its snapshot line shows ----------------------------------------------------

def test_a_rows_label_is_its_buttons_whole_name_so_a_row_recycled_to_a_namesake_is_refused(d):
    """Each row: a button (avatar icon, first and last name in two <span>s) and an icon-only Remove. The
    row's label was the first <span>'s text ("Zoe"), which both Zoes share: after a sort that rewrote the
    rows in place, Zoe Park's Remove removed Zoe Adams."""
    open_page(d, "people.html")
    lines = d.ok("snapshot").data["text"].split("\n")
    at = next(i for i, line in enumerate(lines) if 'button "Zoe Park"' in line)
    remove = ref_in("\n".join(lines[at:]), 'button "Remove"')
    d.ok('click "button:Sort by last name"')  # Zoe Adams now sits in the row Zoe Park was in
    out = d.fail(f"click {remove}", "changed")
    assert out.message.startswith('Element changed since you saw it: its list item changed from "Zoe Park" to '
                                  '"Zoe Adams".'), out.message
    assert d.ok(f"inspect {remove}").data["reason"] == out.message
    assert d.js("window.log") == []
