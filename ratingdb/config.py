"""Settings from the RATINGDB_ environment and the command line, built once at an edge (CLI, job,
migration env, a worker of ``serve --workers N``) and passed down: nothing else in ratingdb reads
``os.environ``. Every knob of every command is a field of :class:`Settings`; its environment
variable is ``RATINGDB_`` and the field's name in capitals, its option in
``ratingdb.defaults.OPTIONS``.
"""

from __future__ import annotations

import getpass
import ipaddress
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, PrivateAttr, ValidationError, model_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from ratingdb import defaults, site_config
from ratingdb.rules.categories import Category

DATABASE_URL_VARIABLE = defaults.variable("database_url")
READ_DATABASE_URL_VARIABLE = defaults.variable("read_database_url")
ACTOR_VARIABLE = defaults.variable("actor")

#: The audit log's ``actor`` column holds at most this many characters.
ACTOR_LENGTH = 100

#: The databases ratingdb runs on: the scheme of their SQLAlchemy URLs.
SUPPORTED_SCHEMES = ("sqlite", "sqlite+pysqlite", "postgresql+psycopg")

#: A SQLite file in the current directory (docs/cli.md §1.1).
DEFAULT_DATABASE_URL = defaults.DATABASE_URL

# The DSN spellings of libpq and of hosting providers, mapped to SQLAlchemy's psycopg 3 driver
# (SQLAlchemy would otherwise pick psycopg2, which is not installed).
_POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
_PSYCOPG_SCHEME = "postgresql+psycopg://"


class ConfigurationError(ValueError):
    """A setting is present but unusable; the message names the setting. ``option``: the
    command-line option the value came from (None: the environment, or no single setting)."""

    def __init__(self, message: str, *, setting: str | None = None, option: str | None = None):
        super().__init__(message)
        self.setting = setting
        self.option = option


def normalize_database_url(url: str, *, source: str = "database URL") -> str:
    """``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://``; the result must
    parse as a SQLAlchemy URL."""
    try:
        return _normalized_database_url(url)
    except ValueError as error:
        raise ConfigurationError(f"{source}: {error}") from None


def _normalized_database_url(url: str) -> str:
    text = url.strip()
    for scheme in _POSTGRESQL_SCHEMES:
        if text.startswith(scheme):
            text = _PSYCOPG_SCHEME + text[len(scheme) :]
            break
    try:
        parsed = make_url(text)
    except ArgumentError:
        raise ValueError(
            f"not a database URL: {url!r} (use sqlite:///FILE or "
            "postgresql+psycopg://USER@HOST:PORT/DATABASE)"
        ) from None
    if parsed.drivername not in SUPPORTED_SCHEMES:
        raise ValueError(
            f"unsupported database {parsed.drivername!r}: ratingdb runs on SQLite "
            "(sqlite:///FILE) and PostgreSQL (postgresql+psycopg://USER@HOST:PORT/DATABASE)"
        )
    return text


def resolve_actor(given: str | None, environ: Mapping[str, str], *, source: str) -> str:
    """The person the audit log names: ``given`` (``--actor``), else ``RATINGDB_ACTOR``, else
    the operating system user. Raises ConfigurationError when none of them gives a name, or the
    name is empty, too long or holds control characters (it is shown in logs and pages)."""
    if given is not None:
        return _valid_actor(given, source)
    if environ.get(ACTOR_VARIABLE, "").strip():
        return _valid_actor(environ[ACTOR_VARIABLE], ACTOR_VARIABLE)
    try:
        user = getpass.getuser()
    except (OSError, KeyError) as error:  # no LOGNAME/USER/LNAME/USERNAME and no passwd entry
        raise ConfigurationError(
            f"cannot tell who runs this command ({error}): give {source} NAME or set "
            f"{ACTOR_VARIABLE}"
        ) from None
    return _valid_actor(user, "the operating system user")


def _valid_actor(name: str, source: str) -> str:
    if not name.strip():
        raise ConfigurationError(f"{source}: the name of a person is needed, got {name!r}")
    if len(name) > ACTOR_LENGTH:
        raise ConfigurationError(f"{source}: at most {ACTOR_LENGTH} characters, got {len(name)}")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        raise ConfigurationError(f"{source}: control characters are not allowed in {name!r}")
    return name


