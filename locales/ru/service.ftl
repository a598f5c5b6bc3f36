# The bot as a service: its description in Telegram's profile (bot/telegram/menu.py), and the
# answers to presses and links used where they do not belong (bot/handlers/).

bot-description =
    Бот для игры в «Тысячу», «Тысячу одно» и «Тумбочку» с друзьями в группе.
    Добавьте его в группу и отправьте /new; карты и ходы приходят каждому в личный чат.
    Здесь же, в личном чате, /solo — партия против компьютеров.
bot-short-description = «Тысяча», «Тысяча одно» и «Тумбочка» в группе и против компьютеров.
press-wrong-message = Эта кнопка не отсюда: нажмите её в сообщении, где она показана.
press-page-stale = Этот список устарел: отправьте /top или /history ещё раз.
start-join-not-member = Сесть за этот стол могут только участники группы «{ $group }».
start-join-unknown = Такого набора игроков нет или он уже закрыт.
group-anonymous-cannot-sit = Анонимный администратор не может сесть за стол: напишите /join от своего имени или нажмите «Сесть за стол».
bot-removed-match = Бота удалили из группы «{ $group }», и партия остановлена.
