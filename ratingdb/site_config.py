"""The public site's settings (issue 29): its address, the federation's name, logo and contact
address. Checked when the settings are built (``ratingdb.config.Settings``), so a value that
cannot be used stops a command at start with a message naming the variable; the logo's file
itself is read when the public app is built (:func:`read_logo`), by ``ratingdb serve`` only.

Standard library only, beside ``ratingdb.config``: no pydantic, no web framework.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit, urlunsplit
from xml.etree import ElementTree

#: The longest federation name the pages show (in the header of every page).
MAX_FEDERATION_NAME = 100
#: The longest contact address (RFC 5321 §4.5.3.1.3: a path is at most 256 octets, so an
#: address at most 254 characters).
MAX_EMAIL = 254
#: The largest logo the site keeps in memory and serves (a header image, not a photograph).
MAX_LOGO_BYTES = 512 * 1024
#: The logo's media type by its file's extension: the types every browser shows in ``<img>``.
LOGO_TYPES: Final = {
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
}

# One address of the form local@domain: the characters RFC 5322's dot-atom allows in the local
# part but braces, bar and backquote (no quoted local part, no comments), and a domain of at
# least two DNS labels (letters, digits and hyphens, or their IDNA form). Stricter than the RFC
# on purpose: the address goes into ``mailto:`` links every mail program must open, and into
# the feed's XSLT stylesheet, where a brace in an attribute would be read as an expression.
_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_~-]+)*"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_EMAIL = re.compile(rf"{_LOCAL}@{_LABEL}(?:\.{_LABEL})*\.[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]")


def _has_controls(text: str) -> bool:
    return any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text)


def public_base_url(value: str | None) -> str | None:
    """``RATINGDB_PUBLIC_BASE_URL``: an http or https URL with a host, and perhaps a path (a
    site under a prefix), without user, query or fragment; returned without its trailing
    slashes, so that ``base + "/lists"`` is a link."""
    if value is None:
        return None
    text = value.strip()
    if any(c.isspace() or unicodedata.category(c) in ("Cc", "Cf") for c in text):
        raise ValueError(f"spaces and control characters are not allowed, got {value!r}")
    parts = urlsplit(text)
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError(f"must start with https:// or http://, got {value!r}")
    try:
        parts.port  # noqa: B018 (raises on a port that is not a number 0-65535)
    except ValueError:
        raise ValueError(f"not a valid port in {value!r}") from None
    if not parts.hostname:
        raise ValueError(f"a host is needed (https://ratings.example.org), got {value!r}")
    if "@" in parts.netloc:
        raise ValueError(f"no user or password in the public address, got {value!r}")
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise ValueError(f"no query (?) nor fragment (#) in the public address, got {value!r}")
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), "", ""))


def federation_name(value: str | None) -> str | None:
    """``RATINGDB_FEDERATION_NAME``: shown in every page's header and title, and in the feed;
    spaces around it dropped, at most 100 characters, no control characters."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        raise ValueError("a name is needed (or leave the variable unset)")
    if len(text) > MAX_FEDERATION_NAME:
        raise ValueError(f"at most {MAX_FEDERATION_NAME} characters, got {len(text)}")
    if _has_controls(text):
        raise ValueError(f"control characters are not allowed in {value!r}")
    return text


def contact_email(value: str | None) -> str | None:
    """``RATINGDB_CONTACT_EMAIL``: one e-mail address, ``ratings@federation.example``, where the
    pages' "please report" links write to."""
    if value is None:
        return None
    text = value.strip()
    if len(text) > MAX_EMAIL:
        raise ValueError(f"at most {MAX_EMAIL} characters, got {len(text)}")
    if not _EMAIL.fullmatch(text) or ".." in text:
        raise ValueError(
            f"not an e-mail address: {value!r} (one address, such as ratings@federation.org)"
        )
    return text


def federation_logo(value: str | None) -> str | None:
    """``RATINGDB_FEDERATION_LOGO``: the path of an image file on the server (PNG, SVG, JPEG or
    WebP, told by its extension), which the site serves itself at ``/federation-logo``: the
    pages load nothing from another site. Its content is checked by :func:`read_logo`."""
    if value is None:
        return None
    text = value.strip()
    if _has_controls(text):
        raise ValueError(f"control characters are not allowed in {value!r}")
    if "://" in text:
        raise ValueError(
            f"the path of an image file on this server, not an address, got {value!r} "
            "(the site serves the logo itself)"
        )
    if Path(text).suffix.lower() not in LOGO_TYPES:
        raise ValueError(f"must be a {', '.join(sorted(LOGO_TYPES))} file, got {value!r}")
    return text


@dataclass(frozen=True, slots=True)
class Logo:
    """The federation's logo as the site serves it."""

    content: bytes
    media_type: str


def _looks_like(content: bytes, media_type: str) -> bool:
    if media_type == "image/png":
        return content.startswith(b"\x89PNG\r\n\x1a\n")
    if media_type == "image/jpeg":
        return content.startswith(b"\xff\xd8\xff")
    if media_type == "image/webp":
        return content[:4] == b"RIFF" and content[8:12] == b"WEBP"
    try:  # SVG: an XML document whose root is <svg> (any prefix or namespace)
        root = ElementTree.fromstring(content)
    except ElementTree.ParseError:
        return False
    return root.tag.rpartition("}")[2] == "svg"


def read_logo(path: str, setting: str) -> Logo:
    """The logo at ``path`` (``federation_logo``), read once. ValueError naming ``setting``
    when it cannot be read, is empty or larger than MAX_LOGO_BYTES, or is not the image its
    extension says."""
    media_type = LOGO_TYPES[Path(path).suffix.lower()]
    try:
        with Path(path).open("rb") as file:
            content = file.read(MAX_LOGO_BYTES + 1)
    except OSError as error:
        raise ValueError(f"{setting}: cannot read {path}: {error.strerror}") from None
    if not content:
        raise ValueError(f"{setting}: {path} is empty")
    if len(content) > MAX_LOGO_BYTES:
        raise ValueError(f"{setting}: {path} is larger than {MAX_LOGO_BYTES // 1024} KiB")
    if not _looks_like(content, media_type):
        raise ValueError(f"{setting}: {path} is not a {media_type} image")
    return Logo(content, media_type)
