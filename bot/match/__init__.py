"""Running matches.

* `service` — the match service: a press becomes committed log lines, and only then
  messages; computers, timers, /kick and /back, /stop, loading and resuming.
* `live` — a running match in memory with its lock; `matchlog` — a match as stored text
  (header, seed, log, deals).
* `computers` — which seat a computer plays and when; `thinking` — deciding off the event
  loop in a process pool; `turns` — the in-memory turn timers.
* `screens` — what a change shows (the table, the hands, the results), handed to the outbox.
* `recovery` — at start-up, what was not shown is delivered and the running matches resume.
"""
