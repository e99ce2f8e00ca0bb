"""The calculator (docs/formats.md §7): JSON in, JSON out, no database."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ratingdb.errors import InputError
from ratingdb.formats.calculator_json import parse_request, result_to_json
from ratingdb.rules import NoRuleVersion
from ratingdb.rules.calculator import CalculatorRequest, CalculatorResult, calculate
from ratingdb.rules.calendar import NotAListPeriod


def run_calculator(document: Mapping[str, Any]) -> dict[str, Any]:
    """The calculator (docs/formats.md §7): its JSON in, its JSON out. InputError names the
    field at fault."""
    return result_to_json(*calculator_result(document))


def calculator_result(document: Mapping[str, Any]) -> tuple[CalculatorRequest, CalculatorResult]:
    """The calculator's JSON in, the core's request and result out (the calculator page shows
    them game by game). InputError names the field at fault."""
    request = parse_request(dict(document))
    try:
        return request, calculate(request)
    except (NotAListPeriod, NoRuleVersion) as error:
        raise InputError(str(error), field="period") from None
