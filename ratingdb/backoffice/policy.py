"""Who may call what: the single table every back-office route is checked against.

Least privilege: an arbiter uploads tournaments and sees their own submissions; an officer
reviews submissions, previews and approves publication, corrects, reads the audit log; an admin
manages users and reads the audit log (an admin is NOT an officer). Everybody manages their own
password and API tokens (nobody else can mint them). A route that is not in this table is
refused (``ratingdb.backoffice.security.guard``), and the app refuses to start with one
(``check_policy_covers``). A new route adds one line here.

An API token does at most what its scope allows (:func:`scope_needed`): ``read`` the GET
routes, ``submit`` also sending tournament files, ``full`` everything the role may.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal

from ratingdb.enums import Role, TokenScope

ARBITER: Final = Role.ARBITER
OFFICER: Final = Role.OFFICER
ADMIN: Final = Role.ADMIN

#: Anyone, signed in or not (the sign-in page itself, the stylesheet).
PUBLIC: Final = "public"
SIGNED_IN: Final = frozenset({ARBITER, OFFICER, ADMIN})
#: Who sends tournament files (an arbiter sees only their own submissions).
UPLOADERS: Final = frozenset({ARBITER, OFFICER})
#: Who reads the audit log.
AUDITORS: Final = frozenset({OFFICER, ADMIN})
#: Who corrects games, tournaments, players and imported lists after publication.
CORRECTORS: Final = frozenset({OFFICER})
#: Who previews and approves the publication of lists.
PUBLISHERS: Final = frozenset({OFFICER})

Allowed = frozenset[str] | Literal["public"]

#: (method, path as declared) -> who may call it.
POLICY: Final[dict[tuple[str, str], Allowed]] = {
    # Web pages
    ("GET", "/login"): PUBLIC,
    ("POST", "/login"): PUBLIC,
    ("GET", "/style.css"): PUBLIC,
    # Prometheus' scrape: counts by route template, status and category, nothing of anyone
    # (docs/operations.md, "Metrics and logs"); a 404 with RATINGDB_METRICS=0.
    ("GET", "/metrics"): PUBLIC,
    ("POST", "/logout"): SIGNED_IN,
    ("GET", "/"): SIGNED_IN,
    ("GET", "/account"): SIGNED_IN,
    ("POST", "/account/password"): SIGNED_IN,
    ("POST", "/account/tokens"): SIGNED_IN,
    ("POST", "/account/tokens/revoke"): SIGNED_IN,
    ("GET", "/users"): frozenset({ADMIN}),
    ("POST", "/users"): frozenset({ADMIN}),
    ("POST", "/users/{username}/disable"): frozenset({ADMIN}),
    ("POST", "/users/{username}/enable"): frozenset({ADMIN}),
    ("POST", "/users/{username}/approve"): frozenset({ADMIN}),
    ("POST", "/users/{username}/password"): frozenset({ADMIN}),
    ("POST", "/users/{username}/tokens/revoke"): frozenset({ADMIN}),
    ("GET", "/submissions"): UPLOADERS,
    ("GET", "/submissions/new"): UPLOADERS,
    ("POST", "/submissions"): UPLOADERS,
    ("GET", "/submissions/{submission_id}"): UPLOADERS,
    ("POST", "/submissions/{submission_id}/accept"): frozenset({OFFICER}),
    ("POST", "/submissions/{submission_id}/reject"): frozenset({OFFICER}),
    ("GET", "/audit"): AUDITORS,
    # Players FIDE's lists leave out (issue 27): what the officer sends to FIDE's registration.
    ("GET", "/players/unregistered.csv"): frozenset({OFFICER}),
    # Title norms and the title watch (issue 28 item 1): officers, read only.
    ("GET", "/norms"): frozenset({OFFICER}),
    ("GET", "/norms/tournaments/{tournament_id}"): frozenset({OFFICER}),
    ("GET", "/norms/tournaments/{tournament_id}/certificates/{player_id}/{title}"): frozenset(
        {OFFICER}
    ),
    ("GET", "/titles/watch"): frozenset({OFFICER}),
    # Tournaments (issue 28 item 4): officers browse and open them; a game's "Correct" link
    # and the withdrawal go to the correction forms (CORRECTORS).
    ("GET", "/tournaments"): frozenset({OFFICER}),
    ("GET", "/tournaments/{tournament_id}"): frozenset({OFFICER}),
    # Players (issue 28 item 2): officers browse them and edit a record (audited).
    ("GET", "/players"): frozenset({OFFICER}),
    ("GET", "/players/{player_id}"): frozenset({OFFICER}),
    ("POST", "/players/{player_id}"): frozenset({OFFICER}),
    # JSON API (bearer tokens)
    ("GET", "/admin/v1/openapi.json"): SIGNED_IN,
    ("GET", "/admin/v1/me"): SIGNED_IN,
    ("POST", "/admin/v1/me/password"): SIGNED_IN,
    ("POST", "/admin/v1/me/tokens"): SIGNED_IN,
    ("GET", "/admin/v1/users"): frozenset({ADMIN}),
    ("POST", "/admin/v1/users"): frozenset({ADMIN}),
    ("POST", "/admin/v1/users/{username}/disable"): frozenset({ADMIN}),
    ("POST", "/admin/v1/users/{username}/enable"): frozenset({ADMIN}),
    ("POST", "/admin/v1/users/{username}/approve"): frozenset({ADMIN}),
    ("POST", "/admin/v1/users/{username}/password"): frozenset({ADMIN}),
    ("POST", "/admin/v1/users/{username}/tokens/revoke"): frozenset({ADMIN}),
    ("POST", "/admin/v1/submissions"): UPLOADERS,
    ("GET", "/admin/v1/submissions"): UPLOADERS,
    ("GET", "/admin/v1/submissions/{submission_id}"): UPLOADERS,
    ("POST", "/admin/v1/submissions/{submission_id}/accept"): frozenset({OFFICER}),
    ("POST", "/admin/v1/submissions/{submission_id}/reject"): frozenset({OFFICER}),
    ("GET", "/admin/v1/audit"): AUDITORS,
    ("GET", "/admin/v1/players"): frozenset({OFFICER}),
    ("GET", "/admin/v1/players/{player_id}"): frozenset({OFFICER}),
    ("POST", "/admin/v1/players/{player_id}"): frozenset({OFFICER}),
    # --- Corrections (issue 14): officers only. Web pages (form -> impact -> confirm) ---
    ("GET", "/corrections"): CORRECTORS,
    ("GET", "/corrections/game"): CORRECTORS,
    ("POST", "/corrections/game"): CORRECTORS,
    ("GET", "/corrections/tournament"): CORRECTORS,
    ("POST", "/corrections/tournament"): CORRECTORS,
    ("GET", "/corrections/merge"): CORRECTORS,
    ("POST", "/corrections/merge"): CORRECTORS,
    ("GET", "/corrections/list"): CORRECTORS,
    ("POST", "/corrections/list"): CORRECTORS,
    ("GET", "/corrections/withdraw"): CORRECTORS,
    ("POST", "/corrections/withdraw"): CORRECTORS,
    ("GET", "/corrections/previews/{preview_id}"): CORRECTORS,
    ("POST", "/corrections/previews/{preview_id}/confirm"): CORRECTORS,
    ("POST", "/corrections/previews/{preview_id}/discard"): CORRECTORS,
    # --- Corrections: the JSON API (each with dry_run) ---
    ("POST", "/admin/v1/corrections/game"): CORRECTORS,
    ("POST", "/admin/v1/corrections/tournament/{tournament_id}"): CORRECTORS,
    ("POST", "/admin/v1/corrections/merge"): CORRECTORS,
    ("POST", "/admin/v1/corrections/list"): CORRECTORS,
    # Publication (issue 14): officers preview each category's next list and approve it.
    ("GET", "/publication"): PUBLISHERS,
    ("GET", "/publication/{category}/{period}"): PUBLISHERS,
    ("POST", "/publication/{category}/{period}/approve"): PUBLISHERS,
    ("GET", "/admin/v1/periods/{category}/{period}/preview"): PUBLISHERS,
    ("POST", "/admin/v1/periods/{category}/{period}/approve"): PUBLISHERS,
    # Each category's publication mode (issue 28 item 6): admins set it, audited.
    ("GET", "/settings/publication"): frozenset({ADMIN}),
    ("POST", "/settings/publication/{category}"): frozenset({ADMIN}),
    ("GET", "/admin/v1/publication/modes"): frozenset({ADMIN}),
    ("POST", "/admin/v1/publication/modes/{category}"): frozenset({ADMIN}),
}

#: Web forms that carry a file (multipart/form-data, bounded by the upload limit); every
#: other form is application/x-www-form-urlencoded.
UPLOADS: Final = frozenset({("POST", "/submissions")}) | frozenset(
    # Corrections: a corrected tournament file, a corrected list file.
    {("POST", "/corrections/tournament"), ("POST", "/corrections/list")}
)

#: Paths under this prefix are the JSON API: bearer tokens only, never the session cookie.
API_PREFIX: Final = "/admin/v1"

#: What a pairing program's token (scope ``submit``) may do beyond reading.
SUBMIT_ROUTES: Final = frozenset({("POST", "/admin/v1/submissions")})
#: Scopes from the least to the most: each includes the ones before it.
SCOPE_ORDER: Final = (TokenScope.READ, TokenScope.SUBMIT, TokenScope.FULL)
#: What a session whose password an admin chose may do until its user chooses a new one.
PASSWORD_CHANGE_ROUTES: Final = frozenset(
    {("GET", "/account"), ("POST", "/account/password"), ("POST", "/logout"),
     ("GET", "/style.css"), ("GET", "/login"), ("POST", "/login")}
)  # fmt: skip


def scope_needed(method: str, path: str) -> TokenScope:
    """The least scope a token needs for an API route."""
    if method in ("GET", "HEAD"):
        return TokenScope.READ
    if (method, path) in SUBMIT_ROUTES:
        return TokenScope.SUBMIT
    return TokenScope.FULL


def scope_allows(scope: TokenScope, needed: TokenScope) -> bool:
    return SCOPE_ORDER.index(scope) >= SCOPE_ORDER.index(needed)


def allowed(method: str, path: str) -> Allowed | None:
    """Who may call the route; None when the route is not in the table (deny)."""
    return POLICY.get((method, path))


def check_policy_covers(routes: Iterable[tuple[str, str]]) -> None:
    """Every route in the table and every table line a route: an app that would serve an
    unlisted route, or whose table names a route that no longer exists, does not start."""
    served = set(routes)
    missing = served - POLICY.keys()
    if missing:
        raise RuntimeError(f"routes missing from the back-office policy: {sorted(missing)}")
    stale = POLICY.keys() - served
    if stale:
        raise RuntimeError(f"back-office policy lines without a route: {sorted(stale)}")
