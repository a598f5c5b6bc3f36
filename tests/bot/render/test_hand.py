"""The private message: buttons for exactly the legal actions, short texts, valid rows."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.render import card_label, render_hand
from bot.render.keyboard import MAX_ROWS, confirms
from bot.telegram.callbacks import MAIN, ActionPress, Menu, MenuPress, decode
from engine import Game, Play, SeatAction, SeatView, view
from tests.bot.render.matches import names_for, samples
from tests.bot.render.telegram_html import assert_telegram_html

MAX_TEXT = 4096
MAX_ROW = 8


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator(strict=True)


def _reachable(
    seat_view: SeatView, names: tuple[str, ...], lang: str, tr: Translator, match_id: int,
    version: int,
) -> tuple[list[SeatAction], int]:
    """Every action behind a button of any part of the keyboard (each part drawn as the
    player would reach it, from the first part on), and the most rows of any part."""
    seen: set[Menu] = set()
    todo = [MAIN]
    actions: list[SeatAction] = []
    most = 0
    while todo:
        menu = todo.pop()
        if menu in seen:
            continue
        seen.add(menu)
        _, keyboard = render_hand(seat_view, names, lang, tr, match_id, version, menu)
        assert keyboard is not None
        rows = keyboard.inline_keyboard
        most = max(most, len(rows))
        assert all(0 < len(row) <= MAX_ROW for row in rows)
        for button in (b for row in rows for b in row):
            assert isinstance(button.callback_data, str) and button.text
            press = decode(button.callback_data, seat_view.rules.players)
            if isinstance(press, MenuPress):
                assert (press.match_id, press.version) == (match_id, version)
                todo.append(press.menu)
                continue
            assert isinstance(press, ActionPress)
            assert (press.match_id, press.version) == (match_id, version)
            if confirms(press.action) and menu.confirm is None:
                todo.append(Menu(confirm=press.action))
                continue
            if menu is MAIN or menu.confirm is None or menu.confirm == press.action:
                actions.append(press.action)
    return actions, most


def test_every_legal_action_is_reachable_within_six_rows(tr: Translator) -> None:
    """The property the issue asks for: random playouts of all three games, the real
    renderer, every part of every keyboard at most six rows, every legal action reachable
    exactly once (conceding and throwing only through their question)."""
    pressed = 0
    games: set[Game] = set()
    for index, sample in enumerate(samples()):
        state = sample.state
        names = names_for(state)
        lang = SUPPORTED_LANGUAGES[index % len(SUPPORTED_LANGUAGES)]
        for seat in range(state.rules.players):
            seat_view = view(state, seat)
            text, keyboard = render_hand(seat_view, names, lang, tr, 40 + index, index)
            assert 0 < len(text) <= MAX_TEXT
            if index % 5 == 0:
                assert_telegram_html(text)
            if not seat_view.legal:
                assert keyboard is None
                continue
            actions, most = _reachable(seat_view, names, lang, tr, 40 + index, index)
            assert most <= MAX_ROWS, (state.rules.game, seat_view.phase, most)
            assert len(set(actions)) == len(actions)
            assert set(actions) == set(seat_view.legal)
            games.add(state.rules.game)
            pressed += len(actions)
    assert pressed > 1000
    assert games == set(Game)


def test_concede_and_throw_are_asked_before_they_are_done(tr: Translator) -> None:
    asked = 0
    for sample in samples():
        state = sample.state
        for seat in range(state.rules.players):
            seat_view = view(state, seat)
            for action in (a for a in seat_view.legal if confirms(a)):
                _, first = render_hand(seat_view, names_for(state), "ru", tr, 1, 1)
                assert first is not None
                text, second = render_hand(
                    seat_view, names_for(state), "ru", tr, 1, 1, Menu(confirm=action)
                )
                assert second is not None
                labels = [b.text for row in second.inline_keyboard for b in row]
                assert len(labels) == 2 and labels[0].startswith("✔"), labels
                assert "?" in text.splitlines()[-1]
                asked += 1
    assert asked > 10


def test_the_hand_is_shown_sorted_by_alternating_suits_and_strength(tr: Translator) -> None:
    for sample in samples()[:200]:
        state = sample.state
        for seat in range(state.rules.players):
            seat_view = view(state, seat)
            if len(seat_view.hand) < 2:
                continue
            text, _ = render_hand(seat_view, names_for(state), "en", tr, 1, 1)
            labels = [card_label(c, "en", tr) for c in seat_view.hand]
            line = next(line for line in text.splitlines() if "Your cards" in line)
            positions = sorted(labels, key=line.index)
            suits = [label.rstrip("\ufe0f")[-1] for label in positions]
            assert suits == sorted(suits, key="♠♥♣♦".index)  # the colours alternate


def test_a_marriage_lead_has_its_own_button(tr: Translator) -> None:
    for sample in samples():
        state = sample.state
        turn = state.turn
        if turn is None:
            continue
        seat_view = view(state, turn)
        declared = [a for a in seat_view.legal if isinstance(a, Play) and a.declaration]
        if not declared:
            continue
        _, keyboard = render_hand(seat_view, names_for(state), "ru", tr, 1, 1)
        assert keyboard is not None
        labels = [b.text for row in keyboard.inline_keyboard for b in row]
        assert any("+" in label for label in labels)
        return
    pytest.fail("no declaration in the sample matches")


def test_huge_names_still_fit(tr: Translator) -> None:
    huge = tuple("&<" * 64 for _ in range(4))
    for sample in samples()[::25]:
        state = sample.state
        names = huge[: state.rules.players]
        for seat in range(state.rules.players):
            text, keyboard = render_hand(view(state, seat), names, "uk", tr, 1, 1)
            assert len(text) <= MAX_TEXT
            assert_telegram_html(text)
            if keyboard is not None:
                assert all(len(b.text) <= 40 for row in keyboard.inline_keyboard for b in row)


def test_red_suits_have_the_emoji_presentation(tr: Translator) -> None:
    """♥ and ♦ alone are drawn black on most phones; with U+FE0F they are red."""
    for lang in SUPPORTED_LANGUAGES:
        assert tr.text(lang, "suit-H") == "\u2665\ufe0f"
        assert tr.text(lang, "suit-D") == "\u2666\ufe0f"
        assert tr.text(lang, "suit-S") == "\u2660"
