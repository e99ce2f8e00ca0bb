"""English and French pages (issue 15): the language chosen from ``?lang=``, else
``Accept-Language``, else English; a switch on each page keeping the query; ``<html lang>``;
numbers and dates the reader's way; category names for people; and catalogues that are
complete and up to date with the templates."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from ratingdb.api.i18n import (
    CATEGORY_NAMES,
    LANGUAGES,
    LOCALES,
    Reader,
    choose_language,
)
from ratingdb.rules import Category
from tests.api.test_pages import page

ROOT = Path(__file__).resolve().parents[2]
FRENCH = {"Accept-Language": "fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7"}


def test_choose_language() -> None:
    assert choose_language(None, None) == "en"
    assert choose_language("fr", None) == "fr"
    assert choose_language("en", "fr") == "en"  # the address wins
    assert choose_language("de", "fr-CA") == "fr"  # an unknown lang is passed over
    assert choose_language(None, "de-DE,de;q=0.9,fr;q=0.5,en;q=0.4") == "fr"
    assert choose_language(None, "en;q=0.5, fr;q=0.8") == "fr"  # by quality, not order
    assert choose_language(None, "fr;q=0, en") == "en"  # q=0: not acceptable
    assert choose_language(None, "de, it") == "en"
    assert choose_language(None, "FR") == "fr"
    assert choose_language(None, "*") == "en"


@given(st.one_of(st.none(), st.text(max_size=20)), st.one_of(st.none(), st.text(max_size=200)))
def test_any_header_gives_a_language_of_the_site(asked: str | None, header: str | None) -> None:
    assert choose_language(asked, header) in LANGUAGES


def test_numbers_and_dates_the_readers_way() -> None:
    english, french = Reader("en", False, ()), Reader("fr", False, ())
    assert (english.number(1234), french.number(1234)) == ("1,234", "1\u202f234")
    assert english.date(date(2026, 12, 1)) == "December 1, 2026"
    # The first of a month is an ordinal in French (1er), the other days cardinals.
    assert french.date(date(2026, 12, 1)) == "1er décembre 2026"
    assert french.date(date(2026, 12, 2)) == "2 décembre 2026"
    assert french.date(date(2027, 1, 31)) == "31 janvier 2027"
    assert english.date(date(2027, 1, 31)) == "January 31, 2027"
    # Exact decimals, every digit kept, at least two places.
    assert english.decimal(Decimal("0.5715")) == "0.5715"
    assert french.decimal(Decimal("0.5715")) == "0,5715"
    assert french.decimal(Decimal("0.9")) == "0,90"
    assert french.signed(Decimal("-5.5"), 2) == "-5,50"
    assert english.signed(12) == "+12"
    assert french.decimal(Decimal("1771.43"), grouping=False) == "1771,43"


def test_numbers_written_as_babel_writes_them() -> None:
    """Reader.number and Reader.decimal format without Babel (one call each was two fifths of
    a list page's rendering): the same text as Babel's ``format_decimal``, the French thousands
    grouped by a narrow no-break space (U+202F)."""
    english, french = Reader("en", False, ()), Reader("fr", False, ())
    assert [french.number(n) for n in (0, 7, -7, 999, 1000, -1000, 486637, 1234567)] == [
        "0", "7", "-7", "999", "1\u202f000", "-1\u202f000", "486\u202f637", "1\u202f234\u202f567"
    ]  # fmt: skip
    assert [english.number(n) for n in (999, 1000, -12345, 1234567)] == [
        "999", "1,000", "-12,345", "1,234,567"
    ]  # fmt: skip
    assert french.decimal(Decimal("12345.6")) == "12\u202f345,60"
    assert english.decimal(Decimal("12345.6"), grouping=False) == "12345.60"
    assert english.decimal(Decimal("0.5000")) == "0.50"  # trailing zeros past the places
    assert english.decimal(Decimal("0.5710"), 0) == "0.571"
    assert english.decimal(Decimal("-0.00")) == "-0.00"
    assert french.decimal(Decimal("2"), 0) == "2"
    assert english.signed(Decimal("8.5700"), 2) == "+8.57"
    with pytest.raises(TypeError, match="whole number"):
        english.number(Decimal("1.5"))  # type: ignore[arg-type]


@settings(max_examples=500)
@given(
    st.sampled_from(sorted(LANGUAGES)),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.integers(min_value=0, max_value=6),
    st.integers(min_value=0, max_value=4),
    st.booleans(),
)
def test_numbers_are_babels(
    language: str, digits: int, scale: int, places: int, grouping: bool
) -> None:
    reader = Reader(language, False, ())
    assert reader.number(digits) == format_decimal(digits, locale=language)
    value = Decimal(digits).scaleb(-scale)
    pattern = ("#,##0" if grouping else "0") + ("." + "0" * places if places else "")
    babel = format_decimal(value, format=pattern, locale=language, decimal_quantization=False)
    assert reader.decimal(value, places, grouping) == babel


def test_category_names_for_people_from_one_place() -> None:
    assert set(CATEGORY_NAMES) == set(Category)
    english, french = Reader("en", False, ()), Reader("fr", False, ())
    assert [english.category(c) for c in Category] == [
        "FIDE standard", "FIDE rapid", "FIDE blitz", "FFE rapid",
    ]  # fmt: skip
    assert [french.category(c) for c in Category] == [
        "FIDE standard", "FIDE rapide", "FIDE blitz", "Elo rapide FFE",
    ]  # fmt: skip


def test_home_in_french_from_accept_language(client: TestClient) -> None:
    response = client.get("/", headers=FRENCH)
    assert response.headers["content-language"] == "fr"
    assert "Accept-Language" in response.headers["vary"]
    assert '<html lang="fr">' in response.text
    parsed = page(client, "/?lang=fr")
    assert "Listes de classement" in parsed.text
    assert "FIDE standard · 2026-11" in parsed.text
    assert "Elo rapide FFE · 2026-10" in parsed.text
    assert "Liste du 1er novembre 2026, 7 joueurs classés, règles fide-standard-2025-10." in (
        parsed.text
    )
    english = page(client, "/")
    assert "List of November 1, 2026, 7 rated players, rules fide-standard-2025-10." in (
        english.text
    )
    # ?lang= wins over the header.
    assert '<html lang="en">' in client.get("/?lang=en", headers=FRENCH).text


def test_the_switch_keeps_the_query_and_links_keep_a_chosen_language(client: TestClient) -> None:
    parsed = page(client, "/?q=nina&lang=fr")
    switch = {a["hreflang"]: a for a in parsed.all("a") if a.get("hreflang")}
    assert switch["en"]["href"] == "/?q=nina&lang=en"
    assert switch["fr"]["href"] == "/?q=nina&lang=fr"
    assert switch["fr"].get("aria-current") == "true"
    assert "aria-current" not in switch["en"]
    assert "/players/1007?lang=fr" in [a["href"] for a in parsed.all("a")]
    assert "/calculator?lang=fr" in [a["href"] for a in parsed.all("a")]
    hidden = [i for i in parsed.all("input") if i.get("type") == "hidden"]
    assert {"type": "hidden", "name": "lang", "value": "fr"} in hidden
    # Chosen by the header only: links stay plain.
    plain = client.get("/", headers=FRENCH).text
    assert 'href="/calculator"' in plain


def test_player_page_in_french(client: TestClient) -> None:
    nina = page(client, "/players/1007?lang=fr")
    assert "Premier classement :" in nina.text
    assert "premier" in nina.texts
    anna = page(client, "/players/1001?lang=fr")
    assert "Classements publiés" in anna.text
    assert "Somme des écarts 0,19 × K 20 → variation" in anna.text  # noqa: RUF001
    assert "non comptée : l’adversaire n’était pas classé" in anna.texts  # noqa: RUF001 (written out)
    missing = page(client, "/players/999?lang=fr", status=404)
    assert "Aucun joueur 999." in missing.text


def _ids(path: Path) -> set[tuple[str | None, str]]:
    with path.open("rb") as file:
        return {
            (m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(file) if m.id
        }


def test_the_catalogues_are_complete_and_up_to_date(tmp_path: Path) -> None:
    # What `pybabel extract` finds in the code and templates today is what the catalogues have.
    fresh = tmp_path / "messages.pot"
    CommandLineInterface().run([  # type: ignore[no-untyped-call]
        "pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_",
        "-o", str(fresh), str(ROOT),
    ])  # fmt: skip
    found = _ids(fresh)
    assert found == _ids(LOCALES / "messages.pot")
    for language in LANGUAGES:
        assert _ids(LOCALES / language / "LC_MESSAGES" / "messages.po") == found, language
    # Every French message is translated, none is fuzzy.
    with (LOCALES / "fr" / "LC_MESSAGES" / "messages.po").open("rb") as file:
        french = read_po(file)
    for message in french:
        if message.id:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings), message.id
            assert not message.fuzzy, message.id


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_kept_message_is_the_one_jinja_would_make(language: str) -> None:
    """The pages keep each message's form without variables (routes.pages._kept_gettext): as
    jinja2's newstyle gettext makes it, ``%%`` written ``%`` and escaped once, and the same at
    the second call; a message with variables is formatted each time."""
    from ratingdb.api.i18n import Reader
    from ratingdb.api.routes.pages import templates

    reader = Reader(language, False, ())
    page = templates.env.from_string(
        "{{ _('average of the opponents; above 50 %%, + 20 per half point; below, + dp') }}|"
        "{{ _('average of the opponents; above 50 %%, + 20 per half point; below, + dp') }}|"
        "{{ _('No player %(id)s.', id='<b>') }}|{{ _('No player %(id)s.', id='7') }}"
    )
    first, again, escaped, plain = page.render(reader=reader).split("|")
    assert first == again
    assert "50 %," in first
    assert "%%" not in first
    assert escaped.endswith("&lt;b&gt;.")
    assert plain.endswith(" 7.")
