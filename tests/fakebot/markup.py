"""Message text and keyboard rules: Telegram HTML parsing, length limits, inline keyboards.

`render()` turns what the bot sent into the visible text plus `MessageEntity` dicts (offsets in
UTF-16 code units, as Telegram counts them) and raises Telegram's 400 errors for malformed HTML.
MarkdownV2/Markdown are accepted but not interpreted (the text is kept verbatim).
"""

from __future__ import annotations

import re
from typing import Any

from .errors import bad_request

JSON = dict[str, Any]

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64

_TAG_RE = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)([^<>]*)>")
_ATTR_RE = re.compile(r"([A-Za-z][\w-]*)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'>]+)))?")
_CHARREF_RE = re.compile(r"&(?:#(\d+)|#[xX]([0-9A-Fa-f]+)|(lt|gt|amp|quot));")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_SIMPLE_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "tg-spoiler": "spoiler", "code": "code", "pre": "pre", "blockquote": "blockquote",
}
_SPECIAL_TAGS = {"a", "span", "tg-emoji"}
_COMMAND_RE = re.compile(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w@])")
_MENTION_RE = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{4,32}(?!\w)")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units (Telegram's unit for entity offsets)."""
    return len(text.encode("utf-16-le")) // 2


def _unescape(chunk: str) -> str:
    def repl(match: re.Match[str]) -> str:
        dec, hexa, named = match.groups()
        try:
            if dec is not None:
                return chr(int(dec))
            if hexa is not None:
                return chr(int(hexa, 16))
        except (ValueError, OverflowError):
            return match.group(0)
        return _NAMED[named]

    return _CHARREF_RE.sub(repl, chunk) if "&" in chunk else chunk


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


def _entity_for(name: str, attrs: dict[str, str], text: str, at: int) -> JSON | None:
    """The entity a start tag opens (without offset/length); raises for unsupported tags."""
    if name in _SIMPLE_TAGS:
        kind = _SIMPLE_TAGS[name]
        if name == "blockquote" and "expandable" in attrs:
            kind = "expandable_blockquote"
        entity: JSON = {"type": kind}
        if name == "pre" and attrs.get("class", "").startswith("language-"):
            entity["language"] = attrs["class"].removeprefix("language-")
        return entity
    if name == "a":
        href = attrs.get("href", "")
        if href.startswith("tg://user?id="):
            return {"type": "text_mention", "user": {"id": int(href.split("=", 1)[1] or 0)}}
        return {"type": "text_link", "url": href} if href else None
    if name == "span":
        if attrs.get("class") != "tg-spoiler":
            raise bad_request(
                "can't parse entities: Tag \"span\" must have class \"tg-spoiler\" "
                f"at byte offset {_byte_offset(text, at)}"
            )
        return {"type": "spoiler"}
    if name == "tg-emoji":
        return {"type": "custom_emoji", "custom_emoji_id": attrs.get("emoji-id", "")}
    raise bad_request(
        f"can't parse entities: Unsupported start tag \"{name}\" "
        f"at byte offset {_byte_offset(text, at)}"
    )


