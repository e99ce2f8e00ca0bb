"""The categories (their rules in force and latest lists) and every rule version."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.rules import Category, NoRuleVersion, RuleVersion, version_on, versions_of
from ratingdb.services.published.lists import ListSummary, published_lists


@dataclass(frozen=True, slots=True)
class CategoryInfo:
    category: Category
    version: RuleVersion | None  # in force today (None: before the category's first rules)
    latest: ListSummary | None


def categories(session: Session, today: date) -> tuple[CategoryInfo, ...]:
    latest: dict[Category, ListSummary] = {}
    for summary in published_lists(session):
        latest.setdefault(summary.category, summary)
    out = []
    for category in Category:
        try:
            version: RuleVersion | None = version_on(category, today)
        except NoRuleVersion:
            version = None
        out.append(CategoryInfo(category, version, latest.get(category)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class RuleInfo:
    version: RuleVersion
    #: The day the next version of the category takes over (None: still the latest).
    effective_until: date | None
    in_force: bool


def rule_versions(category: Category | None, today: date) -> tuple[RuleInfo, ...]:
    """Every rule version (of one category), oldest first within each category."""
    out = []
    for each in Category if category is None else (category,):
        versions = versions_of(each)
        for version, following in zip(versions, (*versions[1:], None), strict=True):
            until = None if following is None else following.effective_from
            in_force = version.effective_from <= today and (until is None or today < until)
            out.append(RuleInfo(version, until, in_force))
    return tuple(out)
