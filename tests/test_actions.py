"""Actions on refs, checked by the page state they produce, and that they are trusted input."""

from __future__ import annotations

import pytest

from conftest import Driver, open_checkout, ref_of, refs_named, until

# Main-world recorder: every listed event type, with isTrusted, target id and details.
RECORDER = """(() => {
  window.__ev = [];
  for (const t of ['click', 'dblclick', 'mousedown', 'mouseup', 'mouseover', 'mousemove', 'keydown', 'keyup',
                   'keypress', 'input', 'change', 'beforeinput', 'focus', 'focusin']) {
    window.addEventListener(t, (e) => {
      const el = e.target && e.target.nodeType === 1 ? e.target : null;
      window.__ev.push({type: e.type, trusted: e.isTrusted, id: el ? (el.id || el.localName) : '',
                        detail: e.detail, key: e.key || ''});
    }, true);
  }
  return true;
})()"""


def events(driver, types=None) -> list[dict]:
    evs = driver.js("window.__ev.slice()")
    return [e for e in evs if types is None or e["type"] in types]


@pytest.fixture
def form(driver, demo):
    driver.ok("open " + demo.url("form.html"))
    driver.js(RECORDER)
    return driver, driver.ok("snapshot")


@pytest.fixture
def shop(driver, demo):
    driver.ok("open " + demo.url("shop.html"))
    driver.js(RECORDER)
    return driver, driver.ok("snapshot")


def value(driver, element_id: str):
    return driver.js(f"document.getElementById('{element_id}').value")


# -- click / dblclick / hover ------------------------------------------------------------------------

def test_click_adds_to_cart_with_trusted_events(shop):
    driver, snap = shop
    adds = refs_named(snap, "Add to cart")
    out = driver.ok(f"click {adds[0]}")
    assert out.data["action"] == "click" and out.data["ref"] == adds[0]
    assert driver.js("document.getElementById('add-mug').textContent") == "Added"
    assert "Coffee mug × 1" in driver.js("document.getElementById('cart').textContent")
    seq = [e["type"] for e in events(driver, {"mousedown", "mouseup", "click"}) if e["id"] == "add-mug"]
    assert seq == ["mousedown", "mouseup", "click"]
    assert all(e["trusted"] for e in events(driver))
    assert events(driver, {"click"}) and all(e["id"] == "add-mug" for e in events(driver, {"click"}))


def test_click_twice_then_cart_rerender(shop):
    driver, snap = shop
    adds = refs_named(snap, "Add to cart")
    driver.ok(f"click {adds[3]}")
    snap = driver.ok("snapshot")
    # the Add button was renamed "Added" (a significant change, but it was snapshotted again)
    driver.ok(f"click {adds[3]}")
    assert "Headphones × 2" in driver.js("document.getElementById('cart').textContent")
    remove = ref_of(snap, "Remove")
    driver.fail(f"click {remove}", "removed")  # the cart was re-rendered by the second add
    snap = driver.ok("snapshot")
    driver.ok(f"click {ref_of(snap, 'Remove')}")
    assert "Your cart is empty." in driver.js("document.getElementById('cart').textContent")


def test_dblclick(form):
    driver, snap = form
    driver.js("window.__dbl = 0; document.getElementById('bold').addEventListener('dblclick', () => window.__dbl++)")
    out = driver.ok(f"dblclick {ref_of(snap, 'Bold')}")
    assert out.data["action"] == "dblclick"
    assert driver.js("window.__dbl") == 1
    clicks = [e for e in events(driver, {"click", "dblclick"}) if e["id"] == "bold"]
    assert [(e["type"], e["detail"]) for e in clicks] == [("click", 1), ("click", 2), ("dblclick", 2)]
    assert all(e["trusted"] for e in clicks)
    # two clicks toggled aria-pressed twice
    assert driver.js("document.getElementById('bold').getAttribute('aria-pressed')") == "false"


