"""The engine: the `expert` bot, a determinized search over the hidden cards built on the rules core.

`determinize` deals the cards a seat has not seen again, consistently with what it knows; `belief` reads the
others' plays to tell which cards they more likely hold, and the deal leans that way; `value` scores the end of
a round by the chance of winning the game; `search` tries every legal move in sampled worlds with heuristic
rollouts and spends its budget by sequential halving; `policy` is the bot itself (registered in `play.bots` as
`expert`); `review` judges every legal move of a logged game's decisions for `loveletter analyse`. See
docs/engine.md.
"""
