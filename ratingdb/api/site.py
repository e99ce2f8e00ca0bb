"""The public site's identity (issue 29): the federation's name, logo and contact address, and
the site's public address, from the settings (``ratingdb.site_config`` checks them). Built
once by ``create_app``; every page reads it from the app (``site_of``)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from starlette.requests import Request

from ratingdb import defaults
from ratingdb.config import ConfigurationError, Settings
from ratingdb.site_config import Logo, read_logo

#: The name the pages show when no federation name is set.
DEFAULT_NAME = "ratingdb"
#: Where the site serves the federation's logo (``routes.site``).
LOGO_PATH = "/federation-logo"


@dataclass(frozen=True, slots=True)
class Site:
    #: The federation's name, else "ratingdb": every page's header and title, the feed.
    name: str
    #: The federation's logo, served at LOGO_PATH; None: the header shows the name alone.
    logo: Logo | None
    #: Where the pages' "please report" links write to; None: no such link.
    contact_email: str | None
    #: The site's public address, from which the sitemaps' and the feed's absolute links are
    #: built; None: no sitemap, relative feed links.
    public_base_url: str | None

    @property
    def logo_path(self) -> str | None:
        return LOGO_PATH if self.logo is not None else None

    @property
    def mailto(self) -> str | None:
        """A ``mailto:`` link to the contact address (RFC 6068: ``?``, ``&``, ``%``... of the
        address escaped); None: no address."""
        if self.contact_email is None:
            return None
        return f"mailto:{quote(self.contact_email, safe='@')}"

    def report_link(self, subject: str) -> str | None:
        """A ``mailto:`` link to the contact address with ``subject`` (None: no address)."""
        if self.mailto is None:
            return None
        return f"{self.mailto}?subject={quote(subject, safe='')}"


def site_from(settings: Settings) -> Site:
    """The site of ``settings``, its logo read now: a logo that cannot be used stops the app
    at start (ConfigurationError naming RATINGDB_FEDERATION_LOGO)."""
    logo = None
    if settings.federation_logo is not None:
        try:
            logo = read_logo(settings.federation_logo, defaults.variable("federation_logo"))
        except ValueError as error:
            raise ConfigurationError(str(error), setting="federation_logo") from None
    return Site(
        name=settings.federation_name or DEFAULT_NAME,
        logo=logo,
        contact_email=settings.contact_email,
        public_base_url=settings.public_base_url,
    )


def site_of(request: Request) -> Site:
    """The site of the app serving ``request`` (``create_app``)."""
    site = request.app.state.site
    if not isinstance(site, Site):
        raise TypeError("the app has no site (build it with create_app)")
    return site
