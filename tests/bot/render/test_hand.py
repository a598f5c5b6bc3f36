"""The private message: buttons for exactly the legal actions, short texts, valid rows."""

from __future__ import annotations

import pytest

from bot.callbacks import ActionPress, decode
from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.render import card_label, render_hand
from engine import Play, view
from tests.bot.render.matches import names_for, samples
from tests.bot.render.telegram_html import assert_telegram_html

MAX_TEXT = 4096
MAX_BUTTONS = 100
MAX_ROW = 8


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator(strict=True)


def test_buttons_are_exactly_the_legal_actions(tr: Translator) -> None:
    pressed = 0
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
            assert keyboard is not None
            buttons = [b for row in keyboard.inline_keyboard for b in row]
            assert len(buttons) == len(seat_view.legal) <= MAX_BUTTONS
            assert all(0 < len(row) <= MAX_ROW for row in keyboard.inline_keyboard)
            decoded = []
            for button in buttons:
                assert isinstance(button.callback_data, str)
                press = decode(button.callback_data, state.rules.players)
                assert isinstance(press, ActionPress)
                assert (press.match_id, press.version) == (40 + index, index)
                decoded.append(press.action)
                assert button.text
            assert len(set(decoded)) == len(decoded)
            assert set(decoded) == set(seat_view.legal)
            pressed += len(buttons)
    assert pressed > 1000


def test_the_hand_is_shown_sorted_by_suit_and_strength(tr: Translator) -> None:
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
            suits = [label[-1] for label in positions]
            assert suits == sorted(suits, key="♠♣♦♥".index)


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
