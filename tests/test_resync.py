"""Reading on after a rejected action: the nearness of spellings that ranks the actions is
difflib's, worked out with less bookkeeping; every shortcut gives difflib's own figures."""

from __future__ import annotations

from difflib import SequenceMatcher

from hypothesis import given, settings
from hypothesis import strategies as st

from gametool.records.resync import Counts, _ratio, _ratio_of, _shared

# Few letters, so that texts share runs and repeated characters (the cases that tie).
TEXTS = st.text("ab e4+#@x-1", max_size=16)


@settings(max_examples=1000, deadline=None, database=None)
@given(TEXTS, TEXTS)
def test_the_ratio_is_difflibs(wanted: str, text: str) -> None:
    assert _ratio(wanted, text, SequenceMatcher(None, wanted, "")) == \
        SequenceMatcher(None, wanted, text).ratio()


@settings(max_examples=50, deadline=None, database=None)
@given(st.text("ab e4+#@x-1", min_size=150, max_size=3000), st.text("ab e4", max_size=240))
def test_the_ratio_of_a_long_rejected_text_is_difflibs(wanted: str, text: str) -> None:
    """A long rejected line (and a text past 200 characters, where difflib sets aside its most
    frequent characters and the matcher itself serves)."""
    assert _ratio(wanted, text, SequenceMatcher(None, wanted, "")) == \
        SequenceMatcher(None, wanted, text).ratio()


@settings(max_examples=1000, deadline=None, database=None)
@given(TEXTS, TEXTS)
def test_the_bound_is_difflibs_quick_ratio_and_exact_when_one_character_is_shared(
        wanted: str, text: str) -> None:
    tally: dict[str, int] = {}
    for char in wanted:
        tally[char] = tally.get(char, 0) + 1
    shared = _shared(Counts(tally), text)
    matcher = SequenceMatcher(None, wanted, text)
    assert _ratio_of(shared, len(wanted), text) == matcher.quick_ratio()
    if shared <= 1:
        assert _ratio_of(shared, len(wanted), text) == matcher.ratio()
