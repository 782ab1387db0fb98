"""The play library: the built-in bot policies (`bots`), the harness that plays any bot in process or over HTTP
(`harness`) and asks a bot of the user's own in process (`asking`: on a thread with a time limit, or as a
policy), simulations (`simulate`) and what their totals say (`report`), tournaments (`tournament`; over HTTP,
`tournament_http`) and their ratings (`ratings`), the accounts' ladders folded from rated games' logs (`ladder`),
the demonstration game (`demo`), the `expert` engine (`engine`), the solver of small decks (`solver`) and the thinking
room that runs engine work in worker processes, off a server's event loop (`thinking`).

Games are played with the rules core in process, or on a referee through the Python client as any outside program
would. The command line and the HTTP routes both call this library; it declares no HTTP route and no page.
"""
