"""The input files the tests write: CSV headers, TRF and FIDE fixed-width lines."""

from __future__ import annotations

from pathlib import Path

#: The list CSV's header line (docs/formats.md §2).
LIST_HEADER = (
    "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor\n"
)
#: The games CSV's header line.
GAMES_HEADER = "tournament,start_date,end_date,round,white_id,black_id,result\n"

#: A TRF's tournament lines: name, start and end dates (2026-11-02 to 2026-11-08).
TRF_HEADER = "012 Test Open\n042 2026/11/02\n052 2026/11/08\n"

#: FIDE's single standard list (B §12.1 offsets): header titles start their columns.
FIDE_STANDARD_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK B-day Flag"
)


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    """``content`` in ``tmp_path / name`` (text as UTF-8, bytes as they are)."""
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def trf_player(
    rank: int,
    name: str,
    rounds: list[str],
    *,
    rating: str = "1800",
    fide_id: str = "",
    birth: str = "1990/01/01",
) -> str:
    """A 001 line; each round is the 8 characters ``OOOO C R`` (opponent, colour, result)."""
    line = (
        f"001 {rank:>4} m    {name:<33} {rating:>4} FRA {fide_id:>11} {birth:<10} "
        f"{'0.0':>4} {rank:>4}"
    )
    assert len(line) == 89
    for field in rounds:
        line += "  " + field
    return line


def fixed(header: str, values: dict[str, str]) -> str:
    """A line with each value under its header title (FIDE's files start values there)."""
    line = ""
    for title, value in values.items():
        start = header.index(title)
        line = line.ljust(start) + value
    return line
