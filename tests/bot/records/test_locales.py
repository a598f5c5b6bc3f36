"""records.ftl: the same messages with the same variables in ru, en and uk; every message the
code asks for exists; every message formats (plurals included) in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast
from fluent.syntax.visitor import Visitor

from bot.i18n import LOCALES_DIR, SUPPORTED_LANGUAGES, Translator, ftl_files
from bot.records.export import COLUMNS
from bot.records.summary import DealOutcome
from storage.models import GAMES

CODE = Path(__file__).resolve().parents[3] / "bot" / "records"


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.names.add(node.id.name)


def messages(lang: str) -> dict[str, frozenset[str]]:
    path = LOCALES_DIR / lang / "records.ftl"
    resource = FluentParser().parse(path.read_text(encoding="utf-8"))
    assert not [e for e in resource.body if isinstance(e, ast.Junk)], f"{path}: syntax errors"
    found: dict[str, frozenset[str]] = {}
    for entry in resource.body:
        if isinstance(entry, ast.Message):
            assert entry.id.name not in found, f"{lang}: {entry.id.name} twice"
            visitor = _Variables()
            visitor.visit(entry)
            found[entry.id.name] = frozenset(visitor.names)
    return found


def asked_for() -> set[str]:
    """Message ids the code names literally, plus the ones it builds from a value."""
    literal = {
        m for path in CODE.glob("*.py")
        for m in re.findall(r"\"(rec-[a-z0-9-]+)\"", path.read_text(encoding="utf-8"))
    }
    built = {
        *(f"rec-game-{g}" for g in GAMES),
        *(f"rec-sheet-legend-{g}" for g in GAMES),
        *(f"rec-sheet-{o.value}" for o in DealOutcome if o is not DealOutcome.REDEAL),
        "rec-sheet-mark-perch-thousand", "rec-sheet-mark-perch-tumbochka",
        *(f"rec-csv-{c}" for c in COLUMNS),
        "rec-csv-status-finished", "rec-csv-status-abandoned",
    }
    return literal | built


def test_every_language_has_the_same_messages_and_variables() -> None:
    reference = messages("ru")
    for lang in SUPPORTED_LANGUAGES:
        assert messages(lang) == reference, lang


def test_every_message_the_code_asks_for_exists() -> None:
    assert asked_for() - set(messages("ru")) == set()


def test_no_records_message_is_defined_elsewhere() -> None:
    for lang in SUPPORTED_LANGUAGES:
        for path in ftl_files(LOCALES_DIR / lang):
            if path.name != "records.ftl":
                text = path.read_text(encoding="utf-8")
                assert not re.search(r"^rec-", text, re.MULTILINE), path


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("n", [0, 1, 2, 5, 11, 21, 22, 25, 101])
def test_every_message_formats(lang: str, n: int) -> None:
    tr = Translator(strict=True)
    for message_id, variables in messages(lang).items():
        text = tr.text(lang, message_id, **dict.fromkeys(variables, n))
        assert text and "{" not in text, (lang, message_id)


def test_russian_plurals() -> None:
    tr = Translator(strict=True)
    forms = [tr.text("ru", "rec-sheet-subtitle-running", deals=n) for n in (1, 2, 5, 21, 111)]
    assert [f.split(" · ")[1] for f in forms] == [
        "1 раздача", "2 раздачи", "5 раздач", "21 раздача", "111 раздач",
    ]
