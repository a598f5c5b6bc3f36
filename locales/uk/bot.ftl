# Тексти застосунку: лобі, команди, довідка, відповіді на натискання й помилки.
# Розмітка — HTML Telegram; імена й назви груп уже екрановані.

## Лобі

lobby-title = 🃏 <b>{ $game }</b>: набір гравців
lobby-players = Гравці ({ $taken } з { $total }):
lobby-seat = { $number }. { $name }
lobby-seat-free = { $number }. —
lobby-rules-default = Правила: звичайні.
lobby-rules = Правила: { $options }.
lobby-open-hint = { $names }: відкрийте особистий чат із ботом (кнопка нижче), інакше бот не зможе надіслати вам карти.
lobby-footer = Творець: { $creator }. Лише творець змінює налаштування (будь-коли) і починає гру (коли всі місця зайняті).
lobby-footer-admins = Гру відкрив адміністратор групи. Налаштування (будь-коли) і початок гри (коли всі місця зайняті) — за будь-яким адміністратором групи.
lobby-join = Сісти за стіл
lobby-leave = Встати
lobby-settings = ⚙️ Налаштування
lobby-start = ▶️ Почати
lobby-invite = ✉️ Запросити
lobby-back = « Назад
lobby-settings-title = ⚙️ <b>Налаштування: { $game }</b>
lobby-settings-hint = Виберіть гру й кількість гравців; натискання на правило змінює його значення. Змінювати налаштування може лише { $creator }.
lobby-settings-hint-admins = Виберіть гру й кількість гравців; натискання на правило змінює його значення. Змінювати налаштування може будь-який адміністратор групи.
lobby-player-count = { $count ->
    [one] { $count } гравець
    [few] { $count } гравці
   *[many] { $count } гравців
}
lobby-cancelled = Набір гравців скасовано.
lobby-busy-lobby = У цьому чаті вже йде набір гравців: приєднуйтеся до нього або скасуйте його командою /stop.
lobby-busy-match = У цьому чаті вже йде партія. Нову можна почати, коли вона закінчиться (або після /stop).
lobby-already-seated = Ви вже за столом.
lobby-full = Усі місця зайняті.
lobby-closed = Цей набір гравців уже закритий.
lobby-not-seated = Ви не сидите за цим столом.
lobby-creator-only = Це може зробити лише творець гри.
lobby-not-full = Спершу треба зайняти всі місця.
lobby-seats-filled = За столом забагато гравців для цього вибору: хтось має встати.

## Натискання кнопок

press-outdated = Ця клавіатура застаріла.
press-confirm = Натисніть ще раз протягом кількох секунд, щоб підтвердити.
press-not-seated = Ви не граєте в цій партії.

## Партія

bot-table-open = 🃏 Відкрити бота, щоб отримати карти
bot-match-broken = ⚠️ Цю партію не вдалося відновити після перезапуску, її завершено без результату. Почніть нову: /new

## Команди

bot-command-new = почати набір гравців: /new, /new 1001, /new tumbochka
bot-command-join = сісти за стіл
bot-command-leave = встати з-за столу
bot-command-invite = посилання-запрошення до гри
bot-command-stop = зупинити гру (творець або адмін)
bot-command-lang = мова: /lang ru | en | uk
bot-command-rules = правила: /rules, /rules 1001, /rules tumbochka
bot-command-help = як грати з ботом
bot-command-stats = статистика: ваша або (відповіддю на повідомлення) іншого гравця
bot-command-top = рейтинг чату: /top, /top 1001, /top тумбочка люди
bot-command-history = останні партії чату
bot-command-score = пулька поточної партії (картинка)
bot-command-export = ваші партії файлом CSV (в особистому чаті)

