"""``ratingdb lists import``, ``export``, ``diff`` and ``list``."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from ratingdb.cli.common import (
    actor,
    category,
    command_group,
    database_options,
    period,
    transaction,
    utc_now,
    writing_options,
)
from ratingdb.errors import InputError

#: ratingdb.services.lists.IMPORT_FORMATS and services.published.export.EXPORT_FORMATS, without
#: importing the services to build the parser (tests/cli/test_startup.py keeps them the same).
IMPORT_FORMATS = ("csv", "fide-txt", "fide-xml")
EXPORT_FORMATS = ("json", "csv", "fide-txt", "fide-xml")


def register(commands: Any) -> None:
    actions = command_group(commands, "lists", "published rating lists")
    load = actions.add_parser(
        "import",
        parents=writing_options(),
        help="load a list published elsewhere as the published list of a period",
    )
    load.add_argument("file", type=Path)
    load.add_argument("--category", required=True)
    load.add_argument("--period", required=True)
    load.add_argument(
        "--format",
        choices=IMPORT_FORMATS,
        help="default: fide-xml for a .xml file, fide-txt for a .txt file, otherwise csv",
    )
    load.add_argument(
        "--replace",
        action="store_true",
        help="a corrected file for a list published by an import: a new revision of the list, "
        "the later periods recomputed (needs --reason)",
    )
    load.add_argument("--reason", help="why the list is replaced (with --replace)")
    load.add_argument(
        "--dry-run", action="store_true", help="with --replace: print the impact, write nothing"
    )
    load.set_defaults(handler=run_import)
    export = actions.add_parser("export", parents=[database_options()], help="a published list")
    export.add_argument("--category", required=True)
    export.add_argument("--period", required=True)
    export.add_argument("--format", choices=EXPORT_FORMATS, required=True)
    export.add_argument("--revision", type=int, help="a revision of the list (default: the latest)")
    export.add_argument("--output", type=Path, help="file to write (default: standard output)")
    export.set_defaults(handler=run_export)
    difference = actions.add_parser(
        "diff",
        parents=[database_options()],
        help="who changed between two revisions of a list, and which correction caused it",
    )
    difference.add_argument("--category", required=True)
    difference.add_argument("--period", required=True)
    difference.add_argument("--from-revision", type=int, default=1)
    difference.add_argument("--to-revision", type=int, required=True)
    difference.set_defaults(handler=run_diff)
    listing = actions.add_parser(
        "list",
        parents=[database_options()],
        help="the published lists (latest revision of each), newest first, as JSON lines",
    )
    listing.add_argument("--category")
    listing.set_defaults(handler=run_list)


def run_import(args: argparse.Namespace) -> int:
    from ratingdb.services import audit
    from ratingdb.services.lists import import_list_file
    from ratingdb.services.progress import terminal_progress

    suffix = args.file.suffix.lower()
    file_format = args.format or {".xml": "fide-xml", ".txt": "fide-txt"}.get(suffix, "csv")
    wanted_category = category(args.category)
    wanted_period = period(args.period)
    if args.replace:
        return _run_replace(args, file_format)
    for option, given in (("--reason", args.reason is not None), ("--dry-run", args.dry_run)):
        if given:
            raise InputError("only with --replace (a corrected list)", field=option)
    person = actor(args)
    with transaction(args) as session:
        now = utc_now()
        imported = import_list_file(
            session, args.file, wanted_category, wanted_period, now, file_format,
            track=terminal_progress,
        )  # fmt: skip
        audit.record(
            session, "list-import", person, now, file_digest=audit.file_digest(args.file),
            counts=imported.as_json(), details={"file": str(args.file), "format": file_format},
        )  # fmt: skip
    for note in imported.notes:
        print(f"note: {note}", file=sys.stderr)
    if imported.k_differs:
        print(
            f"note: {imported.k_differs} players have a K in the file other than the K their "
            "status gives (docs/rules.md §6); the status's K is kept",
            file=sys.stderr,
        )
    print(json.dumps(imported.as_json()))
    return 0


def _run_replace(args: argparse.Namespace, file_format: str) -> int:
    """``lists import --replace``: one transaction, rolled back for ``--dry-run``, whose report
    then names no row id (the correction, the new list) since none was written."""
    from ratingdb.services.corrections import replace_list
    from ratingdb.services.progress import terminal_progress

    if args.reason is None:
        raise InputError("a corrected list needs a reason", field="--reason")
    with transaction(args) as session:
        outcome, imported = replace_list(
            session, args.file, category(args.category), period(args.period),
            file_format=file_format, reason=args.reason, actor=actor(args), now=utc_now(),
            track=terminal_progress, dry_run=args.dry_run,
        )  # fmt: skip
        if args.dry_run:
            session.rollback()
    document = (
        {"correction_id": outcome.correction_id, "list_id": imported.list_id}
        | imported.as_json()
        | outcome.as_json()
        | {"revision": imported.revision, "dry_run": args.dry_run}
    )
    if args.dry_run:
        del document["correction_id"], document["list_id"]
    print(json.dumps(document, indent=1))
    for note in imported.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.dry_run:
        print("dry run: nothing was written", file=sys.stderr)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from ratingdb.services.published.export import write_published
    from ratingdb.services.published.lists import streamed_list

    wanted_category = category(args.category)
    wanted_period = period(args.period)
    with (
        transaction(args) as session,
        streamed_list(session, wanted_category, wanted_period, args.revision) as published,
        whole_or_nothing(args.output) as out,
    ):
        write_published(published, args.format, out)
    return 0


@contextmanager
def whole_or_nothing(output: Path | None) -> Iterator[IO[str]]:
    """Where an export is written as it is read: a file on disk (memory stays flat whatever
    the list's size) that becomes ``output`` (renamed into place) or goes to standard output
    only once complete, so a value refused half way leaves no file and prints nothing."""
    if output is None:
        with tempfile.TemporaryFile("w+", encoding="utf-8", newline="") as spool:
            yield spool
            spool.seek(0)
            shutil.copyfileobj(spool, sys.stdout)
        return
    part = output.with_name(f".{output.name}.part")
    try:
        with part.open("w", encoding="utf-8", newline="") as handle:
            yield handle
        part.replace(output)
    finally:
        part.unlink(missing_ok=True)


def run_diff(args: argparse.Namespace) -> int:
    from ratingdb.services import revisions

    wanted_category = category(args.category)
    wanted_period = period(args.period)
    with transaction(args) as session:
        document = revisions.diff(
            session, wanted_category, wanted_period, args.from_revision, args.to_revision
        )
    print(json.dumps(document, indent=1, ensure_ascii=False))
    return 0


def run_list(args: argparse.Namespace) -> int:
    """One JSON line per published list, as ``/v1/lists`` (its read model, its order)."""
    from ratingdb.services.published import published_lists

    wanted_category = None if args.category is None else category(args.category)
    with transaction(args) as session:
        found = published_lists(session, wanted_category)
    for summary in found:
        print(json.dumps({
            "category": summary.category.value,
            "period": str(summary.period),
            "list_date": summary.period.list_date.isoformat(),
            "revision": summary.revision,
            "revisions": summary.revisions,
            "entries": summary.entries,
            "rule_version": summary.rule_version,
            "published_at": summary.published_at.isoformat(),
        }))  # fmt: skip
    return 0