def _hide_password(url: str) -> str:
    parsed: URL = make_url(url)
    return parsed.render_as_string(hide_password=True)


def _within(smallest: int, largest: int) -> AfterValidator:
    def check(value: int) -> int:
        if not smallest <= value <= largest:
            raise ValueError(f"must be {smallest}..{largest}, got {value}")
        return value

    return AfterValidator(check)


def _debug(value: object) -> object:
    return defaults.debug_enabled(value) if isinstance(value, str) else value


def _categories(value: object) -> object:
    """``RATINGDB_PUBLICATION_APPROVAL``: category names separated by commas (spaces around them
    allowed), in the order of ``Category``; an unknown or empty name is refused."""
    if isinstance(value, str):
        names = [name.strip() for name in value.split(",")]
        if any(not name for name in names):
            raise ValueError(f"a category name is missing in {value!r} (separate names by commas)")
        value = [Category.parse(name) for name in names]
    if isinstance(value, (list, tuple, set, frozenset)):
        chosen = {Category.parse(str(item)) for item in value}
        return tuple(c for c in Category if c in chosen)
    return value


def _trusted_proxies(value: object) -> object:
    """``RATINGDB_*_TRUSTED_PROXIES``: IP addresses or networks (CIDR) separated by commas,
    normalized (``10.0.0.0/8,127.0.0.1``); empty: no proxy is trusted."""
    if not isinstance(value, str):
        return value
    items = [item.strip() for item in value.split(",")] if value.strip() else []
    networks = []
    for item in items:
        if not item:
            raise ValueError(f"an address is missing in {value!r} (separate them by commas)")
        try:
            network = ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"not an IP address or network (CIDR): {item!r}") from None
        networks.append(
            str(network.network_address) if network.num_addresses == 1 else str(network)
        )
    return ",".join(networks)


LogFormat = Literal["text", "json"]
DatabaseUrl = Annotated[str, AfterValidator(_normalized_database_url)]
Port = Annotated[int, _within(0, 65535)]
Seconds = Annotated[int, _within(1, 3600)]
HeadBytes = Annotated[int, _within(1024, 1024 * 1024)]
HeaderFields = Annotated[int, _within(1, 10_000)]
TrustedProxies = Annotated[str, AfterValidator(_trusted_proxies)]

#: The environment a :class:`Settings` being built reads (``Settings.from_env``); none when
#: it is built directly, so ``Settings(database_url=...)`` is exactly what it says.
_ENVIRON: ContextVar[Mapping[str, str]] = ContextVar(
    "ratingdb_environ", default=MappingProxyType({})
)


