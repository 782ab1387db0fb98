"""The rulings page in Chromium: a link to a ruling (`/rulings#s5`, as a refusal's `rule_sources` gives it) lands on
its section in the browser's language, the switch gives the same section in the other language, a phone needs no
horizontal scroll (the wide tables scroll on their own), nothing comes from another host, and axe-core finds
nothing serious."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from tests.browser.conftest import PHONE, Site, switch_language, wait_until


def test_a_link_to_a_ruling_lands_on_its_section_in_either_language(site: Site, new_page: Callable[..., Any]) -> None:
    page = new_page(locale="fr-FR")
    page.goto(f"{site.url}/rulings#s5-all-protected")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h1").inner_text() == "Décisions d'arbitrage"
    point = page.locator("#s5-all-protected")
    assert point.inner_text() == "Quand tous les autres joueurs sont protégés"
    assert point.is_visible() and point.evaluate("(h) => h.matches(':target')")
    top = point.evaluate("(h) => h.getBoundingClientRect().top")
    assert 0 <= top < 200, top  # scrolled to, not left below the fold
    switch_language(page, "English")
    wait_until(page, "() => document.documentElement.lang === 'en'")
    page.goto(f"{site.url}/rulings#s5")
    assert page.locator("#s5").inner_text() == "§5 The cards"
    page.locator("#s5").locator("xpath=following::a[@href='#s7']").first.click()
    wait_until(page, "() => location.hash === '#s7'")
    assert page.locator("#s7").inner_text() == "§7 The Spy's favor"


def test_the_rulings_page_on_a_phone_and_for_axe(site: Site, new_page: Callable[..., Any]) -> None:
    source = (Path(pytest.importorskip("axe_playwright_python").__file__).parent / "axe.min.js").read_text()
    for locale in ("en-GB", "fr-FR"):
        page = new_page(locale=locale, viewport=PHONE)
        page.goto(f"{site.url}/rulings#sources")
        assert page.locator("#sources ~ .table table").first.is_visible()
        width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], (locale, width)
        page.evaluate(source)  # axe is given to the page by the test, never served by the app
        violations, passes = page.evaluate(
            "async () => { const r = await axe.run(document); return [r.violations, r.passes.length]; }"
        )
        assert passes > 10
        serious = [f"{v['id']} ({v['impact']})" for v in violations if v["impact"] in ("serious", "critical")]
        assert serious == [], locale
