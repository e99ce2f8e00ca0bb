"""A game not rated for its rate of play says why in the reader's language, and the API gives
the reason's stable code (issue 27 item 1). The stored words come from the rules core
(rules.rate_of_play), each refusal made there, never written by hand here."""

from __future__ import annotations

from datetime import date

import pytest

from ratingdb.api.i18n import Reader
from ratingdb.api.reasons import reason_words
from ratingdb.rules import Category
from ratingdb.rules.period import EXCLUDED_600, OPPONENT_UNRATED, not_rated_code
from ratingdb.rules.rate_of_play import eligibility, parse_time_control

NOW = date(2026, 11, 10)


def refusal(category: Category, control: str, white: int | None, black: int | None) -> str:
    found = eligibility(category, NOW, parse_time_control(control), white, black)
    assert found.reason is not None
    return found.reason


CASES = [
    (Category.FIDE_STANDARD, "3600+30", 2410, 2000, "rate-of-play-too-fast",
     ("cadence de 90 min pour 60 coups, en dessous des 120 min exigées quand un joueur a un "
     "classement de 2400 ou plus")),
    (Category.FIDE_STANDARD, "1800", 1500, 1400, "rate-of-play-too-fast",
     ("cadence de 30 min pour 60 coups, en dessous des 60 min exigées quand les deux joueurs ont "
     "un classement inférieur à 1800")),
    (Category.FIDE_STANDARD, "20/3600:3600", 1500, 1500, "first-control-too-short",
     "le premier contrôle de temps porte sur 20 coups, moins de 30"),
    (Category.FIDE_RAPID, "W900+10-B600+10", None, None, "different-playing-times",
     "les joueurs avaient des temps de réflexion différents (W900+10-B600+10)"),
    (Category.FIDE_BLITZ, "900", None, None, "rate-of-play-outside-category",
     ("cadence de 15 min pour 60 coups, le classement FIDE blitz exige plus de 3 et au plus 10 "
     "minutes")),
    (Category.FIDE_RAPID, "300", None, None, "rate-of-play-outside-category",
     ("cadence de 5 min pour 60 coups, le classement FIDE rapide exige plus de 10 et moins de 60 "
     "minutes")),
]  # fmt: skip


@pytest.mark.parametrize(("category", "control", "white", "black", "code", "french"), CASES)
def test_each_rate_of_play_reason_in_french_and_its_code(
    category: Category, control: str, white: int | None, black: int | None, code: str, french: str
) -> None:
    reason = refusal(category, control, white, black)
    assert not_rated_code(reason) == code
    english = Reader("en", False, ())
    # In English as stored, the category by its name ("FIDE blitz", not "fide-blitz").
    assert reason_words(reason, english.gettext, english.category) == reason.replace(
        category.value, english.category(category)
    )
    reader = Reader("fr", False, ())
    assert reason_words(reason, reader.gettext, reader.category) == french


def test_the_other_reasons_keep_their_codes_and_words() -> None:
    assert not_rated_code(OPPONENT_UNRATED) == "opponent-unrated"
    assert not_rated_code(EXCLUDED_600) == "600-point-rule"
    reader = Reader("fr", False, ())
    assert reason_words(OPPONENT_UNRATED, reader.gettext, reader.category) == (
        "l\u2019adversaire n\u2019\u00e9tait pas class\u00e9"
    )
    # Words no rule writes are shown as stored, with no code.
    assert not_rated_code("something else") is None
    assert reason_words("something else", reader.gettext, reader.category) == "something else"
