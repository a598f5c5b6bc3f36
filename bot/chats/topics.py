"""Forum topics: where in a group an update happened.

A forum supergroup runs one game per topic (the design's "one game per group chat" holds per
topic), so a group's game is found by its chat and topic, and every new message of that game
goes to its topic. A message of a topic carries the topic's ``message_thread_id``; in a group
without topics, and in a forum's General topic, there is none (topic 0). Telegram also sets
``message_thread_id`` on replies in a plain supergroup (``is_topic_message`` false): those
are not topics.
"""

from __future__ import annotations

from collections.abc import Mapping

from telegram import Message, Update


def topic_of(message: Message | None) -> int:
    """The forum topic of a message (0: none)."""
    if message is None or not message.is_topic_message or message.message_thread_id is None:
        return 0
    return message.message_thread_id


def topic_of_update(update: Update) -> int:
    """The forum topic an update happened in: its message's, or the pressed button's."""
    if update.callback_query is not None:
        shown = update.callback_query.message
        return topic_of(shown) if isinstance(shown, Message) else 0
    return topic_of(update.effective_message)


def stored_topic(body: Mapping[str, object]) -> int:
    """The topic of a message stored in the outbox (its body's ``topic``; 0: none, also for
    a row from before the topics)."""
    topic = body.get("topic")
    return topic if isinstance(topic, int) and topic > 0 else 0


def replied_person(message: Message) -> Message | None:
    """The message this one answers, if a person wrote it on purpose: in a topic, a message
    that replies to nothing replies to the topic's creation (Telegram's way), which is not an
    answer to its author."""
    replied = message.reply_to_message
    if replied is None or replied.forum_topic_created is not None:
        return None
    if topic_of(message) and replied.message_id == message.message_thread_id:
        return None
    return replied
