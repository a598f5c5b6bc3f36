"""The group's table never shows a hidden card; results, events and refusals have texts in
every language."""

from __future__ import annotations

import pytest

from bot.i18n import SUPPORTED_LANGUAGES, Translator
from bot.render import (
    card_label,
    render_deal_result,
    render_event_line,
    render_match_result,
    render_refusal,
    render_table,
)
from engine import Phase, Reason, view
from engine.cards import cards_of
from engine.events import DealScored, MatchOver, RedealAsked
from tests.bot.render.matches import names_for, samples
from tests.bot.render.telegram_html import assert_telegram_html

MAX_TEXT = 4096


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator(strict=True)


def test_the_table_never_shows_a_hidden_card(tr: Translator) -> None:
    checked = 0
    for index, sample in enumerate(samples()):
        state = sample.state
        deal = state.deal
        public = view(state, None)
        assert public.hand == () and public.legal == ()
        hidden: set[int] = set()
        if deal is not None:
            for hand in deal.hands:
                hidden |= set(cards_of(hand))
            if state.phase is Phase.BIDDING or public.talon is None:
                hidden |= set(cards_of(deal.talon)) - {c for _, c in public.trick} - {
                    c for _, plays in public.tricks for _, c in plays
                }
        hidden -= set(public.talon or ())
        seconds = index % 90 if index % 3 else None
        for lang in SUPPORTED_LANGUAGES:
            text = render_table(public, names_for(state), lang, tr, turn_seconds_left=seconds)
            assert 0 < len(text) <= MAX_TEXT
            if index % 5 == 0:
                assert_telegram_html(text)
            for c in hidden:
                assert card_label(c, lang, tr) not in text, (lang, c, text)
        checked += len(hidden)
    assert checked > 10000


def test_the_table_shows_the_talon_only_when_the_view_has_it(tr: Translator) -> None:
    shown = hidden = 0
    for sample in samples():
        public = view(sample.state, None)
        text = render_table(public, names_for(sample.state), "ru", tr)
        if public.talon is None or public.phase is Phase.MATCH_OVER:
            assert "Прикуп" not in text
            hidden += 1
        else:
            assert "Прикуп" in text
            shown += 1
    assert shown and hidden


def test_the_table_shows_turn_timer_note_and_winner(tr: Translator) -> None:
    for sample in samples():
        public = view(sample.state, None)
        names = names_for(sample.state)
        text = render_table(public, names, "en", tr, turn_seconds_left=42, note="<i>x</i>")
        assert "Just now: <i>x</i>" in text
        if public.winner is not None:
            assert "Winner" in text
        elif public.turn is not None:
            assert "42 s" in text
        assert "Bob &lt;b&gt;&amp;" in text or "Bob" not in names
        assert "<b>&" not in text


def test_results_and_event_lines_in_every_language(tr: Translator) -> None:
    deal_ends = match_ends = redeals = 0
    for sample in samples():
        state, events = sample
        names = names_for(state)
        public = view(state, None)
        for lang in SUPPORTED_LANGUAGES:
            for event in events:
                line = render_event_line(event, names, lang, tr, game=state.rules.game)
                assert line and "\n" not in line
            result = render_deal_result(events, public, names, lang, tr)
            ended = any(isinstance(e, DealScored | RedealAsked) for e in events)
            assert (result is not None) == ended
            if result is not None:
                assert len(result) <= MAX_TEXT
                assert_telegram_html(result)
                deal_ends += 1
                redeals += any(isinstance(e, RedealAsked) for e in events)
            final = render_match_result(events, public, names, lang, tr)
            assert (final is not None) == any(isinstance(e, MatchOver) for e in events)
            if final is not None:
                assert_telegram_html(final)
                assert names[state.winner or 0].split()[0] in final
                match_ends += 1
    assert deal_ends > 50 and match_ends > 3 and redeals > 0


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("reason", list(Reason))
def test_every_reason_has_a_refusal(tr: Translator, lang: str, reason: Reason) -> None:
    text = render_refusal(reason, lang, tr)
    assert text and text != f"refusal-{reason.value}" and len(text) <= 200
    assert "<" not in text


def test_a_long_note_keeps_its_latest_moves(tr: Translator) -> None:
    sample = samples()[50]
    public = view(sample.state, None)
    names = names_for(sample.state)
    one = render_table(public, names, "ru", tr, note="Анна: 120")
    assert "Только что: Анна: 120" in one
    several = render_table(public, names, "ru", tr, note="Анна: 120\nВера: пас")
    assert "Только что:\nАнна: 120\nВера: пас" in several
    moves = "\n".join(f"ход {i}" for i in range(2000))
    text = render_table(public, names, "ru", tr, turn_seconds_left=5, note=moves)
    assert len(text) <= MAX_TEXT
    assert "ход 1999" in text and "ход 0\n" not in text
    assert text.endswith("5 с")


def test_huge_names_still_fit_the_table(tr: Translator) -> None:
    huge = tuple("&<" * 64 for _ in range(4))
    for sample in samples()[::25]:
        names = huge[: sample.state.rules.players]
        text = render_table(view(sample.state, None), names, "ru", tr, note="x")
        assert len(text) <= MAX_TEXT
        assert_telegram_html(text)


def test_a_seat_view_is_refused(tr: Translator) -> None:
    state = samples()[10].state
    with pytest.raises(ValueError):
        render_table(view(state, 0), names_for(state), "ru", tr)
