"""Fixtures of the database tests (the databases themselves come from tests/conftest.py)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from tests.db.sample_rows import Graph, build_graph


@pytest.fixture
def graph(session: Session) -> Graph:
    """Two players, the fide-standard period 2026-12 with its published list, and one
    tournament with one game; committed."""
    return build_graph(session)