class _GivenEnvironment(EnvSettingsSource):
    """pydantic-settings' environment source on a given mapping rather than ``os.environ``;
    an empty or blank variable counts as unset."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {
            name if self.case_sensitive else name.lower(): value
            for name, value in self._environ.items()
            if name.upper().startswith(defaults.ENV_PREFIX) and value.strip()
        }


class Settings(BaseSettings):
    """Every knob of every command: where ratingdb keeps its data, who acts, how it serves.

    ``Settings.from_env(os.environ, **options)`` at an edge: the options given on the command
    line, else the ``RATINGDB_`` variables, else the defaults (``ratingdb.defaults``).
    ``read_database_url`` serves the read-only API (a replica or a read-only role); by default it
    is the main database. ``actor`` is checked when a command writes (:meth:`audit_actor`).
    """

    model_config = SettingsConfigDict(env_prefix=defaults.ENV_PREFIX, frozen=True, extra="forbid")

    database_url: DatabaseUrl = DEFAULT_DATABASE_URL
    read_database_url: DatabaseUrl = DEFAULT_DATABASE_URL
    actor: str | None = None
    debug: Annotated[bool, BeforeValidator(_debug)] = False

    serve_host: str = defaults.SERVE_HOST
    serve_port: Port = defaults.SERVE_PORT
    serve_workers: Annotated[int, _within(1, defaults.MAX_WORKERS)] = defaults.SERVE_WORKERS
    serve_threads: Annotated[int, _within(1, defaults.MAX_THREADS)] = defaults.SERVE_THREADS
    serve_page_cache_mb: Annotated[int, _within(0, defaults.MAX_PAGE_CACHE_MB)] = (
        defaults.SERVE_PAGE_CACHE_MB
    )
    serve_access_log: bool = defaults.SERVE_ACCESS_LOG
    serve_limit_request_head: HeadBytes = defaults.SERVE_LIMIT_REQUEST_HEAD
    serve_limit_request_fields: HeaderFields = defaults.SERVE_LIMIT_REQUEST_FIELDS
    serve_timeout_request_head: Seconds = defaults.SERVE_TIMEOUT_REQUEST_HEAD
    serve_timeout_keep_alive: Seconds = defaults.SERVE_TIMEOUT_KEEP_ALIVE
    serve_timeout_request_body: Seconds = defaults.SERVE_TIMEOUT_REQUEST_BODY
    serve_trusted_proxies: TrustedProxies = defaults.SERVE_TRUSTED_PROXIES

    backoffice_host: str = defaults.BACKOFFICE_HOST
    backoffice_port: Port = defaults.BACKOFFICE_PORT
    backoffice_secure_cookies: bool = defaults.BACKOFFICE_SECURE_COOKIES
    backoffice_limit_request_head: HeadBytes = defaults.BACKOFFICE_LIMIT_REQUEST_HEAD
    backoffice_limit_request_fields: HeaderFields = defaults.BACKOFFICE_LIMIT_REQUEST_FIELDS
    backoffice_timeout_request_head: Seconds = defaults.BACKOFFICE_TIMEOUT_REQUEST_HEAD
    backoffice_timeout_keep_alive: Seconds = defaults.BACKOFFICE_TIMEOUT_KEEP_ALIVE
    backoffice_timeout_request_body: Seconds = defaults.BACKOFFICE_TIMEOUT_REQUEST_BODY
    backoffice_limit_connections: Annotated[int, _within(1, defaults.MAX_CONNECTIONS)] = (
        defaults.BACKOFFICE_LIMIT_CONNECTIONS
    )
    backoffice_upload_concurrency: Annotated[int, _within(1, defaults.MAX_UPLOAD_CONCURRENCY)] = (
        defaults.BACKOFFICE_UPLOAD_CONCURRENCY
    )
    backoffice_trusted_proxies: TrustedProxies = defaults.BACKOFFICE_TRUSTED_PROXIES

    #: The public site's address (``https://ratings.example.org``): absolute links are built
    #: from it, never from a request's Host header. None: the feed's links are relative.
    public_base_url: Annotated[str | None, AfterValidator(site_config.public_base_url)] = (
        defaults.PUBLIC_BASE_URL
    )
    #: The federation the site publishes for: its name (every page's header and title, the
    #: feed), its logo (the path of an image file the site serves) and the address the pages'
    #: "please report" links write to. None: "ratingdb", no logo, no report link.
    federation_name: Annotated[str | None, AfterValidator(site_config.federation_name)] = (
        defaults.FEDERATION_NAME
    )
    federation_logo: Annotated[str | None, AfterValidator(site_config.federation_logo)] = (
        defaults.FEDERATION_LOGO
    )
    contact_email: Annotated[str | None, AfterValidator(site_config.contact_email)] = (
        defaults.CONTACT_EMAIL
    )

    #: The categories whose scheduled close waits for an officer's approval before publishing
    #: (``approval``); every other category publishes at its cut-off (``automatic``).
    publication_approval: Annotated[
        tuple[Category, ...], NoDecode, BeforeValidator(_categories)
    ] = defaults.PUBLICATION_APPROVAL

    #: ``/metrics`` on the API and the back office (off: 404, nothing counted).
    metrics: bool = defaults.METRICS
    #: The logs of ``serve``, ``backoffice`` and ``python -m jobs``: text, or JSON lines.
    log_format: LogFormat = defaults.LOG_FORMAT
    #: The scheduler's own ``/metrics`` (its runs and failures, its closes); port 0: none.
    scheduler_metrics_host: str = defaults.SCHEDULER_METRICS_HOST
    scheduler_metrics_port: Port = defaults.SCHEDULER_METRICS_PORT

    #: The settings given by a command-line option (to name the option, not the variable).
    _options: frozenset[str] = PrivateAttr(default=frozenset())

    def __init__(  # type: ignore[no-untyped-def]
        self, database_url: str | None = None, read_database_url: str | None = None, /, **values
    ) -> None:
        """``Settings(main, read)`` as well as by name."""
        if database_url is not None:
            values["database_url"] = database_url
        if read_database_url is not None:
            values["read_database_url"] = read_database_url
        super().__init__(**values)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # No .env file nor secrets folder: the environment ratingdb is given, nothing else.
        return init_settings, _GivenEnvironment(settings_cls, _ENVIRON.get())

    @model_validator(mode="before")
    @classmethod
    def _read_defaults_to_main(cls, values: Any) -> Any:
        """No read database given: the API reads the main one."""
        if isinstance(values, dict) and values.get("read_database_url") is None:
            return values | {"read_database_url": values.get("database_url", DEFAULT_DATABASE_URL)}
        return values

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str], database_url: str | None = None, **options: Any
    ) -> Settings:
        """Settings from ``environ`` (an empty or blank variable counts as unset), overridden by
        ``options`` (settings by name, None: not given; a blank ``database_url`` neither). A
        setting present but unusable raises ConfigurationError naming its option or variable."""
        given = {name: value for name, value in options.items() if value is not None}
        if database_url is not None and database_url.strip():  # blank: as if not given
            given["database_url"] = database_url
        with _reading(environ):
            try:
                settings = cls(**given)
            except ValidationError as error:
                raise _configuration_error(error, given) from None
        settings._options = frozenset(given)
        return settings

    def audit_actor(self, qualifier: str = "") -> str:
        """The person the audit log names: the actor setting, else the operating system user
        followed by ``qualifier``. ConfigurationError when none gives a name, or the name is
        empty, too long or holds control characters (it is shown in logs and pages)."""
        option = defaults.OPTIONS["actor"]
        if self.actor is not None:
            return _valid_actor(self.actor, option if "actor" in self._options else ACTOR_VARIABLE)
        return resolve_actor(None, {}, source=option) + qualifier

    def environment(self) -> dict[str, str | None]:
        """Every setting as the variable that gives it back to :meth:`from_env` (None: unset):
        how the worker processes of ``serve --workers N`` receive these settings."""
        variables: dict[str, str | None] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, bool):
                value = int(value)
            elif isinstance(value, tuple):
                value = ",".join(str(item) for item in value) or None
            variables[defaults.variable(name)] = None if value is None else str(value)
        return variables

    def __eq__(self, other: object) -> bool:
        # The same settings, wherever their values came from (options or variables).
        if not isinstance(other, Settings):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    def __hash__(self) -> int:
        return hash(tuple(self.model_dump().items()))

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # Settings end up in logs and tracebacks: never print a password.
        for name, value in super().__repr_args__():
            if name in ("database_url", "read_database_url"):
                value = _hide_password(value)
            yield name, value


@contextmanager
def _reading(environ: Mapping[str, str]) -> Iterator[None]:
    token = _ENVIRON.set(environ)
    try:
        yield
    finally:
        _ENVIRON.reset(token)


def _configuration_error(error: ValidationError, given: Mapping[str, object]) -> ConfigurationError:
    """The first problem, naming the option or variable the value came from."""
    problem = error.errors()[0]
    name = str(problem["loc"][0]) if problem["loc"] else None
    message = problem["msg"].removeprefix("Value error, ")
    if problem["type"] != "value_error":  # pydantic's own words do not show the value
        message = f"{message[:1].lower()}{message[1:]}, got {problem['input']!r}"
    if name is None:
        return ConfigurationError(message)
    option = defaults.OPTIONS.get(name) if name in given else None
    source = option if option is not None else defaults.variable(name)
    return ConfigurationError(f"{source}: {message}", setting=name, option=option)
