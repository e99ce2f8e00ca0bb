"""FIDE rating list downloads (docs/formats.md §5), read as streams so that the full list (about two
million players) never sits in memory, and the fixed-width TXT written back.

TXT (``standard_rating_list.txt``, ``rapid_…``, ``blitz_…``, the combined
``players_list_foa.txt``): the columns are found from the header line, each running from its
title to the next title, so any column order and width is read. XML (``<playerslist>`` of
``<player>`` elements): fed in chunks to ``xml.etree.ElementTree.XMLPullParser``, every element
let go once read, so memory stays flat whatever the file holds; a DOCTYPE (hence any entity
declaration) is refused. FIDE does not document either layout; these follow the public parsers
cited in B §12.

Both refuse lines over 64 KiB before holding them, control characters in any value (XML: in
every text and attribute of a player) and names over 200 characters (text.py). What FIDE's own
files hold is read as they are, each lenient reading noted with its line in a ListNotes (rows.py):
an empty name, a year of birth outside 1900-2100, and in the archived TXT lists names in DOS code
page 850, birth dates DD.MM.YY, headers not over their columns, no header (docs/formats.md §5.1).

Both are written back (TXT, and single-category XML) so that the reader gives back exactly
what was written; the one exception is a TXT name longer than its column, cut as FIDE cuts it.

Each row gives one category's rating, the games rated in the month and the K of the list.

- rows.py: FideListRow, the categories' column prefixes and tags, the values TXT and XML share;
- txt_reader.py: ``iter_fide_txt``, ``read_fide_txt``;
- xml_reader.py: ``iter_fide_xml`` (``xml_line_of``, in rows.py, finds an element's line);
- writer.py: ``write_fide_txt``, ``write_fide_xml``, ``write_fide_xml_list``.

The names other modules use are re-exported here: import them from ``ratingdb.formats.fide_list``.
"""

from ratingdb.formats.fide_list.rows import (
    MAX_RATING,
    MIN_RATING,
    TITLES,
    TXT_PREFIX,
    XML_TAGS,
    FideListRow,
    ListNotes,
    xml_line_of,
)
from ratingdb.formats.fide_list.txt_reader import iter_fide_txt, read_fide_txt
from ratingdb.formats.fide_list.writer import (
    TXT_NAME_WIDTH,
    FideEntry,
    FideTxtEntry,
    FideXmlPlayer,
    write_fide_txt,
    write_fide_xml,
    write_fide_xml_list,
)
from ratingdb.formats.fide_list.xml_reader import MAX_XML_DEPTH, MAX_XML_PENDING, iter_fide_xml

__all__ = [
    "MAX_RATING",
    "MAX_XML_DEPTH",
    "MAX_XML_PENDING",
    "MIN_RATING",
    "TITLES",
    "TXT_NAME_WIDTH",
    "TXT_PREFIX",
    "XML_TAGS",
    "FideEntry",
    "FideListRow",
    "FideTxtEntry",
    "FideXmlPlayer",
    "ListNotes",
    "iter_fide_txt",
    "iter_fide_xml",
    "read_fide_txt",
    "write_fide_txt",
    "write_fide_xml",
    "write_fide_xml_list",
    "xml_line_of",
]
