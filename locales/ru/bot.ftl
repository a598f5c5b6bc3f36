# Тексты приложения: лобби, команды, справка, ответы на нажатия и ошибки.
# Разметка — HTML Telegram; имена и названия групп уже экранированы.

## Лобби

lobby-title = 🃏 <b>{ $game }</b>: набор игроков
lobby-players = Игроки ({ $taken } из { $total }):
lobby-seat = { $number }. { $name }
lobby-seat-free = { $number }. —
lobby-rules-default = Правила: обычные.
lobby-rules = Правила: { $options }.
lobby-open-hint = { $names }: откройте личный чат с ботом (кнопка ниже), иначе бот не сможет прислать вам карты.
lobby-footer = Создатель: { $creator }. Только создатель меняет настройки (в любой момент) и начинает игру (когда все места заняты).
lobby-footer-admins = Игру открыл администратор группы. Настройки (в любой момент) и начало игры (когда все места заняты) — за любым администратором группы.
lobby-join = Сесть за стол
lobby-leave = Встать
lobby-settings = ⚙️ Настройки
lobby-start = ▶️ Начать
lobby-invite = ✉️ Пригласить
lobby-back = « Назад
lobby-settings-title = ⚙️ <b>Настройки: { $game }</b>
lobby-settings-hint = Выберите игру и число игроков; нажатие на правило меняет его значение. Менять настройки может только { $creator }.
lobby-settings-hint-admins = Выберите игру и число игроков; нажатие на правило меняет его значение. Менять настройки может любой администратор группы.
lobby-player-count = { $count ->
    [one] { $count } игрок
    [few] { $count } игрока
   *[many] { $count } игроков
}
lobby-cancelled = Набор игроков отменён.
lobby-busy-lobby = В этом чате уже идёт набор игроков: присоединяйтесь к нему или отмените его командой /stop.
lobby-busy-match = В этом чате уже идёт партия. Новую можно начать, когда она закончится (или после /stop).
lobby-already-seated = Вы уже за столом.
lobby-full = Все места заняты.
lobby-closed = Этот набор игроков уже закрыт.
lobby-not-seated = Вы не сидите за этим столом.
lobby-creator-only = Это может сделать только создатель игры.
lobby-not-full = Сначала нужно занять все места.
lobby-seats-filled = За столом слишком много игроков для этого выбора: пусть кто-нибудь встанет.

## Нажатия на кнопки

press-outdated = Эта клавиатура устарела.
press-confirm = Нажмите ещё раз в течение нескольких секунд, чтобы подтвердить.
press-not-seated = Вы не играете в этой партии.

## Партия

bot-table-open = 🃏 Открыть бота, чтобы получить карты
bot-match-broken = ⚠️ Эту партию не удалось восстановить после перезапуска, она завершена без результата. Начните новую: /new

## Команды

bot-command-new = начать набор игроков: /new, /new 1001, /new tumbochka
bot-command-join = сесть за стол
bot-command-leave = встать из-за стола
bot-command-invite = ссылка-приглашение в игру
bot-command-stop = остановить игру (создатель или админ)
bot-command-lang = язык: /lang ru | en | uk
bot-command-rules = правила: /rules, /rules 1001, /rules tumbochka
bot-command-help = как играть с ботом
bot-command-stats = статистика: ваша или (ответом на сообщение) другого игрока
bot-command-top = рейтинг чата: /top, /top 1001, /top тумбочка люди
bot-command-history = последние партии чата
bot-command-score = пулька идущей партии (картинка)
bot-command-export = ваши партии файлом CSV (в личном чате)

