"""Delivery to Telegram.

* `outbox` — brings the bot's messages to their newest wanted state within Telegram's
  limits, paced by its `Pacer`; `ledger` marks the stored messages it delivered.
* `callbacks` — the callback data of inline buttons: a compact codec of at most 64 bytes.
* `uploads` — files (the score sheet picture, the CSV export) sent straight through the API.
* `menu` — the bot's profile, set at every start: commands per scope and language.
"""