def test_hover(form):
    driver, snap = form
    out = driver.ok(f"hover {ref_of(snap, 'Advanced settings')}")
    assert out.data["action"] == "hover"
    assert driver.js("document.querySelector('#advanced-toggle:hover') !== null") is True
    over = [e for e in events(driver, {"mouseover"}) if e["id"] == "advanced-toggle"]
    assert over and all(e["trusted"] for e in over)
    assert events(driver, {"click", "mousedown"}) == []  # hovering does not click
    assert driver.js("document.getElementById('advanced-panel').hidden") is True


def test_click_reveals_then_fill_new_field(form):
    driver, snap = form
    driver.ok(f"click {ref_of(snap, 'Advanced settings')}")
    assert driver.js("document.getElementById('advanced-panel').hidden") is False
    snap = driver.ok("snapshot")
    driver.ok(f"fill {ref_of(snap, 'Coupon code')} SAVE10")
    assert value(driver, "coupon") == "SAVE10"


def test_click_link_waits_for_navigation(form, demo):
    driver, snap = form
    out = driver.ok(f"click {ref_of(snap, 'Back to index', 'link')}")
    assert any(n.startswith("Navigated to ") and n.endswith("/index.html") for n in out.notes)
    assert driver.js("location.pathname") == "/index.html"
    assert driver.js("document.readyState") == "complete"


# -- type / fill ----------------------------------------------------------------------------------------

def test_type_key_by_key(form):
    driver, snap = form
    out = driver.ok(f"type {ref_of(snap, 'Name')} Ada Lovelace")
    assert out.data["value"] == "Ada Lovelace"
    assert value(driver, "name") == "Ada Lovelace"
    downs = [e for e in events(driver, {"keydown"}) if e["id"] == "name"]
    assert [e["key"] for e in downs] == list("Ada Lovelace")
    assert all(e["trusted"] for e in events(driver))
    # typing appends
    driver.ok(f"type {ref_of(snap, 'Name')} !")
    assert value(driver, "name") == "Ada Lovelace!"


def test_type_quotes_and_spaces_are_the_rest_of_the_line(form):
    driver, snap = form
    driver.ok(f'type {ref_of(snap, "Comments")} "two  spaces"')
    assert value(driver, "comments") == "two  spaces"


def test_fill_replaces_value(form):
    driver, snap = form
    name = ref_of(snap, "Name")
    driver.ok(f"type {name} old text")
    out = driver.ok(f"fill {name} Grace Hopper")
    assert out.data["value"] == "Grace Hopper" and value(driver, "name") == "Grace Hopper"
    inputs = [e for e in events(driver, {"input"}) if e["id"] == "name"]
    assert inputs and all(e["trusted"] for e in inputs)
    driver.ok(f"fill {name}")  # empty: clears
    assert value(driver, "name") == ""
    driver.ok(f"fill {ref_of(snap, 'Quantity')} 7")
    assert value(driver, "quantity") == "7"
    driver.ok(f"fill {ref_of(snap, 'Notes')} rich notes")
    assert driver.js("document.getElementById('notes').textContent") == "rich notes"


def test_fill_a_select_is_refused_with_a_hint(form):
    driver, snap = form
    country = ref_of(snap, 'Country')
    out = driver.fail(f"fill {country} France", "not_actionable")
    assert "select element" in out.message and f"use 'select {country} VALUE'" in out.message
    assert value(driver, "country") == "jp"


