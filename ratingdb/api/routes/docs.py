"""``/docs`` (Swagger UI) and ``/redoc`` (ReDoc), from assets ratingdb serves itself.

FastAPI's own pages load their scripts and stylesheets from a CDN, so they stay blank on a
machine without internet, and start Swagger UI with an inline script. These pages load the
copies in ``static/docs`` (their licences beside them) and start Swagger UI from a script
file, so that their Content-Security-Policy allows scripts from 'self' only.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(include_in_schema=False)

ASSETS = "/static/docs"
OPENAPI_URL = "/openapi.json"


def _headers(policy: str) -> dict[str, str]:
    return {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    }


#: What the pages may load: scripts, styles, fonts, images and the OpenAPI document from
#: ratingdb only, no inline script. Both draw icons as data: images.
_POLICY = (
    "default-src 'none'; script-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
SWAGGER_UI_HEADERS = _headers(f"{_POLICY}; style-src 'self'")
#: ReDoc writes its styles into ``<style>`` elements (styled-components: without
#: 'unsafe-inline' it draws nothing) and runs its search in a blob: worker.
REDOC_HEADERS = _headers(f"{_POLICY}; style-src 'self' 'unsafe-inline'; worker-src blob:")


SWAGGER_UI = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ratingdb API · Swagger UI</title>
<link rel="stylesheet" href="{ASSETS}/swagger-ui/swagger-ui.css">
<link rel="icon" type="image/png" href="{ASSETS}/swagger-ui/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui" data-openapi-url="{OPENAPI_URL}"></div>
<script src="{ASSETS}/swagger-ui/swagger-ui-bundle.js"></script>
<script src="{ASSETS}/swagger-init.js"></script>
</body>
</html>
"""

REDOC = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ratingdb API · ReDoc</title>
<link rel="icon" type="image/png" href="{ASSETS}/swagger-ui/favicon-32x32.png">
</head>
<body>
<redoc spec-url="{OPENAPI_URL}"></redoc>
<script src="{ASSETS}/redoc/redoc.standalone.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
async def swagger_ui() -> HTMLResponse:
    return HTMLResponse(SWAGGER_UI, headers=SWAGGER_UI_HEADERS)


@router.get("/redoc", response_class=HTMLResponse)
async def redoc() -> HTMLResponse:
    return HTMLResponse(REDOC, headers=REDOC_HEADERS)
