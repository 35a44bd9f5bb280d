"""Settling after an action from evidence, not a fixed quiet period (real browser): the work the
input started (timers, chains of them, animation frames, requests) is waited for however long it is
(within the bound), the page's own timers are not, and the page's functions look untouched.
Every check reads back what the page really did through its own script state."""

from __future__ import annotations

import pytest

from conftest import until


def ref_named(snap: dict, name: str) -> str:
    return next(r for r, i in snap["refs"].items() if i["name"] == name)


def values(changes: dict) -> list[tuple]:
    return [(c["was"].get("value", ""), c.get("value", "")) for c in changes["changed"]]


@pytest.mark.parametrize("page, button, final", [
    # a timer the click's handler starts, 300 ms later
    ("""document.body.innerHTML = '<button id=go>Go</button><p id=out>idle</p>';
      document.getElementById('go').onclick = () => {
        setTimeout(() => { document.getElementById('out').textContent = 'late'; }, 300); }""", "Go", "late"),
    # 'change' does not leave the shadow tree: its handler's timer still counts
    ("""const host = document.createElement('div'); document.body.append(host);
      const root = host.attachShadow({ mode: 'open' });
      root.innerHTML = '<label><input type=checkbox id=c> Keep</label>';
      document.body.insertAdjacentHTML('beforeend', '<p id=out>idle</p>');
      root.getElementById('c').addEventListener('change', () => {  // 'change' does not leave the shadow tree
        setTimeout(() => { document.getElementById('out').textContent = 'kept'; }, 150); })""", "Keep", "kept"),
    # a scheduler's way (React's): the handler posts messages, their last task changes the page; the settle
    # that needs no hop on a page where nothing runs later must not end before that task
    ("""document.body.innerHTML = '<button id=go>Go</button><p id=out>idle</p>';
      const ch = new MessageChannel();
      let n = 0;  // a chain of message tasks, as a scheduler yielding between slices of work
      ch.port1.onmessage = () => { if (++n < 30) ch.port2.postMessage(1); else document.getElementById('out').textContent = 'from a message'; };
      document.getElementById('go').onclick = () => { document.getElementById('go').title = 'pressed'; ch.port2.postMessage(1); }""", "Go", "from a message"),
])
def test_a_change_the_clicks_own_later_work_makes_is_shown(driver, demo, page, button, final):
    driver.ok("open " + demo.url("blank.html"))
    driver.js(page)
    out = driver.ok("click " + ref_named(driver.ok("snapshot").data, button))
    assert driver.js("document.getElementById('out').textContent") == final
    assert ("idle", final) in values(out.data["changes"])


def test_a_chain_of_zero_timers_frames_and_a_request_is_followed_to_its_end(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<button id=go>Go</button><p id=out>idle</p>';
      window.steps = [];
      document.getElementById('go').addEventListener('click', () => {
        let n = 0;
        const hop = () => { window.steps.push(n); if (++n < 5) setTimeout(hop, 0); else requestAnimationFrame(() =>
          fetch(location.href).then((r) => r.text()).then(() => setTimeout(() => {
            document.getElementById('out').textContent = 'done after ' + n; }, 40))); };
        setTimeout(hop, 0); })""")
    out = driver.ok("click " + ref_named(driver.ok("snapshot").data, "Go"))
    assert driver.js("window.steps") == [0, 1, 2, 3, 4]
    assert driver.js("document.getElementById('out').textContent") == "done after 5"
    assert values(out.data["changes"]) == [("idle", "done after 5")]


def test_a_change_a_resize_observer_makes_after_the_click_is_shown(driver, demo):
    # the observer runs in the next frame's rendering steps, after the click's handler widened the box
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<button id=go>Go</button><div id=box style="width:10px">x</div><p id=out>idle</p>';
      let seen = 0;
      new ResizeObserver(() => { if (++seen > 1) document.getElementById('out').textContent = 'resized'; })
        .observe(document.getElementById('box'));
      document.getElementById('go').onclick = () => { document.getElementById('box').style.width = '200px'; }""")
    until(lambda: driver.js("document.getElementById('box').offsetWidth") == 10)
    out = driver.ok("click " + ref_named(driver.ok("snapshot").data, "Go"))
    assert driver.js("document.getElementById('out').textContent") == "resized"
    assert ("idle", "resized") in values(out.data["changes"])


