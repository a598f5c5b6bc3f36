"""Bot API errors: the exception the fake server raises and the JSON bodies Telegram returns."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

QUERY_TOO_OLD = (
    "Bad Request: query is too old and response timeout expired or query ID is invalid"
)
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
GETUPDATES_CONFLICT = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
WEBHOOK_ACTIVE = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)


class ApiError(Exception):
    """A failed Bot API call; becomes `{"ok": false, "error_code": ..., ...}` on the wire."""

    def __init__(
        self, code: int, description: str, retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def to_api(self) -> JSON:
        """The response body exactly as Telegram shapes it."""
        body: JSON = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to_chat_id is not None:
            body["parameters"] = {"migrate_to_chat_id": self.migrate_to_chat_id}
        return body


def bad_request(what: str) -> ApiError:
    """400 with Telegram's "Bad Request: " prefix."""
    return ApiError(400, f"Bad Request: {what}")


def forbidden(description: str) -> ApiError:
    """403; `description` already carries the "Forbidden: " prefix."""
    return ApiError(403, description)


def too_many_requests(retry_after: int) -> ApiError:
    """429 with `parameters.retry_after`, as Telegram's flood control answers."""
    return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)


def not_found() -> ApiError:
    """What Telegram answers for an unknown method."""
    return ApiError(404, "Not Found")
