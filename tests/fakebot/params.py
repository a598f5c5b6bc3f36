"""Reading Bot API call parameters from query strings, JSON, url-encoded and multipart bodies.

python-telegram-bot posts `application/x-www-form-urlencoded` bodies where every non-string
value is JSON-encoded (ints, bools, dicts, lists) and strings are sent raw; uploads come as
`multipart/form-data`.  The typed getters below accept both that and a plain JSON body.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .errors import bad_request

_INT_RE = re.compile(r"^-?\d+$")
_TRUE = {"true", "1", "True"}
_FALSE = {"false", "0", "False", ""}


@dataclass(frozen=True)
class UploadPart:
    """One file part of a multipart request."""

    field: str
    filename: str | None
    content_type: str | None
    data: bytes


class Params:
    """The parameters of one call with tolerant, typed accessors."""

    def __init__(self, values: Mapping[str, Any], files: Mapping[str, UploadPart]) -> None:
        self.values: dict[str, Any] = dict(values)
        self.files: dict[str, UploadPart] = dict(files)

    def has(self, name: str) -> bool:
        return self.values.get(name) is not None or name in self.files

    def get_str(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is None or isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        raise bad_request(f"field \"{name}\" must be of type String")

    def get_int(self, name: str) -> int | None:
        value = self.values.get(name)
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and _INT_RE.match(value.strip()):
            return int(value.strip())
        raise bad_request(f"field \"{name}\" must be of type Integer")

    def get_float(self, name: str) -> float | None:
        value = self.values.get(name)
        if value is None:
            return None
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        try:
            return float(str(value))
        except ValueError:
            raise bad_request(f"field \"{name}\" must be of type Float") from None

    def get_bool(self, name: str, default: bool = False) -> bool:
        value = self.values.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return value != 0
        if isinstance(value, str) and value in _TRUE:
            return True
        if isinstance(value, str) and value in _FALSE:
            return False
        raise bad_request(f"field \"{name}\" must be of type Boolean")

    def get_json(self, name: str) -> Any:
        """A structured value: decoded from a JSON string (form bodies) or taken as is."""
        value = self.values.get(name)
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {name} JSON object") from None

    def require_int(self, name: str) -> int:
        value = self.get_int(name)
        if value is None:
            raise bad_request(f"{name} is empty")
        return value

    def require_str(self, name: str) -> str:
        value = self.get_str(name)
        if not value:
            raise bad_request(f"{name} is empty")
        return value

    def get_upload(self, name: str) -> UploadPart | str | None:
        """A file parameter: an uploaded part (also via `attach://x`) or a file_id/URL string."""
        if name in self.files:
            return self.files[name]
        value = self.get_str(name)
        if value is not None and value.startswith("attach://"):
            part = self.files.get(value.removeprefix("attach://"))
            if part is None:
                raise bad_request(f"wrong file identifier/HTTP URL specified for {name}")
            return part
        return value

    def plain(self) -> dict[str, Any]:
        """All non-file parameters, JSON objects/arrays decoded, for recording."""
        out: dict[str, Any] = {}
        for key, value in self.values.items():
            if isinstance(value, str) and value[:1] in ("{", "["):
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            out[key] = value
        return out


async def read_params(request: web.Request) -> Params:
    """Collect query-string and body parameters of an incoming Bot API request."""
    values: dict[str, Any] = dict(request.query)
    files: dict[str, UploadPart] = {}
    if request.can_read_body:
        ctype = request.content_type
        if ctype == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise bad_request("can't parse JSON request body") from None
            if isinstance(body, dict):
                values.update(body)
        elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key, item in form.items():
                if isinstance(item, web.FileField):
                    files[key] = UploadPart(
                        key, item.filename, item.content_type, item.file.read()
                    )
                elif isinstance(item, bytes | bytearray):
                    values[key] = bytes(item).decode("utf-8", errors="replace")
                else:
                    values[key] = item
    return Params(values, files)
