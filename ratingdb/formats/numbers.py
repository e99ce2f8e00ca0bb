"""Numbers in files: ASCII digits only, and no more of them than a field can hold.

``str.isdigit`` accepts superscripts and other scripts' digits that ``int`` then refuses, and
``int`` refuses more than 4,300 digits: both would end an import with a traceback instead of
a refusal that names the line.
"""

from __future__ import annotations

import re

#: More digits than any rating, id, count or year a file can hold.
MAX_DIGITS = 18
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


def is_digits(text: str) -> bool:
    """1 to MAX_DIGITS ASCII digits, nothing else."""
    return _DIGITS.fullmatch(text) is not None
