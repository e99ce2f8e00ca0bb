"""Titles by rating (§1.3) and the rating requirement of the norm titles (§1.5.3)."""

from __future__ import annotations

from datetime import date

import pytest

from ratingdb.rules.titles import (
    FIDE_TITLES_2024_01,
    NoTitleRegulations,
    RatingPoint,
    ReachKind,
    Title,
    first_reaches,
    outranks,
    title_regulations_on,
)


def _reached(history: list[RatingPoint], *, woman: bool) -> dict[Title, date]:
    return {
        reach.title: reach.list_date
        for reach in first_reaches(history, woman=woman, regulations=FIDE_TITLES_2024_01)
    }


def test_fm_needs_2300_with_30_rated_games_at_that_time() -> None:
    history = [
        RatingPoint(date(2025, 1, 1), 2310, 25),  # 2300 but only 25 games: not yet FM
        RatingPoint(date(2025, 2, 1), 2295, 31),
        RatingPoint(date(2025, 3, 1), 2300, 36),  # FM here
        RatingPoint(date(2025, 4, 1), 2405, 40),
    ]
    reached = _reached(history, woman=False)
    assert reached[Title.FM] == date(2025, 3, 1)
    assert reached[Title.CM] == date(2025, 2, 1)  # 2295 >= 2200 with 31 games
    assert reached[Title.IM] == date(2025, 4, 1)  # §1.5.3: no games condition
    assert Title.GM not in reached
    assert Title.WFM not in reached  # women's titles for women only


def test_the_norm_requirement_has_no_games_condition() -> None:
    [reach] = [
        r
        for r in first_reaches(
            [RatingPoint(date(2025, 1, 1), 2500, 3)], woman=False, regulations=FIDE_TITLES_2024_01
        )
        if r.title is Title.GM
    ]
    assert (reach.kind, reach.threshold, reach.min_games) == (ReachKind.REQUIREMENT, 2500, None)


def test_a_woman_reaches_womens_titles_and_open_ones() -> None:
    history = [RatingPoint(date(2025, 1, 1), 2105, 40)]
    assert set(_reached(history, woman=True)) == {Title.WFM, Title.WCM}
    history = [RatingPoint(date(2025, 1, 1), 2205, 40)]
    assert set(_reached(history, woman=True)) == {Title.WFM, Title.WCM, Title.CM, Title.WIM}


def test_ratings_before_july_2017_need_no_games() -> None:
    history = [RatingPoint(date(2017, 7, 1), 2301, 5), RatingPoint(date(2017, 8, 1), 2301, 6)]
    reached = _reached(history, woman=False)
    assert reached[Title.FM] == date(2017, 7, 1)


def test_the_regulations_start_in_2024() -> None:
    assert title_regulations_on(date(2026, 12, 1)) is FIDE_TITLES_2024_01
    with pytest.raises(NoTitleRegulations, match="from 2024-01-01 only"):
        title_regulations_on(date(2023, 12, 31))


def test_titles_parse_and_refuse() -> None:
    assert Title.parse("WGM") is Title.WGM
    assert Title.parse(None) is None
    with pytest.raises(ValueError, match="unknown title 'XX'"):
        Title.parse("XX")


def test_a_held_title_outranks_itself_and_the_lower_ones() -> None:
    assert outranks(Title.IM, Title.IM)
    assert outranks(Title.IM, Title.WGM)
    assert not outranks(Title.IM, Title.GM)
    assert outranks(Title.FM, Title.WIM)
    assert not outranks(Title.WIM, Title.FM)
    assert not outranks(None, Title.WCM)
