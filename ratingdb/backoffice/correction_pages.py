"""The pages of corrections (officers only): a Corrections page linking five forms (a game's
result, a tournament replaced by a corrected file, two players merged, an imported list
replaced by a corrected file, a tournament withdrawn). A form's fields may be prefilled from
its address (``?tournament=...&round=...``: the tournament pages' links). Each form needs a
reason; sending it runs the correction dry and shows its impact (the lists that would get a new
revision, who changes and by how much) with a Confirm form. Confirming applies exactly what was
previewed: the request, its reason and the uploaded file are kept server-side
(``services.correction_requests``), the form carries only the preview's id (in its address) and
the digest of the impact it shows, and the correction is applied only if its impact is still
that one.

A merge of two records that may be two people (a round both played, another sex or birth
year) is refused with both records side by side and the conflicts, and a box to tick with the
reason to merge them all the same (the override, kept with the preview's request); the impact
page shows both records and the conflicts again before Confirm.

Plain forms with their CSRF token, no JavaScript; the two file forms are multipart/form-data
(``policy.UPLOADS``, bounded by the upload limit), the others urlencoded. Every change answers
with a redirect (reloading a page never repeats it); a refused request shows the form again
with the field at fault named, and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from ratingdb.backoffice import uploads
from ratingdb.backoffice.i18n import gettext
from ratingdb.backoffice.pages import _page
from ratingdb.backoffice.security import context, form_fields, signed_in
from ratingdb.errors import InputError
from ratingdb.i18n import N_
from ratingdb.rules import Category
from ratingdb.rules.messages import Message
from ratingdb.services import correction_requests as service
from ratingdb.services.accounts import Principal
from ratingdb.services.correction_requests import (
    CorrectionRequest,
    MergeConflicts,
    PreviewConflict,
    PreviewNotFound,
)
from ratingdb.services.submissions import described

Fields = Annotated[dict[str, str], Depends(form_fields)]
Caller = Annotated[Principal, Depends(signed_in)]
#: Changes listed per revision on the impact page (the API's dry run lists them all).
SHOWN_CHANGES = 200
#: The merge form's box "merge them all the same" (its reason: the field ``override``).
OVERRIDE_TICKED = "override_ticked"
#: The longest value a form takes from its address (ids, a round, a result).
MAX_PREFILL = 100


@dataclass(frozen=True, slots=True)
class Input:
    """One field of a correction form."""

    name: str
    label: str
    kind: str = "text"  # text, number, select, file, override (a checkbox and its reason)
    choices: tuple[tuple[str, str], ...] = ()  # (value, label) of a select
    hint: str = ""
    required: bool = True


@dataclass(frozen=True, slots=True)
class Form:
    slug: str
    kind: str
    title: str
    intro: str
    inputs: tuple[Input, ...]
    #: Fields the form's request always has besides its inputs (a withdrawal's ``withdraw``).
    fixed: tuple[tuple[str, str], ...] = ()

    @property
    def upload(self) -> bool:
        return any(field.kind == "file" for field in self.inputs)


def _choices(values: tuple[str, ...], empty: str | None = None) -> tuple[tuple[str, str], ...]:
    first = () if empty is None else (("", empty),)
    return first + tuple((value, value) for value in values)


FORMS: dict[str, Form] = {
    form.slug: form
    for form in (
        Form("game", service.GAME, N_("Correct a game's result"),
             N_("One game of a stored tournament gets another result (as "
             "<code>ratingdb games correct</code>). White and black as stored: white first."),
             (Input("tournament", N_("Tournament id"), hint=N_("e.g. T000012")),
              Input("round", N_("Round"), kind="number"),
              Input("white", N_("White (player id)")),
              Input("black", N_("Black (player id)")),
              Input("result", N_("Corrected result"), kind="select",
                    choices=_choices(service.RESULT_CHOICES, N_("choose"))))),
        Form("tournament", service.TOURNAMENT, N_("Replace a tournament by a corrected file"),
             N_("The tournament keeps its id, category, period and dates; its games become the "
             "file's (as <code>ratingdb tournaments import FILE --replace ID</code>). Every "
             "player must be known already."),
             (Input("tournament", N_("Tournament id"), hint=N_("e.g. T000012")),
              Input("file", N_("Corrected file (TRF16, TRF26 or games CSV)"), kind="file"),
              Input("format", N_("Format"), kind="select", required=False,
                    choices=_choices(service.TOURNAMENT_FORMATS,
                                     N_("from the file name (.csv: games CSV, else TRF)"))))),
        Form("merge", service.MERGE, N_("Merge two players"),
             N_("Two records of one person become one: every game of the duplicate is moved to "
             "the record kept (as <code>ratingdb players merge KEEP DROP</code>)."),
             (Input("keep", N_("Player id to keep")),
              Input("drop", N_("Duplicate player id (merged into the one kept)")),
              Input("override", N_("Why they are one person all the same"), kind="override",
                    required=False))),
        Form("list", service.LIST, N_("Replace an imported list"),
             N_("A corrected file for a list published by an import becomes that list's next "
             "revision; the later lists are recomputed (as <code>ratingdb lists import FILE "
             "--replace</code>). A list published by a close cannot be replaced: correct its "
             "games."),
             (Input("file", N_("Corrected list (list CSV, FIDE TXT or FIDE XML)"), kind="file"),
              Input("category", N_("Category"), kind="select",
                    choices=_choices(tuple(c.value for c in Category), N_("choose"))),
              Input("period", N_("Period (YYYY-MM)"), hint=N_("e.g. 2026-08")),
              Input("format", N_("Format"), kind="select", required=False,
                    choices=_choices(service.LIST_FORMATS,
                                     N_("from the file name (.txt, .xml, else CSV)"))))),
        Form("withdraw", service.TOURNAMENT, N_("Withdraw a tournament"),
             N_("A tournament accepted by mistake loses every game (kept as history, no longer in "
             "force) and the lists it changed are recomputed: a replacement of its games by "
             "none. The tournament keeps its id and name. Open it from "
             "<a href=\"/tournaments\">Tournaments</a> to check it first."),
             (Input("tournament", N_("Tournament id"), hint=N_("e.g. T000012")),),
             fixed=(("withdraw", service.WITHDRAW),)),
    )
}  # fmt: skip
NOT_APPLIED = N_(
    "Nothing was applied: the impact changed since it was shown (another correction or a "
    "close in between). This is the impact now: read it and confirm again."
)
#: The preview page's title of each kind (a withdrawal's: its form's).
TITLES = {form.kind: form.title for form in FORMS.values() if not form.fixed}


def _title(shown: dict[str, Any]) -> str:
    if service.is_withdrawal(shown["inputs"]):
        return FORMS["withdraw"].title
    return TITLES[shown["kind"]]


def corrections_page(request: Request, caller: Caller) -> HTMLResponse:
    found = context(request)
    with found.sessions.begin() as session:
        previews = service.list_previews(session, caller, found.clock())
    titled = [preview | {"title": _title(preview)} for preview in previews]
    return _page(request, "corrections.html", forms=list(FORMS.values()), previews=titled)


def _inputs(values: dict[str, str]) -> dict[str, str]:
    """The request's fields from the form's: a merge's override only when its box is ticked
    (its reason then required by the service); a reason without the box ticked is refused."""
    inputs = {name: value for name, value in values.items()
              if name not in ("reason", "override", OVERRIDE_TICKED)}  # fmt: skip
    if values.get(OVERRIDE_TICKED):
        inputs["override"] = values.get("override", "")
    elif values.get("override", "").strip():
        raise InputError(Message(N_("tick the box to merge them all the same, or leave its "
                                    "reason empty")), field="override")  # fmt: skip
    return inputs


def _form_page(
    request: Request,
    form: Form,
    status: int = 200,
    values: dict[str, str] | None = None,
    error: InputError | None = None,
    comparison: dict[str, Any] | None = None,
) -> HTMLResponse:
    return _page(
        request, "correction_form.html", status=status, form=form, values=values or {},
        error=None if error is None else described(error),
        error_field=None if error is None else service.form_field(error),
        comparison=comparison, override_ticked=OVERRIDE_TICKED,
    )  # fmt: skip


def _show_form(form: Form) -> Callable[[Request, Caller], HTMLResponse]:
    def show(request: Request, caller: Caller) -> HTMLResponse:
        # Prefilled from the query (a game's "Correct" link, a tournament's "Withdraw"): no id
        # typed by hand. Only the form's own fields, and never the reason.
        given = request.query_params
        values = {field.name: given[field.name][:MAX_PREFILL] for field in form.inputs
                  if field.kind not in ("file", "override") and field.name in given}  # fmt: skip
        return _form_page(request, form, values=values)

    show.__name__ = f"{form.slug}_form"
    return show


def _send_form(form: Form) -> Callable[[Request, Caller, Fields], Awaitable[Response]]:
    async def send(request: Request, caller: Caller, fields: Fields) -> Response:
        values = {field.name: fields.get(field.name, "") for field in form.inputs
                  if field.kind != "file"}  # fmt: skip
        if any(field.kind == "override" for field in form.inputs):
            values[OVERRIDE_TICKED] = fields.get(OVERRIDE_TICKED, "")
        values["reason"] = fields.get("reason", "")
        if not form.upload:
            return await _preview(request, caller, form, values)
        try:  # the file read and checked in one of the process's upload slots
            with uploads.slot(request, caller):
                return await _preview(request, caller, form, values)
        except uploads.Busy as busy:
            answer = _form_page(request, form, busy.status_code, values, InputError(busy.text))
            answer.headers.update(busy.headers or {})
            return answer

    send.__name__ = f"{form.slug}_preview"
    return send


async def _preview(request: Request, caller: Principal, form: Form,
                   values: dict[str, str]) -> Response:  # fmt: skip
    """Run the form's correction dry and keep it as a preview: 303 to it, or the form again."""
    content: bytes | None = None
    filename: str | None = None
    sent = await uploads.form_file(request) if form.upload else None
    if sent is not None:
        content, filename = sent
    try:
        inputs = _inputs(values) | dict(form.fixed)
    except InputError as error:
        return _form_page(request, form, 422, values, error)
    wanted = CorrectionRequest(form.kind, inputs, content, filename)
    found = context(request)

    def work() -> int:
        with found.sessions.begin() as session:
            return service.preview(session, wanted, values["reason"], caller, found.clock())

    try:
        preview_id = await run_in_threadpool(work)
    except MergeConflicts as refused:  # both records and their conflicts shown with the form
        return _form_page(request, form, 422, values, refused, refused.comparison.as_json())
    except InputError as error:
        return _form_page(request, form, 422, values, error)
    return RedirectResponse(f"/corrections/previews/{preview_id}", status_code=303)


