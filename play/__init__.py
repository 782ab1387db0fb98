"""The play library: built-in bot policies, the bot harness, simulations, tournaments and their ratings.

Everything here plays games with the rules core (and, for tournaments over HTTP, with a referee through the
client); the command line and the HTTP routes both call it. It knows no HTTP route and no page.
"""