bot-new-private = Играют в группе: добавьте меня в групповой чат и отправьте там /new (или /new 1001, /new tumbochka).
bot-new-unknown-game = Не знаю игру «{ $game }». Можно: thousand (1000), 1001, tumbochka.
bot-group-only = Эта команда работает в групповом чате с игрой.
bot-no-lobby = Сейчас здесь нет набора игроков. Начните его: /new
bot-no-lobby-running = Здесь уже идёт партия: к ней не присоединиться. Новый набор — после неё: /new
bot-leave-running = Партия уже идёт, встать из-за стола нельзя. Остановить её может создатель или админ: /stop
bot-invite = Ссылка, чтобы сесть за стол: { $link }
bot-stop-nothing = Здесь нечего останавливать.
bot-stop-not-allowed = Остановить игру может только её создатель или администратор чата.
bot-lang-usage = Выберите язык: /lang { $languages }
bot-lang-set = Готово, теперь я говорю по-русски.
bot-start-hello = Привет! Я веду «Тысячу», «Тысячу одно» и «Тумбочку» в групповых чатах. Добавьте меня в группу и отправьте там /new; карты я буду присылать сюда.
bot-start-playing = Привет! Сейчас пришлю ваши карты.
bot-start-joined = Вы сели за стол в «{ $group }». Карты придут сюда, когда игра начнётся.
bot-help =
    <b>Как играть</b>
    1. Добавьте бота в группу и отправьте /new (или /new 1001, /new tumbochka).
    2. Игроки нажимают «Сесть за стол» или открывают ссылку из /invite.
    3. Создатель выбирает правила в «Настройках» и нажимает «Начать».
    4. Карты и кнопки ходов приходят каждому в личный чат с ботом, стол виден в группе.
    5. Пустые места можно отдать компьютеру (кнопка 🤖); /solo в личном чате — игра против компьютеров.
    Команды: /join, /leave, /invite, /stop, /kick, /back, /notify, /solo, /lang, /rules, /help.
    Итоги: /score (пулька), /stats, /top, /history, /export (в личном чате).
bot-error = Что-то пошло не так. Партия сохранена, попробуйте ещё раз.

## Computer players, turn timers, /kick, /back, /solo
computer-name = 🤖 Компьютер { $number } ({ computer-level })
computer-stands-in = { $name } 🤖
computer-level = { $level ->
    [easy] лёгкий
    [hard] сильный
   *[other] { $level }
}
lobby-computer = 🤖 Компьютер { $number } ({ computer-level })
lobby-add-computer = 🤖 Добавить компьютер · { computer-level }
lobby-remove-computer = 🤖 Убрать компьютер
lobby-no-computer = Компьютеров за столом нет.
lobby-timer = ⏱ Время на ход: { $seconds } с
lobby-timer-off = ⏱ Время на ход: без ограничения
press-replaced = Сейчас за вас играет компьютер. Чтобы вернуться, отправьте /back.
hand-replaced = 🤖 За вас играет компьютер: три хода подряд прошли без вас или вас сменили по /kick. Отправьте /back, чтобы вернуться в игру.
turn-timed-out = ⏱ { $name }: время на ход вышло — сходил компьютер.
turn-replaced = 🤖 { $name }: до конца партии за этого игрока играет компьютер (/back — вернуться).
bot-kick-nothing = Здесь не идёт партия.
bot-kick-who = Кого заменить? Ответьте командой /kick на сообщение игрока или укажите место: /kick 2.
bot-kick-not-player = Заменить игрока компьютером могут создатель игры или её участники голосованием.
bot-kick-not-human = За это место уже играет компьютер.
bot-kick-done = 🤖 { $name }: дальше за этого игрока играет компьютер (/back — вернуться).
bot-kick-vote = { $voter } предлагает отдать компьютеру место игрока { $name }: { $votes } из { $needed } голосов. Согласные — тоже /kick.
bot-back-nothing = Сейчас за вас не играет компьютер.
bot-back-done = ▶ { $name } снова в игре.
bot-solo-group = /solo работает в личном чате со мной: там вы сыграете против компьютеров.
bot-solo-busy = Здесь уже идёт партия. Закончите её или остановите командой /stop.
bot-solo-usage = Так: /solo [игра] [easy | hard], например /solo 1001 easy.
bot-command-solo = игра против компьютеров в личном чате: /solo, /solo 1001 easy
bot-command-kick = отдать место отсутствующего игрока компьютеру
bot-command-back = вернуть себе место, за которое играет компьютер
bot-command-notify = сообщать ли новым сообщением, что ваш ход: /notify on | off
bot-notify-on = 🔔 Когда подойдёт ваш ход, а вы какое-то время ничего не нажимали, карты придут новым сообщением (с уведомлением). Выключить: /notify off.
bot-notify-off = 🔕 Карты больше не будут приходить новым сообщением — только обновляться на месте. Включить снова: /notify on.
bot-notify-usage = Так: /notify on или /notify off.
