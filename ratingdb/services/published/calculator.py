"""The calculator (contract "Calculator"): JSON in, JSON out, no database."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ratingdb.errors import InputError
from ratingdb.formats.calculator_json import parse_request, result_to_json
from ratingdb.rules import NoRuleVersion
from ratingdb.rules.calculator import calculate
from ratingdb.rules.calendar import NotAListPeriod


def run_calculator(document: Mapping[str, Any]) -> dict[str, Any]:
    """The calculator (contract "Calculator"): its JSON in, its JSON out. InputError names the
    field at fault."""
    request = parse_request(dict(document))
    try:
        result = calculate(request)
    except (NotAListPeriod, NoRuleVersion) as error:
        raise InputError(str(error), field="period") from None
    return result_to_json(request, result)
