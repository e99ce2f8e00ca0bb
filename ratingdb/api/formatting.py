"""How numbers read in the API and on the pages: exact decimals as plain text."""

from __future__ import annotations

from decimal import Decimal


def decimal_text(value: Decimal, places: int = 2) -> str:
    """``value`` in plain notation without trailing zeros, but with at least ``places``
    decimals: expected scores and deltas read as FIDE's table writes them (``0.40``, ``-0.29``),
    scores as ``1``, ``0.5``, ``0``. Only zeros are dropped: the value never changes."""
    normalized = value.normalize()
    exponent = normalized.as_tuple().exponent
    if isinstance(exponent, int) and exponent > -places:
        normalized = value.quantize(Decimal(1).scaleb(-places))
    text = format(normalized, "f")
    return text[1:] if text.startswith("-") and not normalized else text


def signed(value: int | None) -> str:
    """A change as people write it: ``+12``, ``-6``, ``0``; an empty string for none."""
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)
