"""A check that a text is Telegram HTML as the renderers write it: only <b> and <i>, balanced,
and every other ``<``, ``>`` and ``&`` escaped."""

from __future__ import annotations

from html.parser import HTMLParser

ALLOWED = {"b", "i"}


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.open: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED or attrs:
            self.errors.append(f"<{tag}>")
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.errors.append(f"</{tag}>")

    def handle_entityref(self, name: str) -> None:
        if name not in ("lt", "gt", "amp", "quot"):
            self.errors.append(f"&{name};")


def assert_telegram_html(text: str) -> None:
    checker = _Checker()
    checker.feed(text)
    checker.close()
    assert not checker.errors and not checker.open, (checker.errors, checker.open, text)
    stripped = text
    for tag in ALLOWED:
        stripped = stripped.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    assert "<" not in stripped and ">" not in stripped.replace("→", ""), text