def test_the_pages_own_timer_loop_does_not_hold_an_action_up(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<button id=go>Go</button><p id=out>idle</p>';
      window.ticks = 0; (function loop() { window.ticks++; setTimeout(loop, 30); })();
      document.getElementById('go').onclick = () => { document.getElementById('out').textContent = 'went'; }""")
    go = ref_named(driver.ok("snapshot").data, "Go")
    driver.ctx.page.timeout = 0.5  # were the loop's timers waited for, settling would run out (a note)
    before = driver.js("window.ticks")
    out = driver.ok("click " + go)
    assert not any("still changing" in n for n in out.notes), out.notes
    assert values(out.data["changes"]) == [("idle", "went")]
    assert driver.js("window.ticks") > before  # it really was running


def test_the_pages_timer_functions_still_look_native(driver, demo):
    driver.ok("open " + demo.url("blank.html"))
    driver.ok("snapshot")
    looks = driver.js("""[setTimeout, clearTimeout, setInterval, clearInterval, requestAnimationFrame, fetch,
      Element.prototype.attachShadow, Element.prototype.scrollIntoView, window.scrollTo, XMLHttpRequest.prototype.send,
      MessagePort.prototype.postMessage, window.postMessage, ResizeObserver.prototype.observe,
      IntersectionObserver.prototype.observe]
      .map((f) => [f.name, Function.prototype.toString.call(f).includes('[native code]')])""")
    assert looks == [["setTimeout", True], ["clearTimeout", True], ["setInterval", True], ["clearInterval", True],
                     ["requestAnimationFrame", True], ["fetch", True], ["attachShadow", True],
                     ["scrollIntoView", True], ["scrollTo", True], ["send", True], ["postMessage", True],
                     ["postMessage", True], ["observe", True], ["observe", True]]
    assert driver.js("Object.keys(window).filter((k) => /verdex/i.test(k))") == []


def test_a_late_change_in_a_frame_is_shown(driver, demo):
    """Every captured frame is asked at once; the frame's own watcher counts its handler's timer."""
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""new Promise((r) => { const f = document.createElement('iframe');
      f.srcdoc = '<button id=go>Later</button><p id=out>idle</p><script>document.getElementById("go").onclick = () =>'
        + ' setTimeout(() => { document.getElementById("out").textContent = "framed"; }, 250);<' + '/script>';
      f.onload = () => r(true); document.body.append(f); })""")
    out = driver.ok("click " + ref_named(driver.ok("snapshot").data, "Later"))
    assert driver.js("document.querySelector('iframe').contentDocument.getElementById('out').textContent") == "framed"
    assert values(out.data["changes"]) == [("idle", "framed")]


def test_an_uncaught_failed_request_the_click_started_still_reaches_the_pages_handler(driver, demo):
    """Watching a request must not change what the page sees: a fetch the page never catches still
    fires 'unhandledrejection', and one it awaits still gives its own answer."""
    driver.ok("open " + demo.url("blank.html"))
    driver.js("""document.body.innerHTML = '<button id=go>Go</button><button id=ok>Ok</button><p id=out>idle</p>';
      window.unhandled = [];
      window.addEventListener('unhandledrejection', (e) => window.unhandled.push(String(e.reason && e.reason.name)));
      document.getElementById('go').onclick = () => { fetch('http://127.0.0.1:9/nothing-listens-here'); };
      document.getElementById('ok').onclick = async () => {
        const r = await fetch(location.href);
        document.getElementById('out').textContent = 'status ' + r.status + ' ' + (r instanceof Response); };""")
    snap = driver.ok("snapshot").data
    driver.ok("click " + ref_named(snap, "Go"))
    until(lambda: driver.js("window.unhandled.length"), 5)
    assert driver.js("window.unhandled") == ["TypeError"]
    out = driver.ok("click " + ref_named(snap, "Ok"))
    assert driver.js("document.getElementById('out').textContent") == "status 200 true"
    assert values(out.data["changes"]) == [("idle", "status 200 true")]
