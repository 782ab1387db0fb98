"""The OpenAPI pages, `/docs` (Swagger UI) and `/redoc`, served with every asset from the referee itself.

FastAPI's own pages load Swagger UI and ReDoc from a CDN, so they are blank without internet access. The
`fastapi-offline` package ships those builds (docs/libraries.md says why we use it rather than vendor them); the
referee serves its static folder under `/assets/docs/` and writes the two pages pointing there, with no web font.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/assets/docs"
POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline' blob:; worker-src 'self' blob:; connect-src 'self'; font-src 'self' data:"
)
"""The pages' Content-Security-Policy: the browser itself refuses anything from another host (ReDoc's bundle asks
for a logo from its maker's CDN; it is left out, the link's text remains)."""
STATIC = Path(fastapi_offline.__file__).parent / "static"


def install(app: FastAPI) -> None:
    """Serve `/docs`, `/redoc` and their assets (the app is made with `docs_url=None, redoc_url=None`)."""
    app.mount(ASSETS, StaticFiles(directory=STATIC), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        page = get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title} — API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon.png",
        )
        page.headers["Content-Security-Policy"] = POLICY
        return page

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title} — API",
            redoc_js_url=f"{ASSETS}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS}/favicon.png",
            with_google_fonts=False,
        )
        page.headers["Content-Security-Policy"] = POLICY
        return page
