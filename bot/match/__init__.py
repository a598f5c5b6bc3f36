"""Running matches.

* `service` — the match service (`Games`): starting a match, /kick and /back, /stop, and the
  front of the rooms below, which share one `crew.Crew`: the `running.Running` matches
  (in memory, their background work, the one announcement of a result), the commit path,
  the store, the people, the screens.
* `presses` — a player's press checked (seat, version, the engine) and applied;
  `changes` — a change committed with its messages, then shown; `autoplay` — computers and
  turn timers when nobody presses; `loading` — lazy loading and resuming after a restart.
* `live` — a running match in memory with its lock; `matchlog` — a match as stored text
  (header, seed, log, deals); `computers` — which seat a computer plays and when;
  `thinking` — deciding off the event loop in the services' process pool; `turns` — the
  in-memory turn timers.
* `screens` — what a change shows (the table, the hands, the results), stored with the change
  and handed to the outbox; `drawing` — those messages' contents, in their readers' languages.
* `recovery` — at start-up, what was not shown is delivered and the running matches resume.
"""
