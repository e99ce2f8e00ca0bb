"""pyproject.toml lists ratingdb's packages by hand (migrations/ is mapped into the package as
ratingdb.migrations, which automatic discovery cannot do): a package missing from that list
would be missing from the wheel, so the list is checked against the source tree."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_the_source_tree_is_in_the_wheel() -> None:
    with (ROOT / "pyproject.toml").open("rb") as file:
        setuptools = tomllib.load(file)["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("ratingdb", "jobs")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert listed == found | {"ratingdb.migrations"}
    assert setuptools["package-dir"] == {"ratingdb.migrations": "migrations"}
