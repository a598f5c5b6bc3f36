"""Localization: Fluent bundles over ``locales/{lang}/*.ftl`` and the choice of a language.

The ``locales`` folder is a package whose ``.ftl`` files are package data, read through
``importlib.resources``: the texts are found in a checkout, an editable install and a wheel
alike. Every ``.ftl`` file of a language folder goes into one bundle (``game.ftl`` of the renderer,
``bot.ftl`` of the application, ...). Plurals follow CLDR through Fluent's selectors
(``{ $n -> [one] очко [few] очка *[many] очков }``); integers are passed to Fluent as numbers
without digit grouping, so 1001 stays ``1001`` and plural categories still apply.

A message missing from the chosen language falls back to the default language. A message
missing everywhere is logged and its id is returned, so a user never sees a crash; a
``Translator(strict=True)`` raises ``KeyError`` instead (the tests use it), and also raises
``ValueError`` on formatting errors such as a missing variable.
"""

from __future__ import annotations

import logging
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Final

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import fluent_number
from fluent.syntax import ast

__all__ = [
    "DEFAULT_LANGUAGE",
    "LOCALES_DIR",
    "SUPPORTED_LANGUAGES",
    "Translator",
    "ftl_files",
    "pick_language",
]

LOCALES_DIR: Final[Traversable] = files("locales")
SUPPORTED_LANGUAGES: Final = ("ru", "en", "uk")
DEFAULT_LANGUAGE: Final = "ru"
LONG_TEXT: Final = 200
CACHE_SIZE: Final = 20_000
"""Formatted texts kept per Translator (keyed by language, id and arguments)."""

_log = logging.getLogger(__name__)


class Translator:
    """Formats messages of ``locales_dir`` in a language, falling back to ``default``."""

    def __init__(
        self, locales_dir: Traversable = LOCALES_DIR, default: str = DEFAULT_LANGUAGE, *,
        strict: bool = False,
    ) -> None:
        self._strict = strict
        self._bundles: dict[str, FluentBundle] = {}
        for folder in sorted((p for p in locales_dir.iterdir() if p.is_dir()), key=_name):
            paths = ftl_files(folder)
            if not paths:
                continue
            bundle = FluentBundle([folder.name], use_isolating=False)
            for path in paths:
                resource = FluentResource(path.read_text(encoding="utf-8"))
                self._check(path, resource)
                bundle.add_resource(resource)
            self._bundles[folder.name] = bundle
        self._default = default if default in self._bundles else DEFAULT_LANGUAGE
        self._cache: dict[tuple[object, ...], str] = {}

    def languages(self) -> tuple[str, ...]:
        """The supported languages that have at least one ``.ftl`` file, in preference order."""
        return tuple(lang for lang in SUPPORTED_LANGUAGES if lang in self._bundles)

    def has(self, lang: str, message_id: str) -> bool:
        """Whether ``message_id`` exists in ``lang`` or in the default language."""
        return any(b.has_message(message_id) for b in self._chain(lang))

    def text(self, lang: str, message_id: str, **args: str | int) -> str:
        """The message in ``lang`` (unknown language: the default) with ``args`` filled in."""
        key = (lang, message_id, *args.items())
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        for bundle in self._chain(lang):
            if not bundle.has_message(message_id):
                continue
            message = bundle.get_message(message_id)
            if message.value is None:
                continue
            fluent_args, long_texts = _fluent_args(args)
            result, errors = bundle.format_pattern(message.value, fluent_args)
            if errors:
                if self._strict:
                    raise ValueError(f"{lang}/{message_id}: {errors}")
                _log.warning("formatting %s/%s: %s", lang, message_id, errors)
            formatted = str(result)
            for marker, long_text in long_texts.items():
                formatted = formatted.replace(marker, long_text)
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            self._cache[key] = formatted
            return formatted
        if self._strict:
            raise KeyError(message_id)
        _log.warning("missing message %s (%s)", message_id, lang)
        return message_id

    def _check(self, path: Traversable, resource: ast.Resource) -> None:
        junk = [(e.content or "").strip() for e in resource.body if isinstance(e, ast.Junk)]
        if not junk:
            return
        if self._strict:
            raise ValueError(f"{path}: syntax errors in {junk}")
        _log.warning("%s: syntax errors, skipped: %s", path, junk)

    def _chain(self, lang: str) -> list[FluentBundle]:
        chain = []
        if lang in self._bundles:
            chain.append(self._bundles[lang])
        if lang != self._default and self._default in self._bundles:
            chain.append(self._bundles[self._default])
        return chain


def ftl_files(folder: Traversable) -> list[Traversable]:
    """The ``.ftl`` files of one language folder, by name."""
    return sorted((p for p in folder.iterdir() if p.name.endswith(".ftl")), key=_name)


def _name(entry: Traversable) -> str:
    return entry.name


def _fluent_args(args: dict[str, str | int]) -> tuple[dict[str, object], dict[str, str]]:
    """Fluent's arguments: integers as ungrouped numbers (plural categories still apply),
    and texts over ``LONG_TEXT`` characters swapped for markers put back after formatting
    (Fluent refuses placeables over 2500 characters)."""
    fluent_args: dict[str, object] = {}
    long_texts: dict[str, str] = {}
    for name, value in args.items():
        if isinstance(value, bool) or not isinstance(value, int | str):
            fluent_args[name] = value
        elif isinstance(value, int):
            fluent_args[name] = fluent_number(value, useGrouping=False)
        elif len(value) > LONG_TEXT:
            marker = f"\ue000{len(long_texts)}\ue001"
            long_texts[marker] = value
            fluent_args[name] = marker
        else:
            fluent_args[name] = value
    return fluent_args, long_texts


def pick_language(
    chosen: str | None, telegram_code: str | None, default: str = DEFAULT_LANGUAGE
) -> str:
    """The language to talk in: the /lang choice, else Telegram's ``language_code``
    (``en-US`` → ``en``), else ``default`` (itself ``ru`` when not supported)."""
    if chosen in SUPPORTED_LANGUAGES:
        return chosen
    if telegram_code:
        base = telegram_code.strip().lower().replace("_", "-").split("-")[0]
        if base in SUPPORTED_LANGUAGES:
            return base
    return default if default in SUPPORTED_LANGUAGES else DEFAULT_LANGUAGE
