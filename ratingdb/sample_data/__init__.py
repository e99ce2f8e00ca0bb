"""The bundled sample data: a small fictional federation (Ruritania, code RUR) with about 200
players in the four categories, its starting lists and six months of tournaments as TRF and
games CSV files, ending in November 2026. ``generate.py`` makes them (deterministically);
``manifest.json`` lists them in the order ``ratingdb demo`` imports them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from ratingdb.rules import Category, Period

MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class SampleList:
    file: str
    category: Category
    period: Period
    format: str


@dataclass(frozen=True, slots=True)
class SampleTournament:
    file: str
    categories: tuple[Category, ...]
    format: str


@dataclass(frozen=True, slots=True)
class Manifest:
    anchor: Period
    federation: str
    lists: tuple[SampleList, ...]
    tournaments: tuple[SampleTournament, ...]
    #: A player with a long history in every category, to point a newcomer at.
    showcase_player: str


def folder() -> Traversable:
    """The sample data shipped inside the package."""
    return resources.files(__name__)


def load_manifest() -> Manifest:
    data: dict[str, Any] = json.loads(folder().joinpath(MANIFEST).read_text(encoding="utf-8"))
    return Manifest(
        anchor=Period.parse(data["anchor"]),
        federation=data["federation"],
        lists=tuple(
            SampleList(
                item["file"],
                Category.parse(item["category"]),
                Period.parse(item["period"]),
                item["format"],
            )
            for item in data["lists"]
        ),
        tournaments=tuple(
            SampleTournament(
                item["file"], tuple(Category.parse(c) for c in item["categories"]), item["format"]
            )
            for item in data["tournaments"]
        ),
        showcase_player=data["showcase_player"],
    )
