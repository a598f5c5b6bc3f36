"""Locales: every language has every message of every other with the same variables; Fluent
plurals follow CLDR; the Translator falls back and picks languages as documented."""

from __future__ import annotations

import logging
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

from bot.i18n import (
    DEFAULT_LANGUAGE,
    LOCALES_DIR,
    SUPPORTED_LANGUAGES,
    Translator,
    ftl_files,
    pick_language,
)


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.names.add(node.id.name)


def _messages(path: Traversable) -> dict[str, frozenset[str]]:
    """Message id → the variables it uses; fails on any syntax error."""
    resource = FluentParser().parse(path.read_text(encoding="utf-8"))
    junk = [entry.content for entry in resource.body if isinstance(entry, ast.Junk)]
    assert not junk, f"{path}: syntax errors in {junk}"
    out: dict[str, frozenset[str]] = {}
    for entry in resource.body:
        if isinstance(entry, ast.Message | ast.Term):
            assert entry.id.name not in out, f"{path}: {entry.id.name} defined twice"
            visitor = _Variables()
            visitor.visit(entry)
            out[entry.id.name] = frozenset(visitor.names)
    return out


FILE_NAMES = sorted(
    {p.name for lang in SUPPORTED_LANGUAGES for p in ftl_files(LOCALES_DIR / lang)}
)


def test_game_texts_exist_in_every_language() -> None:
    assert "game.ftl" in FILE_NAMES
    for lang in SUPPORTED_LANGUAGES:
        assert (LOCALES_DIR / lang / "game.ftl").is_file()


@pytest.mark.parametrize("file_name", FILE_NAMES)
def test_every_language_has_the_same_messages_and_variables(file_name: str) -> None:
    by_lang = {}
    for lang in SUPPORTED_LANGUAGES:
        path = LOCALES_DIR / lang / file_name
        assert path.is_file(), f"{lang}/{file_name} is missing"
        by_lang[lang] = _messages(path)
    reference = by_lang[DEFAULT_LANGUAGE]
    for lang, messages in by_lang.items():
        assert sorted(set(reference) - set(messages)) == [], f"missing in {lang}/{file_name}"
        assert sorted(set(messages) - set(reference)) == [], f"extra in {lang}/{file_name}"
        different = {m for m in reference if reference[m] != messages[m]}
        assert different == set(), f"variables differ in {lang}/{file_name}"


def test_no_message_is_defined_in_two_files_of_a_language() -> None:
    for lang in SUPPORTED_LANGUAGES:
        seen: dict[str, str] = {}
        for path in ftl_files(LOCALES_DIR / lang):
            for message_id in _messages(path):
                where = f"{lang}: {message_id} in {seen.get(message_id)} and {path.name}"
                assert message_id not in seen, where
                seen[message_id] = path.name


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator(strict=True)


@pytest.mark.parametrize(
    ("lang", "n", "expected"),
    [
        ("ru", 1, "1 взятка, 1 очко"), ("ru", 2, "2 взятки, 2 очка"),
        ("ru", 5, "5 взяток, 5 очков"), ("ru", 11, "11 взяток, 11 очков"),
        ("ru", 21, "21 взятка, 21 очко"), ("ru", 24, "24 взятки, 24 очка"),
        ("ru", 0, "0 взяток, 0 очков"), ("ru", 120, "120 взяток, 120 очков"),
        ("uk", 1, "1 взятка, 1 очко"), ("uk", 3, "3 взятки, 3 очки"),
        ("uk", 5, "5 взяток, 5 очок"), ("uk", 22, "22 взятки, 22 очки"),
        ("en", 1, "1 trick, 1 point"), ("en", 2, "2 tricks, 2 points"),
        ("en", 0, "0 tricks, 0 points"),
    ],
)
def test_plurals_follow_cldr(tr: Translator, lang: str, n: int, expected: str) -> None:
    assert tr.text(lang, "tag-taken", tricks=n, points=n) == expected


@pytest.mark.parametrize(("lang", "n", "word"), [("ru", 1, "карта"), ("ru", 3, "карты"),
                                                 ("ru", 10, "карт"), ("uk", 4, "карти")])
def test_card_counts(tr: Translator, lang: str, n: int, word: str) -> None:
    assert tr.text(lang, "tag-cards", n=n) == f"{n} {word}"


def test_numbers_are_not_grouped_and_texts_are_not_isolated(tr: Translator) -> None:
    text = tr.text("ru", "state-bid", name="Анна", value=1001)
    assert text == "Анна 1001"
    assert "\u2068" not in text and "\u2069" not in text


def test_unknown_language_falls_back_to_russian(tr: Translator) -> None:
    assert tr.text("de", "button-pass") == tr.text("ru", "button-pass") == "Пас"
    assert tr.text("en", "button-pass") == "Pass"


def test_missing_message_is_the_id_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    lenient = Translator()
    with caplog.at_level(logging.WARNING):
        assert lenient.text("en", "no-such-message") == "no-such-message"
    assert "no-such-message" in caplog.text
    with pytest.raises(KeyError):
        Translator(strict=True).text("en", "no-such-message")


def test_languages(tr: Translator) -> None:
    assert tr.languages() == SUPPORTED_LANGUAGES == ("ru", "en", "uk")
    assert tr.has("uk", "button-pass") and not tr.has("uk", "no-such-message")


def test_a_missing_language_falls_back_per_message(tmp_path: Path) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "en").mkdir()
    (tmp_path / "ru" / "a.ftl").write_text("hello = Привет\nonly-ru = Только\n", "utf-8")
    (tmp_path / "ru" / "b.ftl").write_text("bye = Пока, { $name }\n", "utf-8")
    (tmp_path / "en" / "a.ftl").write_text("hello = Hello\n", "utf-8")
    tr = Translator(tmp_path)
    assert tr.languages() == ("ru", "en")
    assert tr.text("en", "hello") == "Hello"
    assert tr.text("en", "only-ru") == "Только"
    assert tr.text("uk", "bye", name="Оля") == "Пока, Оля"


@pytest.mark.parametrize(
    ("chosen", "code", "default", "expected"),
    [
        ("en", "uk", "ru", "en"),
        (None, "uk", "ru", "uk"),
        (None, "en-US", "ru", "en"),
        (None, "en_GB", "ru", "en"),
        (None, "UK", "ru", "uk"),
        (None, "de", "ru", "ru"),
        (None, None, "en", "en"),
        ("xx", "fr", "uk", "uk"),
        (None, "", "zz", "ru"),
        ("", "ru-RU", "en", "ru"),
    ],
)
def test_pick_language(chosen: str | None, code: str | None, default: str, expected: str) -> None:
    assert pick_language(chosen, code, default) == expected


def test_syntax_errors_are_refused_in_strict_mode(tmp_path: Path) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "ru" / "a.ftl").write_text("good = Да\nbad = { $x\n", "utf-8")
    assert Translator(tmp_path).text("ru", "good") == "Да"
    with pytest.raises(ValueError):
        Translator(tmp_path, strict=True)


def test_long_arguments_pass_through_whole(tr: Translator) -> None:
    bids = " · ".join(f"Игрок{i} {100 + 5 * i}" for i in range(400))
    assert len(bids) > 5000
    assert tr.text("ru", "state-bids", bids=bids) == f"Торговля: {bids}"
