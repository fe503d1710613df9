"""Browser test: on the new-match form an option that does not apply is hidden by
the page's little script, and shown as soon as it applies (without the script it
stays, its condition written beside it: tests/test_wording.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_options_that_do_not_apply_are_hidden_until_they_do(page, live_server):
    page.goto(live_server + "/new/black_maria")
    spot = page.locator("fieldset[data-option=spot_values]")
    deals = page.locator("fieldset[data-option=deals]")
    target = page.locator("fieldset[data-option=target]")
    # Black Maria scoring and the end at a target: no spot values, no number of deals
    assert spot.is_hidden() and deals.is_hidden() and target.is_visible()
    page.locator("label.chip:has(input[name=opt_scoring][value=spot])").tap()
    assert spot.is_visible()
    page.locator("label.chip:has(input[name=opt_end][value=deals])").tap()
    assert deals.is_visible() and target.is_hidden()
    page.locator("label.chip:has(input[name=opt_scoring][value=black_lady])").tap()
    assert spot.is_hidden()
