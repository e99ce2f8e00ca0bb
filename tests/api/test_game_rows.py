"""The player page's game table written in Python (``ratingdb.api.game_rows``): its head and
rows are the text the template wrote, byte for byte. The template's former head and loop are
rendered beside them for games of every kind (rated, capped, an unrated opponent with its
reason, a rate of play outside the category, a score without delta), names and ids that need
escaping and quoting, in English and French, with and without ``?lang=``. One row is also
worked by hand, from the French catalogue: Anna's game against Max (2435, D -585 capped at
-400), a draw."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from ratingdb.api.game_rows import game_rows, games_head
from ratingdb.api.i18n import Reader
from ratingdb.api.routes.pages import _kept_gettext, templates
from ratingdb.rules.period import OPPONENT_UNRATED
from ratingdb.services.published import GameLine

#: The table's head as player.html wrote it before games_head.
HEAD = """<thead><tr><th scope="col">{{ _('Tournament') }}</th><th scope="col" class="num">{{ _('Rd') }}</th><th scope="col">{{ _('Opponent') }}</th><th scope="col" class="num">{{ _('Rating') }}</th><th scope="col" class="num">{{ _('D used') }}</th><th scope="col" class="num">{{ _('Expected') }}</th><th scope="col" class="num">{{ _('Score') }}</th><th scope="col" class="num">{{ _('Delta') }}</th></tr></thead>"""  # noqa: E501
#: The loop as player.html wrote it before game_rows (its labels looked up in the loop).
LOOP = """\
    {% for g in games %}
    <tr{% if not g.rated or g.delta is none %} class="unrated"{% endif %}>
      <td class="name" data-label="{{ _('Tournament') }}"><a href="{{ ('/tournaments/' ~ (g.tournament_id | urlencode)) | link }}">{{ g.tournament_name }}</a></td>
      <td class="num" data-label="{{ _('Rd') }}">{{ g.round }}</td>
      <td class="name" data-label="{{ _('Opponent') }}"><a href="{{ ('/players/' ~ g.opponent_id) | link }}">{{ g.opponent_name }}</a></td>
      <td class="num" data-label="{{ _('Rating') }}">{{ g.opponent_rating | dash }}</td>
      <td class="num" data-label="{{ _('D used') }}">{% if g.difference_used is not none %}{{ g.difference_used }}{% if g.difference != g.difference_used %}<span class="capped" title="{{ _('D %(difference)s, capped', difference=g.difference) }}"> ({{ _('cap') }})</span>{% endif %}{% else %}–{% endif %}</td>
      <td class="num" data-label="{{ _('Expected') }}">{{ g.expected | decimal | default('–', true) }}</td>
      <td class="num" data-label="{{ _('Score') }}">{{ g.score | decimal(0) }}</td>
      <td class="num" data-label="{{ _('Delta') }}">{{ g.delta | decimal | default('–', true) if g.rated else '–' }}</td>
    </tr>
    {% if not g.rated %}<tr class="unrated why"><td colspan="8" class="reason">{{ _('not rated: %(reason)s', reason=g.reason | reason) }}</td></tr>{% endif %}
    {% endfor %}
"""  # noqa: E501, RUF001


def _game(**changes: object) -> GameLine:
    fields: dict[str, object] = {
        "tournament_id": "T000001", "tournament_name": "Open <A> & B", "start_date":
        date(2026, 10, 10), "round": 1, "opponent_id": "1006", "opponent_name": 'Max "M" D',
        "rating_used": 1850, "opponent_rating": 2435, "difference": -585,
        "difference_used": -400, "expected": Decimal("0.08"), "score": Decimal("0.5"),
        "delta": Decimal("0.42"), "rated": True, "reason": None,
    }  # fmt: skip
    fields.update(changes)
    return GameLine(**fields)  # type: ignore[arg-type]


GAMES = [
    _game(),  # capped: D -585 used as -400
    _game(
        round=2,
        opponent_id="1005",
        opponent_name="Jo",
        opponent_rating=1671,
        difference=179,
        difference_used=179,
        expected=Decimal("0.73"),
        score=Decimal("0"),
        delta=Decimal("-0.73"),
    ),
    _game(
        tournament_id="T 2/é?",
        round=3,
        opponent_rating=None,
        difference=None,
        difference_used=None,
        expected=None,
        score=Decimal("1"),
        delta=None,
        rated=False,
        reason=OPPONENT_UNRATED,
    ),
    _game(round=4, rated=False, delta=None, reason="rate of play outside fide-blitz"),
    _game(round=5, delta=None, expected=Decimal("0.5715"), difference=0, difference_used=0),
    # Equal decimals written alike, and a negative zero apart from zero (the texts are kept
    # by value).
    _game(round=6, expected=Decimal("0.50"), score=Decimal("0.50"), delta=Decimal("-0.00")),
    _game(round=7, expected=Decimal("0.5"), score=Decimal("0.5"), delta=Decimal("0.00")),
    _game(round=8, expected=Decimal("1234.5"), delta=Decimal("-0")),
]


@pytest.mark.parametrize(("language", "explicit"), [("en", False), ("fr", False), ("fr", True)])
def test_the_rows_the_template_wrote(language: str, explicit: bool) -> None:
    reader = Reader(language, explicit, ())
    loop = templates.env.from_string(LOOP)
    expected = loop.render(games=GAMES, reader=reader)
    context = loop.new_context({"games": GAMES, "reader": reader})

    def messages(message: str, **values: object) -> str:
        return _kept_gettext(context, message, **values)

    written = game_rows(GAMES, reader, messages)
    assert str(written) == expected
    head = templates.env.from_string(HEAD).render(reader=reader)
    assert str(games_head(messages)) == head
    assert expected.count("<tr") == len(GAMES) + 2  # two reasons
    assert (">-0.00<" if language == "en" else ">-0,00<") in expected


def test_a_row_worked_by_hand() -> None:
    reader = Reader("fr", True, ())
    context = templates.env.from_string("").new_context({"reader": reader})
    written = game_rows(
        [GAMES[0]], reader, lambda message, **values: _kept_gettext(context, message, **values)
    )
    assert str(written) == (
        "    <tr>\n"
        '      <td class="name" data-label="Tournoi"><a href="/tournaments/T000001?lang=fr">'
        "Open &lt;A&gt; &amp; B</a></td>\n"
        '      <td class="num" data-label="Rd">1</td>\n'
        '      <td class="name" data-label="Adversaire"><a href="/players/1006?lang=fr">'
        "Max &#34;M&#34; D</a></td>\n"
        '      <td class="num" data-label="Classement">2435</td>\n'
        '      <td class="num" data-label="D utilisé">-400<span class="capped" '
        'title="D -585, plafonné"> (plafond)</span></td>\n'
        '      <td class="num" data-label="Attendu">0,08</td>\n'
        '      <td class="num" data-label="Résultat">0,5</td>\n'
        '      <td class="num" data-label="Écart">0,42</td>\n'
        "    </tr>\n"
    )
