"""Write the realistic benchmark pages (benchmarks/pages/site/): 32 pages that look like real sites
(news, docs, shops, forms, dashboards, ...), small and large, some with cross-origin embeds, plus
the embeds themselves and one page with 10 cross-origin iframes of 200 elements each.

    python benchmarks/pages/make_pages.py

Deterministic (seeded); the output is committed so the benchmark needs no generation step. Embeds
are loaded from the other loopback origin of the benchmark's server (site/cross.js).
"""

from __future__ import annotations

import html
import random
from pathlib import Path

SITE = Path(__file__).resolve().parent / "site"
WORDS = ("market city council report weather season energy school river policy garden museum travel "
         "music science health vote budget bridge harbor festival library winter summer data cloud").split()

rng = random.Random(2026)


def words(n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def title(n: int = 4) -> str:
    return words(n).title()


def para(n: int = 40) -> str:
    return f"<p>{html.escape(words(n).capitalize())}. <a href='#'>{words(2)}</a> {words(12)}.</p>"


def page(name: str, heading: str, body: str, extra_head: str = "") -> None:
    doc = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(heading)}</title>
<script src="/origins.js"></script>
<style>.hidden{{display:none}} .menu{{display:none}} nav li:hover .menu{{display:block}} .card{{border:1px solid #ccc}}</style>
{extra_head}</head><body>
{body}
<script src="cross.js"></script>
</body></html>
"""
    (SITE / name).write_text(doc, encoding="utf-8")


def header(site: str, links: int = 6, search: bool = True) -> str:
    items = "".join(f"<li><a href='#'>{title(1)}</a><ul class='menu'><li><a href='#'>{title(2)}</a></li>"
                    f"<li><a href='#'>{title(2)}</a></li></ul></li>" for _ in range(links))
    form = ("<form role='search'><label>Search <input type='search' name='q'></label>"
            "<button>Go</button></form>") if search else ""
    return (f"<header><a href='#' class='logo'>{site}</a><nav aria-label='Main'><ul>{items}</ul></nav>{form}"
            "<button aria-expanded='false' aria-controls='acct'>Account</button></header>")


def footer(cols: int = 4) -> str:
    c = "".join(f"<section><h2>{title(2)}</h2><ul>" + "".join(f"<li><a href='#'>{title(2)}</a></li>"
                for _ in range(6)) + "</ul></section>" for _ in range(cols))
    return f"<footer>{c}<p>© 2026 {title(2)}. <a href='#'>Privacy</a> <a href='#'>Terms</a></p></footer>"


def embed(path: str, label: str, height: int = 200) -> str:
    return f"<iframe data-cross='{path}' title='{label}' height='{height}' width='400'></iframe>"


def cards(n: int, price: bool = True) -> str:
    out = []
    for i in range(n):
        p = f"<p class='price'>${rng.randint(5, 400)}.{rng.randint(0, 99):02d}</p>" if price else ""
        out.append(f"<article class='card'><img src='data:,' alt='{title(2)}'><h3><a href='#'>{title(3)}</a></h3>"
                   f"{p}<p>{words(14)}</p><button>Add to cart</button><button aria-pressed='false'>♡</button></article>")
    return "".join(out)


def table(rows: int, cols: int = 5, inputs: bool = False) -> str:
    head = "".join(f"<th scope='col'><button>{title(1)}</button></th>" for _ in range(cols))
    body = []
    for r in range(rows):
        cells = "".join(f"<td>{rng.randint(1, 9999)}</td>" for _ in range(cols - 2))
        extra = f"<td><input type='checkbox' aria-label='Select row {r}'></td>" if inputs else "<td>—</td>"
        body.append(f"<tr><th scope='row'>{title(2)}</th>{cells}{extra}</tr>")
    return f"<table><caption>{title(3)}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def form(fields: int) -> str:
    kinds = ["text", "email", "tel", "password", "number", "date", "url", "search", "color", "range", "time"]
    out = []
    for i in range(fields):
        k = kinds[i % len(kinds)]
        out.append(f"<p><label for='f{i}'>{title(2)}</label> <input id='f{i}' type='{k}'"
                   f"{' required' if i % 3 == 0 else ''}></p>")
    out.append("<fieldset><legend>Plan</legend>" + "".join(
        f"<label><input type='radio' name='plan' value='{p}'> {p}</label>" for p in ("Free", "Pro", "Team")) + "</fieldset>")
    out.append("<p><label>Country <select>" + "".join(f"<option>{title(1)}</option>" for _ in range(30)) +
               "</select></label></p><p><label>Notes <textarea></textarea></label></p>"
               "<p><label><input type='checkbox'> I agree to the terms</label></p><button type='submit'>Submit</button>")
    return "<form>" + "".join(out) + "</form>"


def shadow_widgets(n: int) -> str:
    script = """<script>customElements.define('x-rating', class extends HTMLElement { connectedCallback() {
      const r = this.attachShadow({mode: 'open'}); r.innerHTML = '<span role="group" aria-label="Rating">' +
      [1,2,3,4,5].map(i => '<button aria-label="' + i + ' stars">★</button>').join('') + '</span>'; } });</script>"""
    return script + "".join("<x-rating></x-rating>" for _ in range(n))


def faq(n: int) -> str:
    return "".join(f"<details><summary>{title(5)}?</summary>{para(30)}</details>" for _ in range(n))


def comments(n: int) -> str:
    return "<section aria-label='Comments'><h2>Comments</h2><ol>" + "".join(
        f"<li><article><h3>{title(2)}</h3><p>{words(25)}</p><button>Reply</button> <button>Like</button></article></li>"
        for _ in range(n)) + "</ol></section>"


def write_embeds() -> None:
    emb = SITE / "embeds"
    emb.mkdir(parents=True, exist_ok=True)
    small = "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{t}</title></head><body>{b}</body></html>"
    (emb / "video.html").write_text(small.format(t="Video player", b=(
        "<div role='region' aria-label='Video player'><video controls width='320' src='data:,'></video>"
        "<button>Play</button><button aria-pressed='false'>Mute</button><input type='range' aria-label='Seek'>"
        "<button>Settings</button><button>Full screen</button><a href='#'>Watch on the video site</a></div>")))
    (emb / "map.html").write_text(small.format(t="Map", b=(
        "<div role='application' aria-label='Map'>" + "".join(f"<img alt='Tile {i}' src='data:,'>" for i in range(24)) +
        "<button>Zoom in</button><button>Zoom out</button><a href='#'>Directions</a></div>")))
    (emb / "post.html").write_text(small.format(t="Social post", b=(
        f"<article><h1>{title(3)}</h1><p>{words(30)}</p><a href='#'>@{WORDS[0]}</a><button>Like</button>"
        "<button>Share</button><button>Follow</button></article>")))
    (emb / "ad.html").write_text(small.format(t="Advertisement", b=(
        "<a href='#'><img alt='Sponsored: great deals' src='data:,'></a><button aria-label='Close ad'>×</button>"
        "<iframe data-cross='embeds/tracker.html' title='Ad tracker' width='1' height='1'></iframe>"
        "<script src='/origins.js'></script><script src='../cross.js'></script>")))
    (emb / "tracker.html").write_text(small.format(t="Tracker", b="<p>.</p>"))
    (emb / "widget.html").write_text(small.format(t="Comments widget", b=comments(8)))
    big = "".join(f"<li><a href='#'>{title(2)}</a> <button>Act {i}</button></li>" for i in range(66))
    (emb / "panel200.html").write_text(small.format(t="Panel", b=(
        f"<main><h1>Panel</h1><ul>{big}</ul></main>")))  # 66 * 3 + 2 = 200 elements


CROSS_JS = """// Gives each iframe[data-cross] its src on the other loopback origin of the benchmark server.
(function () {
  var o = window.VERDEX_ORIGINS;
  if (!o) return;
  var other = location.origin === o.a ? o.b : o.a;
  var frames = document.querySelectorAll('iframe[data-cross]');
  for (var i = 0; i < frames.length; i++) frames[i].src = other + '/' + frames[i].getAttribute('data-cross');
})();
"""


def main() -> None:
    SITE.mkdir(parents=True, exist_ok=True)
    (SITE / "cross.js").write_text(CROSS_JS)
    write_embeds()
    p = page
    p("news-front.html", "Daily News", header("Daily News", 9) + "<main><h1>Top stories</h1>" +
      "".join(f"<article><h2><a href='#'>{title(7)}</a></h2><p>{words(30)}</p></article>" for _ in range(40)) +
      embed("embeds/ad.html", "Advertisement", 90) + "</main>" + footer(5))
    p("news-article.html", "Article", header("Daily News", 9) + f"<main><article><h1>{title(9)}</h1>"
      f"<p>By <a href='#'>{title(2)}</a>, <time>2026-11-24</time></p>" + "".join(para(60) for _ in range(14)) +
      embed("embeds/video.html", "Video") + embed("embeds/post.html", "Social post") + "</article>" +
      comments(12) + "</main><aside><h2>Most read</h2><ol>" + "".join(f"<li><a href='#'>{title(6)}</a></li>"
      for _ in range(10)) + "</ol>" + embed("embeds/ad.html", "Advertisement", 250) + "</aside>" + footer(5))
    p("docs-page.html", "Docs", header("Docs", 5) + "<div><nav aria-label='Sidebar'><ul>" + "".join(
      f"<li><a href='#'>{title(3)}</a></li>" for _ in range(60)) + "</ul></nav><main><h1>Getting started</h1>" +
      "".join(f"<h2 id='s{i}'>{title(3)}</h2>{para(50)}<pre><code>{words(20)}</code></pre>" for i in range(12)) +
      "</main></div>" + footer(3))
    p("api-reference.html", "API", header("API", 5) + "<main><h1>API reference</h1>" + "".join(
      f"<section><h2><code>{WORDS[i % len(WORDS)]}_{i}()</code></h2>{para(25)}" + table(6, 4) + "</section>"
      for i in range(25)) + "</main>" + footer(3))
    p("shop-listing.html", "Shop", header("Shop", 8) + "<main><h1>Lamps</h1><aside><h2>Filters</h2>" +
      "".join(f"<label><input type='checkbox'> {title(1)}</label>" for _ in range(20)) + "</aside>" + cards(48) +
      "<nav aria-label='Pages'>" + "".join(f"<a href='#'>{i}</a>" for i in range(1, 11)) + "</nav></main>" + footer(4))
    p("product.html", "Product", header("Shop", 8) + f"<main><h1>{title(3)}</h1><img alt='Product photo' src='data:,'>"
      "<p class='price'>$129.00</p><label>Size <select><option>S</option><option>M</option><option>L</option></select>"
      "</label><label>Qty <input type='number' value='1' min='1'></label><button>Add to cart</button>" + faq(6) +
      shadow_widgets(3) + "<h2>Related</h2>" + cards(8) + embed("embeds/video.html", "Product video") + "</main>" + footer(4))
    p("cart.html", "Cart", header("Shop", 4, False) + "<main><h1>Your cart</h1>" + table(6, 5, True) +
      form(8) + "</main>" + footer(2))
    p("login.html", "Sign in", "<main><h1>Sign in</h1><form><label>Email <input type='email'></label>"
      "<label>Password <input type='password'></label><label><input type='checkbox'> Remember me</label>"
      "<button>Sign in</button><a href='#'>Forgot password?</a></form></main>")
    p("signup.html", "Sign up", header("App", 3, False) + "<main><h1>Create your account</h1>" + form(22) +
      "</main>" + footer(2))
    p("search-results.html", "Results", header("Find", 6) + "<main><h1>Results</h1><ol>" + "".join(
      f"<li><h2><a href='#'>{title(6)}</a></h2><cite>https://example.test/{WORDS[i % 20]}</cite><p>{words(28)}</p></li>"
      for i in range(30)) + "</ol></main>" + footer(3))
    p("dashboard.html", "Dashboard", header("Admin", 7) + "<main><h1>Overview</h1>" + "".join(
      f"<section aria-label='{title(2)}'><h2>{title(2)}</h2><p role='status'>{rng.randint(10, 999)}</p></section>"
      for _ in range(8)) + table(40, 7, True) + "</main>")
    p("blog-post.html", "Blog", header("Blog", 5) + f"<main><article><h1>{title(8)}</h1>" + "".join(
      para(70) for _ in range(10)) + "</article>" + comments(25) + embed("embeds/widget.html", "Discussion", 400) +
      "</main>" + footer(3))
    p("forum-thread.html", "Forum", header("Forum", 6) + "<main><h1>Thread</h1>" + comments(60) + form(3) + "</main>")
    p("pricing.html", "Pricing", header("SaaS", 5) + "<main><h1>Pricing</h1>" + "".join(
      f"<section><h2>{plan}</h2><p>${price}/month</p><ul>" + "".join(f"<li>{title(3)}</li>" for _ in range(8)) +
      "</ul><button>Choose</button></section>" for plan, price in (("Free", 0), ("Pro", 12), ("Team", 40))) +
      faq(10) + "</main>" + footer(4))
    p("faq.html", "FAQ", header("Help", 5) + "<main><h1>Frequently asked questions</h1>" + faq(40) + "</main>" + footer(3))
    p("settings.html", "Settings", header("App", 4, False) + "<main><h1>Settings</h1><div role='tablist' aria-label='Settings'>"
      + "".join(f"<button role='tab' aria-selected='{str(i == 0).lower()}' aria-controls='t{i}'>{title(1)}</button>"
                for i in range(5)) + "</div>" + "".join(
      f"<div role='tabpanel' id='t{i}' {'hidden' if i else ''}>{form(6)}</div>" for i in range(5)) + "</main>")
    p("data-table.html", "Data", header("Data", 4) + "<main><h1>Records</h1>" + table(500, 6, True) + "</main>")
    p("long-docs.html", "Manual", header("Manual", 6) + "<main><h1>Manual</h1>" + "".join(
      f"<section><h2>{title(4)}</h2>" + "".join(para(40) for _ in range(4)) + "<ul>" +
      "".join(f"<li><a href='#'>{title(3)}</a></li>" for _ in range(8)) + "</ul></section>" for _ in range(60)) +
      "</main>" + footer(5))
    p("landing.html", "Welcome", header("Startup", 5) + "<main><h1>Build faster</h1><p>" + words(20) + "</p>"
      "<a href='#' role='button'>Get started</a>" + "".join(f"<section><h2>{title(3)}</h2>{para(25)}</section>"
      for _ in range(6)) + embed("embeds/video.html", "Demo video") + "</main>" + footer(4))
    p("inbox.html", "Inbox", header("Mail", 3) + "<main><h1>Inbox</h1><ul role='listbox' aria-label='Messages'>" +
      "".join(f"<li role='option' aria-selected='false' tabindex='-1'>{title(2)} — {words(8)}</li>"
              for _ in range(120)) + "</ul><button>Compose</button></main>")
    p("calendar.html", "Calendar", header("Calendar", 3) + "<main><h1>November 2026</h1><div role='grid' aria-label='Month'>"
      + "".join("<div role='row'>" + "".join(f"<div role='gridcell' tabindex='-1'>{d}</div>"
                for d in range(w * 7 + 1, w * 7 + 8)) + "</div>" for w in range(5)) + "</div></main>")
    p("kanban.html", "Board", header("Tasks", 4) + "<main><h1>Sprint</h1>" + "".join(
      f"<section aria-label='{col}'><h2>{col}</h2><ul>" + "".join(
          f"<li draggable='true'><h3>{title(4)}</h3><button>Edit</button><button>Move</button></li>" for _ in range(15))
      + "</ul></section>" for col in ("To do", "Doing", "Review", "Done")) + "</main>")
    p("gallery.html", "Gallery", header("Photos", 5) + "<main><h1>Gallery</h1>" + "".join(
      f"<figure><a href='#'><img alt='{title(3)}' src='data:,'></a><figcaption>{title(4)}</figcaption></figure>"
      for _ in range(80)) + "</main>" + footer(2))
    p("store-locator.html", "Stores", header("Shop", 5) + "<main><h1>Find a store</h1>" + form(2) +
      embed("embeds/map.html", "Map", 400) + "<ol>" + "".join(
          f"<li><h2>{title(2)}</h2><p>{words(8)}</p><a href='#'>Directions</a></li>" for _ in range(20)) +
      "</ol></main>" + footer(3))
    p("video-page.html", "Watch", header("Tube", 4) + "<main>" + embed("embeds/video.html", "Player", 360) +
      f"<h1>{title(6)}</h1><button>Subscribe</button>" + comments(30) + "</main><aside><h2>Up next</h2>" + "".join(
          f"<a href='#'><img alt='' src='data:,'>{title(5)}</a>" for _ in range(20)) + "</aside>")
    p("embeds-heavy.html", "Magazine", header("Magazine", 7) + "<main><h1>Weekend edition</h1>" + para(60) +
      embed("embeds/video.html", "Video") + embed("embeds/post.html", "Post") + embed("embeds/map.html", "Map") +
      embed("embeds/ad.html", "Ad") + embed("embeds/widget.html", "Comments") + "</main>" + footer(4))
    p("tiny.html", "Tiny", "<main><h1>Hello</h1><p>Small page.</p><a href='#'>Link</a><button>OK</button></main>")
    p("error-404.html", "Not found", header("Site", 4) + "<main><h1>Page not found</h1><p>Try the search.</p></main>" + footer(2))
    p("checkout.html", "Checkout", header("Shop", 3, False) + "<main><h1>Checkout</h1>" + form(16) +
      "<dialog open aria-label='Confirm'><p>Place order?</p><button>Yes</button><button>No</button></dialog></main>")
    p("wiki-article.html", "Wiki", header("Wiki", 6) + "<main><h1>" + title(3) + "</h1><nav aria-label='Contents'><ol>" +
      "".join(f"<li><a href='#'>{title(2)}</a></li>" for _ in range(15)) + "</ol></nav>" + "".join(
          f"<h2>{title(3)}</h2>" + para(90) + para(60) for _ in range(15)) + table(12, 4) + "</main>" + footer(4))
    p("components.html", "Components", header("UI kit", 4) + "<main><h1>Components</h1>" + shadow_widgets(30) +
      faq(5) + "<div role='toolbar' aria-label='Format'>" + "".join(
          f"<button aria-pressed='false'>{t}</button>" for t in ("Bold", "Italic", "Underline")) + "</div></main>")
    p("jobs-board.html", "Jobs", header("Jobs", 6) + "<main><h1>Open positions</h1>" + "".join(
      f"<article><h2><a href='#'>{title(3)}</a></h2><p>{title(2)} · Remote</p><button>Apply</button>"
      "<button>Save</button></article>" for _ in range(50)) + "</main>" + footer(3))
    frames10 = "".join(embed("embeds/panel200.html", f"Panel {i}", 150) for i in range(10))
    p("frames10.html", "Ten panels", "<main><h1>Ten cross-origin panels</h1>" + frames10 + "</main>")


if __name__ == "__main__":
    main()
