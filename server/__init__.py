"""The server: builds the app from the referee, the API's routes and the web pages, and runs it."""
