"""The HTTP API: the routes of every resource, request parsing, problem answers, limits and the OpenAPI document."""
