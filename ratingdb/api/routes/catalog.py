"""``/v1/categories`` and ``/v1/rules``: the categories and the rulebook."""

from __future__ import annotations

from fastapi import APIRouter

from ratingdb.api.dependencies import ReaderDep, TodayDep
from ratingdb.api.params import CategoryQuery
from ratingdb.api.routes import BAD_PARAMETER, READ
from ratingdb.api.schemas import CategoriesOut, CategoryOut, RulesOut, RuleVersionOut
from ratingdb.services import published as svc

router = APIRouter(prefix="/v1", tags=["rules"])


@router.get("/categories", response_model=CategoriesOut, responses=READ)
async def categories(read: ReaderDep, today: TodayDep) -> CategoriesOut:
    """The four categories, each with the rule version in force today and its latest list."""
    found = await read(lambda session: svc.categories(session, today))
    return CategoriesOut(categories=[CategoryOut.of(info) for info in found])


@router.get("/rules", response_model=RulesOut, responses=BAD_PARAMETER)
async def rules(today: TodayDep, category: CategoryQuery = None) -> RulesOut:
    """Every rule version (of one category), oldest first, with its effective dates, its source
    and every parameter."""
    return RulesOut(rules=[RuleVersionOut.of(info) for info in svc.rule_versions(category, today)])
