"""wait (text, ref, gone, url, ms) and dialog answers, against real pages."""

from __future__ import annotations

import _thread
import threading
import time

from conftest import ref_in as _ref




def _click(driver, element_id: str) -> None:
    driver.ok(f"eval document.getElementById('{element_id}').click()")


# -- wait ----------------------------------------------------------------------------------------

def test_wait_text_appears(driver, demo):
    driver.ok("open " + demo.url("downloads.html"))
    _click(driver, "later")
    res = driver.ok("wait text Saved   at last")  # whitespace-normalised
    assert res.kind == "wait" and res.data["for"] == "text" and res.data["waited_ms"] >= 300


def test_wait_text_in_a_same_origin_frame_and_shadow_root(driver, tmp_path):
    page = tmp_path / "framed.html"
    page.write_text("<title>F</title><iframe srcdoc='<p>inner</p>'></iframe><div id=host></div><script>"
                    "setTimeout(() => { frames[0].document.body.insertAdjacentHTML('beforeend', '<p>Deep news</p>');"
                    "document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<b>Shadow news</b>';"
                    "}, 300)</script>")
    driver.ok(f"open {page}")
    driver.ok("wait text Deep news")
    driver.ok("wait text Shadow news")


def test_wait_text_in_cross_origin_frames_without_a_snapshot(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    driver.ok("wait text Leaf frame")  # depth 2, in another process than the page


def test_wait_text_times_out(quick, demo):
    quick.ok("open " + demo.url("downloads.html"))
    start = time.monotonic()
    out = quick.fail("wait text Never shown", "timeout")
    assert 1.4 < time.monotonic() - start < 4
    assert out.message == "Waited 1.5 s for the text 'Never shown' to appear; it did not."


def test_wait_ref_visible_and_gone(quick, demo):
    quick.ok("open " + demo.url("downloads.html"))
    text = quick.ok("snapshot").data["text"]
    badge_button = _ref(text, 'button "Hide the badge in a second"')
    quick.ok("eval document.getElementById('hide-later').hidden = true; "
             "setTimeout(() => document.getElementById('hide-later').hidden = false, 400)")
    res = quick.ok("wait " + badge_button)
    assert res.data["for"] == "visible" and res.data["ref"] == badge_button
    assert quick.js("document.getElementById('hide-later').hidden") is False
    quick.ok("eval setTimeout(() => document.getElementById('hide-later').remove(), 300)")
    assert quick.ok("wait gone " + badge_button).data["for"] == "gone"
    # an element that stays: gone times out; one that stays hidden: visible times out
    later = _ref(text, 'button "Show a message in a second"')
    out = quick.fail("wait gone " + later, "timeout")
    assert out.message == f'Waited 1.5 s for button "Show a message in a second" ({later}) to go away; it is still visible.'
    quick.ok("eval document.getElementById('later').style.display = 'none'")
    out = quick.fail("wait " + later, "timeout")
    assert out.message.endswith("to be visible; it is still hidden.")
    quick.ok("wait gone " + later)  # hidden counts as gone


def test_wait_ref_that_was_removed_fails_at_once(driver, demo):
    driver.ok("open " + demo.url("downloads.html"))
    ref = _ref(driver.ok("snapshot").data["text"], 'button "Change the URL in a second"')
    driver.ok("eval document.getElementById('route').remove()")
    start = time.monotonic()
    driver.fail("wait " + ref, "removed")
    assert time.monotonic() - start < 3  # no waiting for the 10 s timeout


def test_wait_url(quick, demo):
    quick.ok("open " + demo.url("downloads.html"))
    _click(quick, "route")
    assert quick.ok("wait url #done").data["url"].endswith("downloads.html#done")
    out = quick.fail("wait url /elsewhere", "timeout")
    assert out.message.startswith("Waited 1.5 s for the URL to contain '/elsewhere'; it is still http://")


def test_wait_ms_and_usage(quick, demo):
    quick.ok("open " + demo.url("index.html"))
    start = time.monotonic()
    assert quick.ok("wait 250").data["for"] == "time"
    assert time.monotonic() - start >= 0.25
    for line in ("wait", "wait -5", "wait soon", "wait text", "wait gone"):
        out = quick.fail(line, "usage")
        assert "wait text TEXT | wait REF | wait gone REF | wait url TEXT | wait MS" in out.message, line
    out = quick.fail("wait 5000", "timeout")
    assert "longer than the timeout of 1.5 s" in out.message


def test_ctrl_c_cancels_wait(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    timer = threading.Timer(0.4, _thread.interrupt_main)
    timer.start()
    try:
        out = driver.run("wait text This never appears")
    finally:
        timer.cancel()
    assert out.kind == "cancelled"
    assert driver.ok("eval 1").data["value"] == 1


# -- dialogs -------------------------------------------------------------------------------------

def _result_text(driver) -> str:
    return driver.js("document.getElementById('dialog-result').textContent")


def test_default_answers(driver, demo):
    driver.ok("open " + demo.url("dialogs.html"))
    text = driver.ok("snapshot").data["text"]
    res = driver.ok("click " + _ref(text, 'button "Confirm"'))
    assert _result_text(driver) == "Confirm result: false"
    assert "A confirm was shown and dismissed: 'Do you want to continue?'" in res.notes
    assert res.data["dialogs"] == [{"type": "confirm", "message": "Do you want to continue?", "accepted": False,
                                    "text": None}]
    res = driver.ok("click " + _ref(text, 'button "Alert"'))
    assert res.data["dialogs"][0]["accepted"] is True
    assert "dialogs" not in driver.ok("eval 1").data  # reported once


def test_dialog_accept_and_dismiss_answer_the_next_dialog_only(driver, demo):
    driver.ok("open " + demo.url("dialogs.html"))
    assert driver.ok("dialog accept").data == {"next": "accept", "text": None}
    _click(driver, "confirm-btn")
    assert _result_text(driver) == "Confirm result: true"
    _click(driver, "confirm-btn")  # back to the default
    assert _result_text(driver) == "Confirm result: false"
    driver.ok("dialog accept Ada Lovelace")
    res = driver.ok("eval document.getElementById('prompt-btn').click()")
    assert _result_text(driver) == "Prompt result: Ada Lovelace"
    assert res.data["dialogs"] == [{"type": "prompt", "message": "What is your name?", "accepted": True,
                                    "text": "Ada Lovelace"}]
    assert res.notes == ["A prompt was shown and accepted: 'What is your name?' (answered 'Ada Lovelace')"]
    driver.ok("dialog dismiss")
    res = driver.ok("eval alert('Saved\\x1b[2J'); 1")
    assert res.notes == ["An alert was shown and dismissed: 'Saved\\x1b[2J'"]


def test_prompt_accepted_without_text_keeps_the_default(driver, tmp_path):
    page = tmp_path / "p.html"
    page.write_text("<title>P</title><script>function ask() { return prompt('Size?', 'medium') }</script>")
    driver.ok(f"open {page}")
    driver.ok("dialog accept")
    assert driver.ok("eval ask()").data["value"] == "medium"
    assert driver.ok("eval ask()").data["value"] is None


def test_beforeunload_is_accepted_by_default(driver, tmp_path, demo):
    page = tmp_path / "leave.html"
    page.write_text("<title>Leave</title><input id=i><script>addEventListener('beforeunload', e => "
                    "{ e.preventDefault(); e.returnValue = ''; })</script>")
    driver.ok(f"open {page}")
    driver.ok("click " + _ref(driver.ok("snapshot").data["text"], "textbox"))  # a user gesture arms beforeunload
    res = driver.ok("open " + demo.url("index.html"))
    assert res.data["title"] == "Verdex demo site"
    assert any(n.startswith("A beforeunload dialog was shown and accepted") for n in res.notes), res.notes


def test_dialog_usage(driver, demo):
    driver.ok("open " + demo.url("index.html"))
    for line in ("dialog", "dialog maybe", "dialog dismiss now"):
        assert "dialog accept [TEXT] | dialog dismiss" in driver.fail(line, "usage").message


def test_dialog_from_a_cross_origin_frame_is_answered_and_reported(driver, demo):
    from slow_server import SlowServer

    other = SlowServer()  # another site than the demo page: the frame runs in its own process
    try:
        driver.ok("open " + demo.url("blank.html"))
        res = driver.ok(f"eval const f = document.createElement('iframe'); f.src = '{other.url('/alert')}'; "
                        "document.body.append(f); await new Promise(r => f.onload = r); 1")
        assert res.data["value"] == 1
        assert res.data["dialogs"] == [{"type": "alert", "message": "from the frame", "accepted": True, "text": None}]
    finally:
        other.stop()