def _preview_page(
    request: Request,
    caller: Principal,
    preview_id: str,
    status: int = 200,
    error: Message | None = None,
    notice: str | None = None,
) -> Response:
    found = context(request)
    try:
        with found.sessions.begin() as session:
            shown = service.show_preview(session, preview_id, caller, found.clock())
    except PreviewNotFound as missing:
        return _page(request, "not_found.html", status=404, error=missing.text)
    return _page(request, "correction_preview.html", status=status, item=shown,
                 title=_title(shown), error=error, notice=notice,
                 shown_changes=SHOWN_CHANGES)  # fmt: skip


def preview_page(request: Request, preview_id: str, caller: Caller) -> Response:
    return _preview_page(request, caller, preview_id)


async def confirm(request: Request, preview_id: str, caller: Caller, fields: Fields) -> Response:
    found = context(request)

    def work() -> service.Confirmation:
        with found.sessions.begin() as session:
            return service.confirm(session, preview_id, caller, found.clock(),
                                   fields.get("impact_digest", ""))  # fmt: skip

    try:
        done = await run_in_threadpool(work)
    except PreviewNotFound as missing:
        return _page(request, "not_found.html", status=404, error=missing.text)
    except PreviewConflict as conflict:
        return _preview_page(request, caller, preview_id, 409, conflict.text)
    except InputError as error:
        return _preview_page(request, caller, preview_id, 422, described(error))
    if not done.applied:
        return _preview_page(
            request, caller, preview_id, 409,
            notice=gettext(request, NOT_APPLIED),
        )  # fmt: skip
    return RedirectResponse(f"/corrections/previews/{done.preview_id}", status_code=303)