def parse_html(text: str) -> tuple[str, list[JSON]]:
    """Telegram-style HTML → (visible text, entities). Raises 400 "can't parse entities"."""
    out: list[str] = []
    length = 0  # UTF-16 length of the visible text so far
    stack: list[tuple[str, JSON | None, int]] = []
    entities: list[JSON] = []
    pos = 0
    while True:
        lt = text.find("<", pos)
        chunk = _unescape(text[pos:] if lt < 0 else text[pos:lt])
        out.append(chunk)
        length += utf16_len(chunk)
        if lt < 0:
            break
        match = _TAG_RE.match(text, lt)
        if match is None:
            raise bad_request(
                "can't parse entities: Unexpected end of name token "
                f"at byte offset {_byte_offset(text, lt)}"
            )
        closing, name, raw_attrs = match.group(1), match.group(2).lower(), match.group(3)
        if closing:
            if not stack:
                raise bad_request(
                    f"can't parse entities: Unexpected end tag at byte offset "
                    f"{_byte_offset(text, lt)}"
                )
            open_name, entity, start = stack.pop()
            if open_name != name:
                raise bad_request(
                    f"can't parse entities: Unmatched end tag at byte offset "
                    f"{_byte_offset(text, lt)}, expected \"</{open_name}>\", found \"</{name}>\""
                )
            if entity is not None and length > start:
                entity.update(offset=start, length=length - start)
                entities.append(entity)
        else:
            attrs = {
                m.group(1).lower(): next((g for g in m.groups()[1:] if g is not None), "")
                for m in _ATTR_RE.finditer(raw_attrs)
            }
            stack.append((name, _entity_for(name, attrs, text, lt), length))
        pos = match.end()
    if stack:
        raise bad_request(
            "can't parse entities: Can't find end tag corresponding to start tag "
            f"\"{stack[-1][0]}\""
        )
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def render(text: str, parse_mode: str | None, entities: Any = None) -> tuple[str, list[JSON]]:
    """The visible text and entities for a text the bot sends with `parse_mode`."""
    if parse_mode and parse_mode.upper() == "HTML":
        return parse_html(text)
    if isinstance(entities, list):
        return text, [e for e in entities if isinstance(e, dict)]
    return text, []


def check_text(visible: str, *, caption: bool = False) -> None:
    """Telegram's emptiness and length limits, counted on the visible text."""
    if caption:
        if len(visible) > MAX_CAPTION:
            raise bad_request("message caption is too long")
        return
    if not visible.strip():
        raise bad_request("message text is empty")
    if len(visible) > MAX_TEXT:
        raise bad_request("message is too long")


def parse_reply_markup(value: Any) -> tuple[JSON | None, JSON | None]:
    """Validate `reply_markup`; returns (inline keyboard markup or None, other markup or None)."""
    if value is None or value == "":
        return None, None
    if not isinstance(value, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in value:
        return None, value
    rows = value["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request("can't parse inline keyboard button: InlineKeyboardButton must be "
                          "an Object")
    clean_rows: list[list[JSON]] = []
    for row in rows:
        clean_row: list[JSON] = []
        for button in row:
            clean_row.append(_check_button(button))
        if clean_row:
            clean_rows.append(clean_row)
    if not clean_rows:
        return None, None
    return {"inline_keyboard": clean_rows}, None


_BUTTON_ACTIONS = frozenset({
    "callback_data", "url", "switch_inline_query", "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat", "login_url", "web_app", "callback_game", "pay",
    "copy_text",
})


def _check_button(button: Any) -> JSON:
    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
        raise bad_request("can't parse inline keyboard button: Field \"text\" must be of type "
                          "String")
    if not button["text"]:
        raise bad_request("BUTTON_TEXT_EMPTY")
    if _BUTTON_ACTIONS.isdisjoint(button):
        raise bad_request("can't parse inline keyboard button: Text buttons are unallowed in "
                          "the inline keyboard")
    data = button.get("callback_data")
    if data is not None:
        if not isinstance(data, str):
            data = str(data)
        size = len(data.encode("utf-8"))
        if size == 0 or size > MAX_CALLBACK_DATA:
            raise bad_request("BUTTON_DATA_INVALID")
    url = button.get("url")
    if url is not None and not (
        isinstance(url, str) and re.match(r"^(https?|tg)://\S+$", url)
    ):
        raise bad_request(f"inline keyboard button URL '{url}' is invalid: Wrong HTTP URL")
    return dict(button)


def user_entities(text: str) -> list[JSON]:
    """Entities Telegram attaches to text typed by a user: bot commands and @mentions."""
    entities: list[JSON] = []
    for regex, kind in ((_COMMAND_RE, "bot_command"), (_MENTION_RE, "mention")):
        for match in regex.finditer(text):
            entities.append({
                "type": kind,
                "offset": utf16_len(text[: match.start()]),
                "length": utf16_len(match.group(0)),
            })
    entities.sort(key=lambda e: e["offset"])
    return entities
