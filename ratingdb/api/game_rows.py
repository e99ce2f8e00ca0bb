"""The table of a period's games on the player page (its head and rows), written here rather
than by the template.

A ten-year player page shows some 400 games, a row of eight cells each: through Jinja2 each
cell's label, link, number and escape was a call into the template runtime, and the rows were
about half of a first render's template time (benchmarks/README.md, ``cold_history.py``).
Here each row is one format of values escaped once, the labels looked up once a table. The
text is the one the template wrote, byte for byte (``player.html`` calls :func:`game_rows`
where its loop was; tests/api/test_game_rows.py renders both).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any

from jinja2.utils import url_quote
from markupsafe import Markup, escape

from ratingdb.api.i18n import N_, Reader
from ratingdb.api.reasons import reason_words

#: The labels of the cells, in order (``data-label``: a narrow screen shows them beside each
#: value).
LABELS = (
    N_("Tournament"), N_("Rd"), N_("Opponent"), N_("Rating"), N_("D used"), N_("Expected"),
    N_("Score"), N_("Delta"),
)  # fmt: skip
#: Which cells hold numbers (right-aligned: ``class="num"``).
NUMERIC = (False, True, False, True, True, True, True, True)
CAP = N_("cap")
CAPPED = N_("D %(difference)s, capped")
NOT_RATED = N_("not rated: %(reason)s")
DASH = "\u2013"
_ROW = (
    '    <tr%s>\n      <td class="name" data-label="%s"><a href="%s">%s</a></td>\n'
    '      <td class="num" data-label="%s">%s</td>\n'
    '      <td class="name" data-label="%s"><a href="%s">%s</a></td>\n'
    '      <td class="num" data-label="%s">%s</td>\n'
    '      <td class="num" data-label="%s">%s</td>\n'
    '      <td class="num" data-label="%s">%s</td>\n'
    '      <td class="num" data-label="%s">%s</td>\n'
    '      <td class="num" data-label="%s">%s</td>\n'
    "    </tr>\n"
)
_UNRATED = ' class="unrated"'
_HEAD = '<th scope="col"%s>%s</th>'
_NUMBER = ' class="num"'
_WHY = '<tr class="unrated why"><td colspan="8" class="reason">%s</td></tr>'

#: A page's messages as the template shows them: ``gettext(message, **variables)``, Markup.
Messages = Callable[..., str]


def games_head(messages: Messages) -> Markup:
    """The table's head: the labels as column headers, as the template wrote it."""
    cells = "".join(
        _HEAD % (_NUMBER if numeric else "", messages(label))
        for label, numeric in zip(LABELS, NUMERIC, strict=True)
    )
    return Markup(f"<thead><tr>{cells}</tr></thead>")


def game_rows(games: Sequence[Any], reader: Reader, messages: Messages) -> Markup:
    """The ``<tr>`` of each game (``services.published.GameLine``), and after a game not
    rated the row of its reason, as the template's loop wrote them."""
    labels = [messages(label) for label in LABELS]
    (l_tournament, l_round, l_opponent, l_rating, l_used, l_expected, l_score,
     l_delta) = labels  # fmt: skip
    cap = messages(CAP)
    link = reader.link
    language = reader.language
    out: list[str] = []
    for game in games:
        rated = game.rated
        expected = DASH if game.expected is None else _decimal(language, game.expected)
        delta = DASH if not rated or game.delta is None else _decimal(language, game.delta)
        used = game.difference_used
        if used is None:
            difference = DASH
        elif game.difference != used:
            title = messages(CAPPED, difference=game.difference)
            difference = f'{used}<span class="capped" title="{title}"> ({cap})</span>'
        else:
            difference = str(used)
        rating = game.opponent_rating
        # Numbers, decimals and the quoted tournament link hold nothing to escape.
        out.append(
            _ROW
            % (
                "" if rated and game.delta is not None else _UNRATED,
                l_tournament,
                link("/tournaments/" + url_quote(game.tournament_id)),
                escape(game.tournament_name),
                l_round,
                int(game.round),
                l_opponent,
                escape(link("/players/" + str(game.opponent_id))),
                escape(game.opponent_name),
                l_rating,
                DASH if rating is None else int(rating),
                l_used,
                difference,
                l_expected,
                expected,
                l_score,
                _decimal(language, game.score, 0),
                l_delta,
                delta,
            )
        )
        if not rated:
            words = reason_words(game.reason, reader.gettext, reader.category)
            out.append(_WHY % messages(NOT_RATED, reason=words))
    return Markup("".join(out))


def _decimal(language: str, value: Decimal, places: int = 2) -> str:
    """``Reader.decimal``'s text of ``value`` (a page's expected scores, scores and deltas are
    a few hundred values, asked for thousands of times), kept by value: equal decimals
    (``0.5``, ``0.50``) read the same, and the sign keeps ``-0`` apart from ``0``."""
    return _decimal_text(language, value, value.is_signed(), places)


@lru_cache(maxsize=4096)
def _decimal_text(language: str, value: Decimal, negative: bool, places: int) -> str:
    return Reader(language, False, ()).decimal(value, places)