def discard(request: Request, preview_id: str, caller: Caller, fields: Fields) -> Response:
    found = context(request)
    try:
        with found.sessions.begin() as session:
            service.discard(session, preview_id, caller, found.clock())
    except PreviewNotFound as missing:
        return _page(request, "not_found.html", status=404, error=missing.text)
    except PreviewConflict as conflict:
        return _preview_page(request, caller, preview_id, 409, conflict.text)
    return RedirectResponse("/corrections", status_code=303)


def register(router: APIRouter) -> None:
    """The pages' routes (each one also a line of ``policy.POLICY``); not in the OpenAPI."""
    routes: list[tuple[str, str, Callable[..., Any]]] = [("GET", "/corrections", corrections_page)]
    for form in FORMS.values():
        routes.append(("GET", f"/corrections/{form.slug}", _show_form(form)))
        routes.append(("POST", f"/corrections/{form.slug}", _send_form(form)))
    routes += [
        ("GET", "/corrections/previews/{preview_id}", preview_page),
        ("POST", "/corrections/previews/{preview_id}/confirm", confirm),
        ("POST", "/corrections/previews/{preview_id}/discard", discard),
    ]
    for method, path, endpoint in routes:
        router.add_api_route(path, endpoint, methods=[method], include_in_schema=False)