def test_type_into_cross_origin_frame(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot")
    inp = next(r for r, i in snap.data["refs"].items() if i["frame"] == 2 and i["name"] == "Frame input")
    out = driver.ok(f"type {inp} hello frame")
    assert out.data["value"] == "hello frame"
    snap = driver.ok("snapshot")
    assert f'textbox "Frame input" [ref={inp}]: hello frame' in snap.data["text"]
    # the same-origin frame's input is untouched
    assert driver.js("document.getElementById('same-frame').contentDocument"
                     ".getElementById('frame-input').value") == ""


# -- press ------------------------------------------------------------------------------------------------

def test_press_enter_submits_form(form):
    driver, snap = form
    driver.ok(f"fill {ref_of(snap, 'Email')} ada@example.com")
    driver.ok(f"fill {ref_of(snap, 'Name')} Ada")
    out = driver.ok("press Enter")
    name = ref_of(snap, "Name")
    changes = out.data.pop("changes")
    before = out.data.pop("changes_before")  # nothing changed between the fills and the press
    assert not any(before[k] for k in ("added", "removed", "changed")), before
    assert out.data.pop("requests") == [] and out.data.pop("console") == []  # the form is the page's own script
    assert out.data == {"action": "press", "key": "Enter", "ref": name, "role": "textbox", "name": "Name"}
    assert any("submitted" in (c.get("value") or c["name"]).lower() for c in changes["changed"] + changes["added"]), changes
    assert f'Sent to textbox "Name" ({name}).' in out.notes
    result = driver.js("document.getElementById('result').textContent")
    assert result.startswith("Submitted") and "Name: Ada" in result and "Email: ada@example.com" in result
    enter = [e for e in events(driver, {"keydown"}) if e["key"] == "Enter"]
    assert enter and all(e["trusted"] for e in enter)


def test_press_tab_moves_focus(form):
    driver, snap = form
    driver.ok(f"focus {ref_of(snap, 'Email')}")
    assert driver.js("document.activeElement.id") == "email"
    driver.ok("press Tab")
    assert driver.js("document.activeElement.id") == "password"
    driver.ok("press Shift+Tab")
    assert driver.js("document.activeElement.id") == "email"


def test_press_control_a_selects_all(form):
    driver, snap = form
    driver.ok(f"fill {ref_of(snap, 'Comments')} hello world")
    driver.js("document.getElementById('comments').setSelectionRange(3, 3)")
    driver.ok("press Control+A")
    assert driver.js("(() => { const c = document.getElementById('comments');"
                     " return [c.selectionStart, c.selectionEnd]; })()") == [0, 11]
    driver.ok("press Backspace")
    assert value(driver, "comments") == ""


def test_press_escape_closes_modal(shop):
    driver, snap = shop
    open_checkout(driver, snap, 1)
    driver.ok("press Escape")
    assert driver.js("document.getElementById('checkout-dialog').hidden") is True
    assert driver.js("document.getElementById('order-status').textContent") == "Checkout cancelled."


def test_press_unknown_key_is_usage_error(form):
    driver, _ = form
    driver.fail("press Hyper+Q", "usage")


# -- select ------------------------------------------------------------------------------------------------

def test_select_single_by_value_and_label(form):
    driver, snap = form
    country = ref_of(snap, "Country")
    out = driver.ok(f"select {country} fr")
    assert out.data["selected"] == ["France"] and value(driver, "country") == "fr"
    out = driver.ok(f"select {country} Brazil")
    assert out.data["selected"] == ["Brazil"] and value(driver, "country") == "br"
    driver.ok(f"select {country} canada")  # label, case-insensitive
    assert value(driver, "country") == "ca"
    changes = [e for e in events(driver, {"change"}) if e["id"] == "country"]
    assert changes and all(e["trusted"] for e in changes)


def test_select_fires_one_change_for_the_chosen_value(form):
    driver, snap = form
    driver.js("window.__changes = []; document.getElementById('country')"
              ".addEventListener('change', e => window.__changes.push(e.target.value))")
    country = ref_of(snap, "Country")
    driver.ok(f"select {country} Brazil")   # Japan -> Brazil: one step
    driver.ok(f"select {country} Canada")   # Brazil -> Canada: passes Japan and France
    assert driver.js("window.__changes") == ["br", "ca"]


def test_select_multiple(form):
    driver, snap = form
    out = driver.ok(f"select {ref_of(snap, 'Interests')} music Travel reading")
    assert out.data["selected"] == ["Music", "Travel", "Reading"]
    assert driver.js("[...document.getElementById('interests').selectedOptions].map(o => o.value)") == \
        ["music", "travel", "reading"]
    driver.ok(f"select {ref_of(snap, 'Interests')} Sports")  # a new selection replaces the old one
    assert driver.js("[...document.getElementById('interests').selectedOptions].map(o => o.value)") == ["sports"]


def test_select_unknown_option_lists_options(form):
    driver, snap = form
    country = ref_of(snap, "Country")
    out = driver.fail(f"select {country} Narnia", "usage")
    assert out.message == (f"No option 'Narnia' in combobox \"Country\" ({country}). "
                           "Options: 'Canada', 'France', 'Japan', 'Brazil'.")
    assert value(driver, "country") == "jp"


def test_select_two_values_on_single_select_is_usage_error(form):
    driver, snap = form
    driver.fail(f"select {ref_of(snap, 'Country')} fr br", "usage")
    assert value(driver, "country") == "jp"


# -- check / uncheck -----------------------------------------------------------------------------------------

def test_check_and_uncheck(form):
    driver, snap = form
    sub = ref_of(snap, "Subscribe")
    out = driver.ok(f"check {sub}")
    assert out.data["checked"] is True
    assert driver.js("document.getElementById('subscribe').checked") is True
    out = driver.ok(f"uncheck {sub}")
    assert out.data["checked"] is False
    assert driver.js("document.getElementById('subscribe').checked") is False
    changes = [e for e in events(driver, {"change"}) if e["id"] == "subscribe"]
    assert len(changes) == 2 and all(e["trusted"] for e in changes)


def test_check_already_checked_is_noop_with_note(form):
    driver, snap = form
    cheese = ref_of(snap, "Cheese")
    out = driver.ok(f"check {cheese}")
    assert "Already checked; nothing to do." in out.notes
    assert driver.js("document.getElementById('topping-cheese').checked") is True
    assert events(driver, {"click", "change"}) == []
    out = driver.ok(f"uncheck {ref_of(snap, 'Olives')}")
    assert "Already unchecked; nothing to do." in out.notes
    assert events(driver, {"click", "change"}) == []


def test_check_mixed_checkbox(form):
    driver, snap = form
    driver.ok(f"check {ref_of(snap, 'Select all')}")
    assert driver.js("[...document.querySelectorAll('.topping')].every(t => t.checked)") is True


def test_radio_check_and_uncheck_refused(form):
    driver, snap = form
    out = driver.fail(f"uncheck {ref_of(snap, 'Standard')}", "not_actionable")
    assert "radio" in out.message
    assert driver.js("document.getElementById('ship-standard').checked") is True
    driver.ok(f"check {ref_of(snap, 'Express')}")
    assert driver.js("document.querySelector('input[name=shipping]:checked').id") == "ship-express"


def test_check_on_a_button_is_refused(form):
    driver, snap = form
    driver.fail(f"check {ref_of(snap, 'Bold')}", "not_actionable")
    assert driver.js("document.getElementById('bold').getAttribute('aria-pressed')") == "false"


# -- focus / scroll --------------------------------------------------------------------------------------------

def test_focus(form):
    driver, snap = form
    out = driver.ok(f"focus {ref_of(snap, 'Website')}")
    assert out.data["action"] == "focus"
    assert driver.js("document.activeElement.id") == "website"
    driver.ok(f"focus {ref_of(snap, 'Notes')}")
    assert driver.js("document.activeElement.id") == "notes"


def in_viewport(driver, element_id: str) -> bool:
    return driver.js(f"(() => {{ const r = document.getElementById('{element_id}').getBoundingClientRect();"
                     " return r.top >= 0 && r.bottom <= innerHeight; })()")


def test_scroll_ref_into_view(form):
    driver, snap = form
    driver.js("window.scrollTo(0, 0)")
    assert not in_viewport(driver, "reset")
    out = driver.ok(f"scroll {ref_of(snap, 'Reset')}")
    assert out.data["action"] == "scroll"
    assert in_viewport(driver, "reset")
    assert driver.js("window.scrollY") > 0


def wait_scroll(driver, pred, timeout=3.0):
    """window.scrollY once ``pred`` holds for it (or its value at the time-out)."""
    seen = []
    until(lambda: pred(seen.append(driver.js("window.scrollY")) or seen[-1]), timeout)
    return seen[-1]


def test_scroll_page_up_and_down(form):
    driver, _ = form
    driver.ok("scroll down")
    y = wait_scroll(driver, lambda v: v > 0)
    assert y > 0
    driver.ok("scroll up")
    assert wait_scroll(driver, lambda v: v < y) < y


def test_scroll_page_reports_position_after_scrolling(form):
    driver, _ = form
    out = driver.ok("scroll down")
    now = driver.js("window.scrollY")
    assert now > 0
    assert out.data["scroll_y"] == now


# -- trusted-only, across a frame boundary ------------------------------------------------------------------------

def test_actions_in_same_origin_frame_are_trusted(driver, demo):
    driver.ok("open " + demo.url("frames.html"))
    snap = driver.ok("snapshot")
    driver.js("(() => { const w = document.getElementById('same-frame').contentWindow; w.__t = [];"
              " for (const t of ['click', 'keydown', 'input']) w.addEventListener(t, e => w.__t.push([t, e.isTrusted]), true);"
              " })()")
    button = next(r for r, i in snap.data["refs"].items() if i["frame"] == 1 and i["name"] == "Frame button")
    field = next(r for r, i in snap.data["refs"].items() if i["frame"] == 1 and i["name"] == "Frame input")
    driver.ok(f"click {button}")
    driver.ok(f"type {field} ok")
    got = driver.js("document.getElementById('same-frame').contentWindow.__t")
    assert ["click", True] in got and ["keydown", True] in got and ["input", True] in got
    assert all(t for _, t in got)
    assert driver.js("document.getElementById('same-frame').contentDocument"
                     ".getElementById('frame-input').value") == "ok"


def test_not_actionable_disabled_field_for_type(chrome_http, demo):
    d = Driver(chrome_http, timeout=1)
    try:
        d.ok("open " + demo.url("form.html"))
        snap = d.ok("snapshot")
        d.js("document.getElementById('name').disabled = true")
        out = d.fail(f"type {ref_of(snap, 'Name')} nope", "not_actionable")
        assert "disabled" in out.message
        assert value(d, "name") == ""
    finally:
        d.close()


# -- shadow DOM ------------------------------------------------------------------------------------------------

def test_actions_inside_open_shadow_roots(driver, demo):
    driver.ok("open " + demo.url("shadow.html"))
    snap = driver.ok("snapshot")
    card = "document.getElementById('user-card').shadowRoot"
    driver.ok(f"click {ref_of(snap, 'Follow')}")
    driver.ok(f"click {ref_of(snap, 'Follow')}")
    assert driver.js(f"{card}.getElementById('followers').textContent") == "Followers: 2"
    driver.ok(f"check {ref_of(snap, 'Notify')}")
    toggle = f"{card}.querySelector('notify-toggle').shadowRoot"
    assert driver.js(f"{toggle}.getElementById('notify').checked") is True
    assert driver.js(f"{toggle}.getElementById('notify-state').textContent") == "Notifications on"
    driver.ok(f"click {ref_of(snap, 'Profile', 'link')}")  # slotted light-DOM link
    assert driver.js("location.hash") == "#profile"
    assert driver.ok("snapshot").data["refs"] == snap.data["refs"]  # same elements, same refs


@pytest.mark.parametrize("changes", [True, False], ids=["changes", "no-changes"])
def test_a_navigation_a_timer_starts_after_the_click_is_waited_for(form, demo, changes):
    # no fixed wait decides this: the navigation check lasts until the page has settled, and a
    # navigation the click's handler starts from a timer 20 ms later is seen starting and loaded
    driver, _ = form
    driver.ctx.show_changes = changes
    driver.js("""(() => { const b = document.createElement('button'); b.textContent = 'Later';
        b.onclick = () => setTimeout(() => { location.href = '/index.html'; }, 20);
        document.body.prepend(b); return true; })()""")
    snap = driver.ok("snapshot")
    out = driver.ok(f"click {ref_of(snap, 'Later', 'button')}")
    assert any(n.startswith("Navigated to ") and n.endswith("/index.html") for n in out.notes), out.notes
    assert driver.js("location.pathname") == "/index.html"
    assert driver.js("document.readyState") == "complete"
