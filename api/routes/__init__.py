"""The HTTP routes, one `APIRouter` per resource, included by the app factory (`server.app.create_app`); their
shared typed dependencies (the referee, the credentials, a game id) are in `deps`."""
