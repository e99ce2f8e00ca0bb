"""``/v1/categories`` and ``/v1/rules``: the categories, their rule versions and latest lists."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from ratingdb.api.schemas.common import PeriodText, Schema
from ratingdb.rules import Category
from ratingdb.services import published as svc


class CategoryOut(Schema):
    category: Category
    rule_version: str | None = Field(description="the rule version in force today")
    rule_version_effective_from: date | None
    list_months: list[int]
    closing_days: int | None
    latest_period: PeriodText | None = Field(description="the latest published list")

    @classmethod
    def of(cls, info: svc.CategoryInfo) -> CategoryOut:
        version = info.version
        return cls(
            category=info.category,
            rule_version=None if version is None else version.name,
            rule_version_effective_from=None if version is None else version.effective_from,
            list_months=[] if version is None else sorted(version.list_months),
            closing_days=None if version is None else version.closing_days,
            latest_period=None if info.latest is None else str(info.latest.period),
        )


class CategoriesOut(Schema):
    categories: list[CategoryOut]


ParameterValue = int | str | bool | list[int] | None

_TOP_LEVEL = ("name", "category", "effective_from", "source", "changes")


class RuleVersionOut(Schema):
    name: str
    category: Category
    effective_from: date
    effective_until: date | None = Field(description="when the next version takes over")
    in_force: bool = Field(description="in force today")
    source: str
    changes: str
    parameters: dict[str, ParameterValue]

    @classmethod
    def of(cls, info: svc.RuleInfo) -> RuleVersionOut:
        version = info.version
        parameters = {k: v for k, v in version.parameters().items() if k not in _TOP_LEVEL}
        return cls(
            name=version.name,
            category=version.category,
            effective_from=version.effective_from,
            effective_until=info.effective_until,
            in_force=info.in_force,
            source=version.source,
            changes=version.changes,
            parameters=parameters,
        )


class RulesOut(Schema):
    rules: list[RuleVersionOut]
