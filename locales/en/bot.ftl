# The application's texts: lobby, commands, help, press answers and errors.
# Markup is Telegram HTML; names and group titles are already escaped.

## Lobby

lobby-title = 🃏 <b>{ $game }</b>: gathering players
lobby-players = Players ({ $taken } of { $total }):
lobby-seat = { $number }. { $name }
lobby-seat-free = { $number }. —
lobby-rules-default = Rules: standard.
lobby-rules = Rules: { $options }.
lobby-open-hint = { $names }: please open a private chat with the bot (the button below), or the bot cannot send you your cards.
lobby-footer = Creator: { $creator }. Only the creator changes the settings (at any time) and starts the game (once every seat is taken).
lobby-footer-admins = Opened by a group administrator. Any administrator of the group changes the settings (at any time) and starts the game (once every seat is taken).
lobby-join = Take a seat
lobby-leave = Leave
lobby-settings = ⚙️ Settings
lobby-start = ▶️ Start
lobby-invite = ✉️ Invite
lobby-back = « Back
lobby-settings-title = ⚙️ <b>Settings: { $game }</b>
lobby-settings-hint = Choose the game and the number of players; press a rule to change its value. Only { $creator } can change the settings.
lobby-settings-hint-admins = Choose the game and the number of players; press a rule to change its value. Any administrator of the group can change the settings.
lobby-player-count = { $count ->
    [one] { $count } player
   *[other] { $count } players
}
lobby-cancelled = The game was called off.
lobby-busy-lobby = Players are already gathering in this chat: join them, or call it off with /stop.
lobby-busy-match = A match is already running in this chat. Start a new one when it ends (or after /stop).
lobby-already-seated = You already have a seat.
lobby-full = Every seat is taken.
lobby-closed = This lobby is closed.
lobby-not-seated = You have no seat at this table.
lobby-creator-only = Only the creator of the game can do that.
lobby-not-full = Every seat must be taken first.
lobby-seats-filled = Too many players are seated for that: someone has to leave first.

## Button presses

press-outdated = This keyboard is out of date.
press-confirm = Press once more within a few seconds to confirm.
press-not-seated = You are not playing in this match.

## The match

bot-table-open = 🃏 Open the bot to get your cards
bot-match-broken = ⚠️ This match could not be restored after a restart and has ended without a result. Start a new one: /new

## Commands

bot-command-new = gather players: /new, /new 1001, /new tumbochka
bot-command-join = take a seat
bot-command-leave = leave the table
bot-command-invite = a link that invites to the game
bot-command-stop = stop the game (creator or admin)
bot-command-lang = language: /lang ru | en | uk
bot-command-rules = rules: /rules, /rules 1001, /rules tumbochka
bot-command-help = how to play with the bot
bot-command-stats = statistics: yours, or (as a reply) another player's
bot-command-top = this chat's ratings: /top, /top 1001, /top tumbochka humans
bot-command-history = this chat's last matches
bot-command-score = the running match's score sheet (a picture)
bot-command-export = your matches as a CSV file (in the private chat)

bot-new-private = Games are played in groups: add me to a group chat and send /new there (or /new 1001, /new tumbochka).
bot-new-unknown-game = I do not know the game “{ $game }”. Try: thousand (1000), 1001, tumbochka.
bot-group-only = This command works in a group chat with a game.
bot-no-lobby = Nobody is gathering players here. Start with /new
bot-no-lobby-running = A match is already running here, so nobody can join it. Gather the next one after it: /new
bot-leave-running = The match is running, so the seats are fixed. The creator or an admin can stop it: /stop
bot-invite = A link to take a seat: { $link }
bot-stop-nothing = There is nothing to stop here.
bot-stop-not-allowed = Only the game's creator or a chat admin can stop it.
bot-lang-usage = Choose a language: /lang { $languages }
bot-lang-set = Done, I speak English now.
bot-start-hello = Hi! I run «Тысяча», «Тысяча одно» and «Тумбочка» in group chats. Add me to a group and send /new there; I will send your cards here.
bot-start-playing = Hi! Your cards are on their way.
bot-start-joined = You took a seat in “{ $group }”. Your cards will come here when the game starts.
bot-help =
    <b>How to play</b>
    1. Add the bot to a group and send /new (or /new 1001, /new tumbochka).
    2. Players press “Take a seat” or open the link from /invite.
    3. The creator picks the rules under “Settings” and presses “Start”.
    4. Everyone gets their cards and move buttons in a private chat with the bot; the table is in the group.
    5. Empty seats can go to computer players (the 🤖 button); /solo in a private chat plays against computers.
    Commands: /join, /leave, /invite, /stop, /kick, /back, /notify, /solo, /lang, /rules, /help.
    Records: /score (the score sheet), /stats, /top, /history, /export (in the private chat).
bot-error = Something went wrong. The match is saved; please try again.

## Computer players, turn timers, /kick, /back, /solo
computer-name = 🤖 Computer { $number } ({ computer-level })
computer-stands-in = { $name } 🤖
computer-level = { $level ->
    [easy] easy
    [hard] hard
   *[other] { $level }
}
lobby-computer = 🤖 Computer { $number } ({ computer-level })
lobby-add-computer = 🤖 Add computer player · { computer-level }
lobby-remove-computer = 🤖 Remove computer
lobby-no-computer = There is no computer player at the table.
lobby-timer = ⏱ Time per move: { $seconds } s
lobby-timer-off = ⏱ Time per move: unlimited
press-replaced = A computer is playing for you now. Send /back to return.
hand-replaced = 🤖 The computer is playing for you: three moves in a row went by without you, or you were replaced with /kick. Send /back to return to the game.
turn-timed-out = ⏱ { $name }: time ran out — the computer moved.
turn-replaced = 🤖 { $name }: the computer plays this seat until the end of the match (/back to return).
bot-kick-nothing = No match is running here.
bot-kick-who = Whom should the computer replace? Reply /kick to the player's message or give the seat: /kick 2.
bot-kick-not-player = Only the game's creator, or its players by vote, can hand a seat to the computer.
bot-kick-not-human = A computer already plays that seat.
bot-kick-done = 🤖 { $name }: the computer plays this seat from now on (/back to return).
bot-kick-vote = { $voter } proposes to hand { $name }'s seat to the computer: { $votes } of { $needed } votes. To agree, send /kick too.
bot-back-nothing = No computer is playing for you now.
bot-back-done = ▶ { $name } is back in the game.
bot-solo-group = /solo works in your private chat with me: play against computer players there.
bot-solo-busy = A match is already running here. Finish it or end it with /stop.
bot-solo-usage = Like this: /solo [game] [easy | hard], for example /solo 1001 easy.
bot-command-solo = play against computer players in private: /solo, /solo 1001 easy
bot-command-kick = hand an absent player's seat to the computer
bot-command-back = take back your seat from the computer
bot-command-notify = whether a new message tells you it is your turn: /notify on | off
bot-notify-on = 🔔 When your turn comes and you have not pressed anything for a while, your cards come as a new message (with a notification). Switch off: /notify off.
bot-notify-off = 🔕 Your cards will no longer come as a new message — they are only updated in place. Switch on again: /notify on.
bot-notify-usage = Like this: /notify on or /notify off.
