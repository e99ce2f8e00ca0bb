"""The stored words the pages show, marked for the back office's catalogue: a template writes
``{{ value | tr }}`` and the officer reads it in their language (the value itself, which forms
send and the JSON API answers, stays as stored)."""

from __future__ import annotations

from typing import Final

from ratingdb.i18n import N_

#: Roles, states (submissions, correction previews, periods), publication modes, the audit
#: log's channels: their English words are the stored values.
SHOWN: Final = (
    N_("arbiter"),
    N_("officer"),
    N_("admin"),
    N_("submitted"),
    N_("accepted"),
    N_("rejected"),
    N_("previewed"),
    N_("applied"),
    N_("discarded"),
    N_("expired"),
    N_("open"),
    N_("closing"),
    N_("awaiting-approval"),
    N_("published"),
    N_("automatic"),
    N_("approval"),
    N_("web"),
    N_("api"),
    N_("cli"),
    N_("scheduler"),
    N_("direct"),
    # A player's standing (enums.PlayerStanding).
    N_("active"),
    N_("deceased"),
    N_("suspended"),
    N_("withdrawn"),
    # Why a round gave a player no game (rules.norms.Unplayed).
    N_("forfeit-win"),
    N_("forfeit-loss"),
    N_("bye"),
    N_("no-game"),
)
#: A norm check's conditions (``rules.norms``: their keys, ``_`` as spaces).
NORM_CONDITIONS: Final = (
    N_("average"),
    N_("federation exemption"),
    N_("federations known"),
    N_("games"),
    N_("norm level opponents"),
    N_("one federation"),
    N_("other federations"),
    N_("own federation"),
    N_("performance"),
    N_("score"),
    N_("swiss exemption"),
    N_("title holders"),
)
