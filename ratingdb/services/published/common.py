"""What every read service shares."""

from __future__ import annotations


class NotFound(LookupError):
    """Nothing published under that name: the API answers 404 with this message."""