bot-new-private = Грають у групі: додайте мене до групового чату й надішліть там /new (або /new 1001, /new tumbochka).
bot-new-unknown-game = Не знаю гру «{ $game }». Можна: thousand (1000), 1001, tumbochka.
bot-group-only = Ця команда працює в груповому чаті з грою.
bot-no-lobby = Зараз тут немає набору гравців. Почніть його: /new
bot-no-lobby-running = Тут уже йде партія: до неї не приєднатися. Новий набір — після неї: /new
bot-leave-running = Партія вже йде, встати з-за столу не можна. Зупинити її може творець або адмін: /stop
bot-invite = Посилання, щоб сісти за стіл: { $link }
bot-stop-nothing = Тут нічого зупиняти.
bot-stop-not-allowed = Зупинити гру може лише її творець або адміністратор чату.
bot-lang-usage = Виберіть мову: /lang { $languages }
bot-lang-set = Готово, тепер я говорю українською.
bot-start-hello = Привіт! Я веду «Тисячу», «Тисячу одну» й «Тумбочку» в групових чатах. Додайте мене до групи й надішліть там /new; карти я надсилатиму сюди.
bot-start-playing = Привіт! Зараз надішлю ваші карти.
bot-start-joined = Ви сіли за стіл у «{ $group }». Карти прийдуть сюди, коли гра почнеться.
bot-help =
    <b>Як грати</b>
    1. Додайте бота до групи й надішліть /new (або /new 1001, /new tumbochka).
    2. Гравці натискають «Сісти за стіл» або відкривають посилання з /invite.
    3. Творець вибирає правила в «Налаштуваннях» і натискає «Почати».
    4. Карти й кнопки ходів приходять кожному в особистий чат із ботом, стіл видно в групі.
    5. Порожні місця можна віддати комп'ютеру (кнопка 🤖); /solo в особистому чаті — гра проти комп'ютерів.
    Команди: /join, /leave, /invite, /stop, /kick, /back, /notify, /solo, /lang, /rules, /help.
    Підсумки: /score (пулька), /stats, /top, /history, /export (в особистому чаті).
bot-error = Щось пішло не так. Партію збережено, спробуйте ще раз.

## Computer players, turn timers, /kick, /back, /solo
computer-name = 🤖 Комп'ютер { $number } ({ computer-level })
computer-stands-in = { $name } 🤖
computer-level = { $level ->
    [easy] легкий
    [hard] сильний
   *[other] { $level }
}
lobby-computer = 🤖 Комп'ютер { $number } ({ computer-level })
lobby-add-computer = 🤖 Додати комп'ютер · { computer-level }
lobby-remove-computer = 🤖 Прибрати комп'ютер
lobby-no-computer = За столом немає комп'ютерів.
lobby-timer = ⏱ Час на хід: { $seconds } с
lobby-timer-off = ⏱ Час на хід: без обмеження
press-replaced = Зараз за вас грає комп'ютер. Щоб повернутися, надішліть /back.
hand-replaced = 🤖 За вас грає комп'ютер: три ходи поспіль минули без вас або вас замінили через /kick. Надішліть /back, щоб повернутися до гри.
turn-timed-out = ⏱ { $name }: час на хід вийшов — походив комп'ютер.
turn-replaced = 🤖 { $name }: до кінця партії за цього гравця грає комп'ютер (/back — повернутися).
bot-kick-nothing = Тут не йде партія.
bot-kick-who = Кого замінити? Відповідайте командою /kick на повідомлення гравця або вкажіть місце: /kick 2.
bot-kick-not-player = Замінити гравця комп'ютером можуть творець гри або її учасники голосуванням.
bot-kick-not-human = За це місце вже грає комп'ютер.
bot-kick-done = 🤖 { $name }: далі за цього гравця грає комп'ютер (/back — повернутися).
bot-kick-vote = { $voter } пропонує віддати комп'ютеру місце гравця { $name }: { $votes } з { $needed } голосів. Згодні — теж /kick.
bot-back-nothing = Зараз за вас не грає комп'ютер.
bot-back-done = ▶ { $name } знову в грі.
bot-solo-group = /solo працює в особистому чаті зі мною: там ви зіграєте проти комп'ютерів.
bot-solo-busy = Тут уже йде партія. Завершіть її або зупиніть командою /stop.
bot-solo-usage = Так: /solo [гра] [easy | hard], наприклад /solo 1001 easy.
bot-command-solo = гра проти комп'ютерів в особистому чаті: /solo, /solo 1001 easy
bot-command-kick = віддати місце відсутнього гравця комп'ютеру
bot-command-back = повернути собі місце, за яке грає комп'ютер
bot-command-notify = чи повідомляти новим повідомленням, що ваш хід: /notify on | off
bot-notify-on = 🔔 Коли настане ваш хід, а ви якийсь час нічого не натискали, карти прийдуть новим повідомленням (зі сповіщенням). Вимкнути: /notify off.
bot-notify-off = 🔕 Карти більше не приходитимуть новим повідомленням — лише оновлюватимуться на місці. Увімкнути знову: /notify on.
bot-notify-usage = Ось так: /notify on або /notify off.
