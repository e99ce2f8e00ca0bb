"""The API's routes, one module per resource, and the web pages."""

from __future__ import annotations

from typing import Any

from ratingdb.api.schemas import ErrorOut

NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "Nothing published under that name"}
}
BAD_PARAMETER: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorOut, "description": "A parameter is invalid (the detail names it)"}
}
UNAVAILABLE: dict[int | str, dict[str, Any]] = {
    503: {"model": ErrorOut, "description": "The database cannot be reached"}
}
READ = BAD_PARAMETER | UNAVAILABLE
LOOKUP = NOT_FOUND | BAD_PARAMETER | UNAVAILABLE
