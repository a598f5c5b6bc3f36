# The bot as a service: its description in Telegram's profile (bot/telegram/menu.py), and the
# answers to presses and links used where they do not belong (bot/handlers/).

bot-description =
    A bot for playing Thousand, Thousand and One and Tumbochka with friends in a group.
    Add it to a group and send /new; everyone gets their cards and moves in a private chat.
    Here, in the private chat, /solo starts a match against computer players.
bot-short-description = Thousand, Thousand and One and Tumbochka in a group and against computers.
press-wrong-message = This button does not belong here: press it in the message that shows it.
press-page-stale = This list is out of date: send /top or /history again.
start-join-not-member = Only members of the group «{ $group }» can sit at this table.
start-join-unknown = There is no such lobby, or it is closed.
group-anonymous-cannot-sit = An anonymous administrator cannot sit at the table: send /join as yourself or press «Take a seat».
bot-removed-match = The bot was removed from the group «{ $group }», so the match was stopped.
