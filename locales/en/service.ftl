# The bot as a service: its description in Telegram's profile.
# (bot/menu.py)

bot-description =
    A bot for playing Thousand, Thousand and One and Tumbochka with friends in a group.
    Add it to a group and send /new; everyone gets their cards and moves in a private chat.
    Here, in the private chat, /solo starts a match against computer players.
bot-short-description = Thousand, Thousand and One and Tumbochka in a group and against computers.
