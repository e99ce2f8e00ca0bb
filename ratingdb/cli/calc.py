"""``ratingdb calc [FILE]``: the calculator, JSON in (file or stdin), JSON out; no database."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ratingdb.errors import InputError


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "calc", help="the rating calculator: JSON in, JSON out (touches no database)"
    )
    parser.add_argument("file", nargs="?", help="input JSON file; absent or - reads standard input")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from ratingdb.formats.calculator_json import load_request, result_to_json
    from ratingdb.rules.calculator import calculate

    from_stdin = args.file in (None, "-")
    source = "<stdin>" if from_stdin else args.file
    try:
        text = sys.stdin.read() if from_stdin else Path(args.file).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except UnicodeDecodeError as error:
        raise InputError(f"not UTF-8 text ({error.reason})", source=source) from None
    try:
        request = load_request(text)
    except InputError as error:
        raise error.located(source) from None
    result = calculate(request)
    json.dump(result_to_json(request, result), sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
