"""The file readers' refusals as messages (issue 28's leftover): their English, which the
command line and the JSON APIs print, is what the readers always wrote (the expected texts are
the f-strings the readers had, written out by hand), and a French reader words them, numbers and
dates the French way; a TRF's field is named in words a page translates, a CSV's column as
written."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ratingdb.backoffice.i18n import Reader
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import read_games_csv
from ratingdb.formats.text import check_text
from ratingdb.formats.trf import field_words, parse_trf
from ratingdb.rules import Category
from ratingdb.rules.messages import Message, MessageError
from ratingdb.rules.rate_of_play import parse_time_control
from ratingdb.services.submissions import described
from ratingdb.services.tournaments import assign_period
from tests.support.files import GAMES_HEADER
from tests.support.files import TRF_HEADER as HEADER
from tests.support.files import trf_player as player

NB, NN, AP = "\u00a0", "\u202f", "\u2019"
FRENCH = Reader("fr", True, ())
ANN = player(1, "Alpha, Ann", ["   2 w 1"])
BOB = player(2, "Beta, Bob", ["   1 b 0"])


def _trf_refusal(text: str) -> InputError:
    with pytest.raises(InputError) as refused:
        parse_trf(text.encode(), source="t.trf")
    return refused.value


def _csv_refusal(tmp_path: Path, text: str) -> InputError:
    path = tmp_path / "g.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as refused:
        read_games_csv(path, source="g.csv")
    return refused.value


@pytest.mark.parametrize(
    ("text", "english"),
    [
        (
            HEADER + player(1, "Alpha, Ann", ["   2 w 1"], rating="12x4") + "\n" + BOB + "\n",
            "t.trf:4:49: rating: must be a number, got '12x4'",
        ),
        (
            HEADER + ANN + "\n" + BOB + "\n" + player(2, "Gamma, Gil", []) + "\n",
            "t.trf:6:5: starting rank: starting rank 2 is already on line 5",
        ),
        (
            "012 " + "x" * 1234 + "\n" + ANN + "\n" + BOB + "\n",
            "t.trf:1: 012 tournament name: is 1,234 characters long; at most 200 are allowed",
        ),
        (
            HEADER + ANN.replace("Alpha", "Al\x07pha") + "\n" + BOB + "\n",
            (
                "t.trf:4:17: name: holds the control character U+0007 at character 17: control "
                "characters, line breaks and bidi overrides are not allowed in a text field"
            ),
        ),
        (
            HEADER + ANN + "\n" + BOB + "\n" + "###" + "x" * 70_000 + "\n",
            (
                "t.trf:6: the line is longer than 65,536 bytes: no field of this file can be that "
                "long (is it the right file?)"
            ),
        ),
        (
            HEADER + ANN + "\n" + player(2, "Beta, Bob", ["   1 b  "]) + "\n",
            (
                "t.trf:5:99: round 1 result: round 1: #1 has '1' against #2, who has 'blank' on "
                "line 5: the results do not mirror each other"
            ),
        ),
        (
            HEADER + ANN + "\n" + player(2, "Beta, Bob", []) + "\n",
            (
                "t.trf:4:92: round 1 opponent: round 1: #1 plays #2 here, but line 5 (#2) has "
                "nothing in round 1"
            ),
        ),
        (
            "012 T\n042 10.11.12\n" + ANN + "\n" + BOB + "\n",
            (
                "t.trf:2:5: 042 start date: '10.11.12' has a two-digit year and reads two ways, "
                "2010-11-12 (YY.MM.DD) or 2012-11-10 (DD.MM.YY): ambiguous; write the year in four "
                "digits"
            ),
        ),
        (
            "012 T\n042 10.11.12\n052 09.11.12\n" + ANN + "\n" + BOB + "\n",
            (
                "t.trf:2:5: 042 start date: '10.11.12' has a two-digit year and no plausible "
                "reading (read YY.MM.DD, the end 2009-11-12 is before the start 2010-11-12; read "
                "DD.MM.YY, the end 2012-11-09 is before the start 2012-11-10); write the year in "
                "four digits"
            ),
        ),
    ],
)
def test_a_trfs_refusals_in_english_as_before(text: str, english: str) -> None:
    assert str(_trf_refusal(text)) == english


@pytest.mark.parametrize(
    ("text", "english"),
    [
        (
            GAMES_HEADER + "Cup,2026-11-02,2026-11-08,1,100,200,2-0\n",
            "g.csv:2: result: must be one of +-, -+, --, 0-1, 1-0, 1/2-1/2; got '2-0'",
        ),
        (
            "tournament,start_date,end_date,round,white_id,result\n",
            (
                "g.csv:1: black_id: missing column (the header needs: tournament, start_date, "
                "end_date, round, white_id, black_id, result)"
            ),
        ),
        (GAMES_HEADER + "Cup\n", "g.csv:2: has 1 fields, the header has 7"),
        (
            GAMES_HEADER + "Cup,2026-11-02,2026-11-08,1,100,200,1-0\n"
            "Cup,2026-11-02,2026-11-08,2,100,200,1-0,\n",
            "g.csv:3: has 8 fields, the header has 7",
        ),
        (
            GAMES_HEADER.replace("result", "result,time_control")
            + "Cup,2026-11-02,2026-11-08,1,100,200,1-0,5400\n"
            + "Cup,2026-11-02,2026-11-08,2,100,200,1-0,\n",
            "g.csv:3: time_control: empty differs from line 2 (5400)",
        ),
        (
            GAMES_HEADER + "Cup,2026-11-08,2026-11-01,1,100,200,1-0\n",
            "g.csv:2: end_date: 2026-11-01 is before the start date 2026-11-08",
        ),
    ],
)
def test_a_games_csvs_refusals_in_english_as_before(
    tmp_path: Path, text: str, english: str
) -> None:
    assert str(_csv_refusal(tmp_path, text)) == english


def test_a_long_text_keeps_its_thousands_separator_in_each_language() -> None:
    with pytest.raises(InputError) as refused:
        check_text("x" * 12_345, lambda message: InputError(message, field="name"), limit=200)
    assert str(refused.value) == "name: is 12,345 characters long; at most 200 are allowed"
    assert FRENCH.message(refused.value.text) == (
        f"compte 12{NN}345 caractères{NN}; 200 au plus sont admis"
    )


def test_a_time_controls_refusal_is_a_message() -> None:
    with pytest.raises(MessageError) as refused:
        parse_time_control("5400:40/300")
    assert str(refused.value) == (
        "time control '5400:40/300': only the last period may last to the end of the game"
    )
    assert FRENCH.message(refused.value.text) == (
        f"cadence '5400:40/300'{NB}: seule la dernière période peut durer jusqu{AP}à la fin de "
        "la partie"
    )


def test_a_trfs_fields_are_words_a_csvs_columns_as_written(tmp_path: Path) -> None:
    assert field_words("round 12 opponent") == Message("round %(round)s opponent", {"round": "12"})
    assert FRENCH.message(field_words("round 12 colour")) == "couleur de la ronde 12"
    assert FRENCH.message(field_words("042 start date")) == "042 date de début"
    assert FRENCH.message(field_words("XXR record")) == "enregistrement XXR"
    assert FRENCH.message(field_words("FIDE id")) == "identifiant FIDE"
    assert field_words("001") == "001"  # a record type
    assert field_words("white_id") == "white_id"  # a CSV column
    # The error's field stays the English text for the command line and the APIs.
    refused = _trf_refusal(HEADER + ANN + "\n" + BOB + "\n" + player(2, "Gamma, Gil", []) + "\n")
    assert refused.field == "starting rank"
    assert refused.field_text == Message("starting rank")
    assert FRENCH.message(described(refused)) == (
        f"t.trf, ligne 6, colonne 5, champ rang de départ{NB}: le rang de départ 2 figure déjà "
        "à la ligne 5"
    )
    # A CSV's column: no words, named as its header names it.
    column = _csv_refusal(tmp_path, GAMES_HEADER + "Cup,2026-11-02,2026-11-08,1,1a,200,1-0\n")
    assert (column.field, column.field_text) == ("white_id", None)
    assert FRENCH.message(described(column)) == (
        f"g.csv, ligne 2, champ white_id{NB}: doit être un identifiant de joueur de 1 à 20 "
        "chiffres, reçu '1a'"
    )
    # Named again for a command's option: the new name, as written.
    renamed = refused.with_field("--file")
    assert (renamed.field, renamed.field_text) == ("--file", None)
    assert refused.located("other.trf").field_text == Message("starting rank")


def test_a_tournament_before_the_first_rules_in_english_and_french() -> None:
    """What the upload's check says of the file's dates (refused before the database is read)."""
    with pytest.raises(InputError) as refused:
        assign_period(None, Category("fide-standard"), date(1950, 1, 1), None)  # type: ignore[arg-type]
    assert str(refused.value) == (
        "category: the tournament ends on 1950-01-01, before the first fide-standard rules "
        "ratingdb knows (2000-01-01)"
    )
    assert FRENCH.message(described(refused.value)) == (
        f"champ category{NB}: le tournoi se termine le 1er janvier 1950, avant les premières "
        "règles fide-standard que ratingdb connaît (1er janvier 2000)"
    )
