"""The HTTP routes: one FastAPI `APIRouter` per resource, each included by the app factory (`server.app`)."""
