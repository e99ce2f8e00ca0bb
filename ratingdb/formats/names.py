"""A player's name as a search compares it: the search key (``players.search_name``).

``search_key("Prenás, Zoë")`` is ``"prenas zoe"``. The key is:

1. the name in Unicode compatibility decomposition (NFKD: ``é`` -> ``e`` + accent, ``ﬁ`` ->
   ``fi``, ``²`` -> ``2``), its combining marks removed (the accents);
2. casefolded (``Ä`` -> ``a``, ``ß`` -> ``ss``) and decomposed again (casefolding ``İ`` gives
   ``i`` and a combining dot, removed too);
3. with the letters NFKD does not decompose spelled as they are in Latin letters: ``ø`` ->
   ``o``, ``æ`` -> ``ae``, ``œ`` -> ``oe``, ``đ``/``ð`` -> ``d``, ``ł`` -> ``l``, the dotless
   ``i`` -> ``i``, ``þ`` -> ``th``, ``ħ`` -> ``h``, ``ŧ`` -> ``t``, ``ŋ`` -> ``n``, ``ĸ`` -> ``k``;
4. every character but letters and digits (punctuation, the comma of "Surname, First name",
   hyphens, apostrophes, symbols) a space, the spaces collapsed and trimmed;
5. at most ``SEARCH_NAME_LENGTH`` characters (a decomposition may lengthen a name).

A search normalises its text the same way and looks for each of its words at the start of a
word of the key, so that "prenas" finds "Prenás", "zoe" finds "Zoë" and "kastelli petra" or
"petra kast" finds "Kastelli, Petra".

The key is stored: the database holds keys computed by this function. Changing what it does
means a migration that computes the stored keys again (migration 0014 keeps its own frozen
copy of this version for its backfill).
"""

from __future__ import annotations

import unicodedata

#: The longest key: the length of ``players.name``.
SEARCH_NAME_LENGTH = 200

#: Letters that NFKD leaves whole, spelled in the letters a reader types for them.
_SPELLED = str.maketrans(
    {
        "ø": "o",
        "æ": "ae",
        "œ": "oe",
        "đ": "d",
        "ð": "d",
        "ł": "l",
        "\u0131": "i",  # dotless i
        "þ": "th",
        "ħ": "h",
        "ŧ": "t",
        "ŋ": "n",
        "ĸ": "k",
    }
)


def _without_marks(text: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if unicodedata.category(ch)[0] != "M"
    )


def search_key(name: str) -> str:
    """The name as a search compares it (see the module)."""
    folded = _without_marks(_without_marks(name).casefold()).translate(_SPELLED)
    spaced = "".join(ch if ch.isalnum() else " " for ch in folded)
    return " ".join(spaced.split())[:SEARCH_NAME_LENGTH].rstrip()


def search_words(text: str) -> list[str]:
    """The words of a search text, normalised as the keys are."""
    return search_key(text).split()
