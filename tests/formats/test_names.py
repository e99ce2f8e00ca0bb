"""The search key of a name (ratingdb.formats.names): accents, case, punctuation and word
order stop mattering, the letters NFKD keeps whole are spelled out, and the key is its own
key. Pure: no database."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.formats.names import SEARCH_NAME_LENGTH, search_key, search_words


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Prenás", "prenas"),
        ("Zoë", "zoe"),
        ("Kastelli, Petra", "kastelli petra"),
        ("KASTELLI,Petra", "kastelli petra"),
        ("  Kastelli ,  Petra  ", "kastelli petra"),
        ("Straße, Jürgen", "strasse jurgen"),
        ("Carlsen, Magnus", "carlsen magnus"),
        ("Ørsted, Åse", "orsted ase"),
        ("Ærø, Bjørn", "aero bjorn"),
        ("Œuvray, Cécile", "oeuvray cecile"),
        ("Đoković, Đorđe", "dokovic dorde"),
        ("Łukaszewicz, Michał", "lukaszewicz michal"),
        ("K\u0131l\u0131ç, Yiğit", "kilic yigit"),  # \u0131: the dotless i
        ("Þórsson, Hjörvar", "thorsson hjorvar"),
        ("Guðmundsdóttir, Lenka", "gudmundsdottir lenka"),
        ("İnan, Şule", "inan sule"),
        ("Jean-Pierre O'Brien", "jean pierre o brien"),
        ("Nguyễn, Thị Mai Hưng", "nguyen thi mai hung"),
        ("Иванов, Пётр", "иванов петр"),
        ("Ĳssel, ﬁona", "ijssel fiona"),
        ("", ""),
        (" ,.-' ", ""),
    ],
)
def test_examples(name: str, key: str) -> None:
    assert search_key(name) == key


def test_words_of_a_search() -> None:
    assert search_words("petra KASTELLI,") == ["petra", "kastelli"]
    assert search_words("Prenás") == ["prenas"]
    assert search_words(" - ") == []


def test_a_key_is_never_longer_than_a_name() -> None:
    # ﷺ decomposes into 18 characters: 200 of them would make 3,600.
    assert len(search_key("ﷺ" * SEARCH_NAME_LENGTH)) <= SEARCH_NAME_LENGTH
    assert search_key("ß" * SEARCH_NAME_LENGTH) == "s" * SEARCH_NAME_LENGTH


@given(st.text())
def test_idempotent(text: str) -> None:
    key = search_key(text)
    assert search_key(key) == key
    assert key == key.strip()
    assert "  " not in key
    assert all(ch.isalnum() or ch == " " for ch in key)


#: Text without combining marks: what a name is made of before accents are added.
PLAIN = st.text(st.characters(exclude_categories=("Mn", "Me", "Mc", "Cs")))
LATIN = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0x24F, exclude_categories=("Cc", "Cs"))
)
ACCENTS = st.lists(st.characters(min_codepoint=0x300, max_codepoint=0x36F), max_size=3)


@given(PLAIN)
def test_case_does_not_matter(text: str) -> None:
    key = search_key(text)
    assert search_key(text.upper()) == key
    assert search_key(text.lower()) == key
    assert search_key(text.title()) == key


@given(LATIN)
def test_composition_does_not_matter(text: str) -> None:
    key = search_key(text)
    assert search_key(unicodedata.normalize("NFD", text)) == key
    assert search_key(unicodedata.normalize("NFC", text)) == key


@given(st.lists(st.tuples(st.characters(min_codepoint=0x61, max_codepoint=0x7A), ACCENTS)))
def test_accents_do_not_matter(letters: list[tuple[str, list[str]]]) -> None:
    plain = "".join(letter for letter, _ in letters)
    accented = unicodedata.normalize(
        "NFC", "".join(letter + "".join(marks) for letter, marks in letters)
    )
    assert search_key(accented) == search_key(plain) == plain
