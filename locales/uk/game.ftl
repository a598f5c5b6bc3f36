# Тексти ігрового столу: карти, стан роздачі, кнопки, події, підсумки, відмови, правила
# та конвенції столу. Розмітка — HTML Telegram; імена гравців уже екрановані.

## Карти

rank-6 = 6
rank-7 = 7
rank-8 = 8
rank-9 = 9
rank-J = В
rank-Q = Д
rank-K = К
rank-T = 10
rank-A = Т
suit-S = ♠
suit-C = ♣
suit-D = ♦️
suit-H = ♥️

## Ігри та фази

game-thousand = Тисяча
game-thousand-one = Тисяча один
game-tumbochka = Тумбочка
phase-bidding = торгівля
phase-giving = віддача карт
phase-contract = замовлення
phase-play = розіграш
phase-deal-over = роздачу завершено
phase-redealt = перездача
phase-match-over = партію завершено
phase-starting = партія починається
phase-stopped = партію зупинено
state-stopped = ⏹ Партію зупинено · /stop: { $name }
stopped-title = ⏹ <b>{ $game }: партію зупинено</b> · /stop: { $name }
stopped-scores = Рахунок на момент зупинки (переможця немає):
stopped-line = { $place }. { $name } — { $score }

## Стан роздачі (стіл і особисте повідомлення)

state-header = <b>{ $game }</b> · роздача { $number } · { $phase }
state-header-start = <b>{ $game }</b> · { $phase }
state-seat = { $marker }<b>{ $name }</b> — { $score }
tag-dealer = здає
tag-sits-out = не грає
tag-declarer = грає
tag-perch-thousand = на бочці
tag-perch-thousand-one = на бочці
tag-perch-tumbochka = на тумбочці
tag-bagel = 🥯 золотий бублик
tag-bolts =
    { $n ->
        [one] { $n } палка
        [few] { $n } палки
       *[many] { $n } палок
    }
tag-cards =
    { $n ->
        [one] { $n } карта
        [few] { $n } карти
       *[many] { $n } карт
    }
tag-tricks =
    { $tricks ->
        [one] { $tricks } взятка
        [few] { $tricks } взятки
       *[many] { $tricks } взяток
    }
tag-taken =
    { $tricks ->
        [one] { $tricks } взятка
        [few] { $tricks } взятки
       *[many] { $tricks } взяток
    }, { $points ->
        [one] { $points } очко
        [few] { $points } очки
       *[many] { $points } очок
    }
state-bids = Торгівля: { $bids }
state-bid = { $name } { $value }
state-bid-pass = { $name } пас
state-declarer-bid = Грає { $name }, ставка { $value }
state-declarer-contract = Грає { $name }, замовлення { $value }
state-declarer-without-bid = Грає { $name } без торгівлі, замовлення { $value }
state-talon = Прикуп: { $cards }
state-trump = Козир: { $suit }
state-no-trump = Козиря немає
state-declarations = Оголошено: { $list }
declaration-marriage = { $name }: мар'яж { $suit } { $value }
declaration-aces = { $name }: тузовий мар'яж { $value }
declaration-troyan = { $name }: троян { $suit }
declaration-trilyazh = { $name }: трильяж { $suit }
state-trilyazh = Трильяж { $suit } ({ $name }): взятка { $stage } з { $total }
state-trick = На столі: { $plays }
state-last-trick = Остання взятка — { $name }: { $plays }
state-play = { $name } { $card }
state-perch-thousand = На бочці: { $name } · використано спроб: { $used } з { $total }
state-perch-thousand-one = На бочці: { $name } · використано спроб: { $used } з { $total }
state-perch-tumbochka = На тумбочці: { $name } · використано роздач: { $used } з { $total }
state-golden-round = ✨ Золотий кон: усі очки подвоюються
state-turn = ▶ Хід: { $name }
state-turn-timer = ▶ Хід: { $name } · ⏱ { $seconds } с
state-winner = 🏆 Переможець: { $name }
table-note = Щойно:
table-notes = Щойно:

## Особисте повідомлення гравця

hand-cards = <b>Ваші карти:</b> { $cards }
hand-no-cards = Карт на руках немає
hand-sitting-out = Ви здаєте й у цій роздачі не граєте.
hand-gift = { $card } → { $name }
hand-given = Ви віддали: { $list }
hand-gift-from = { $card } ({ $name })
hand-received = Вам віддали: { $list }
hand-prompt-bid = Ваша ставка:
hand-prompt-give = Віддайте по одній карті кожному супернику — спершу виберіть карту:
hand-prompt-give-to = Кому віддати { $card }?
hand-confirm-concede = Розписати гру? Натисніть «Так, розписати» — або «Назад».
hand-confirm-throw = Скинути карти? Натисніть «Так, скинути» — або «Назад».
hand-prompt-contract = Назвіть замовлення — або одразу ходіть, тоді замовлення дорівнює ставці:
hand-prompt-lead = Ваш хід:
hand-prompt-follow = Ваш хід — відповідайте:
hand-prompt-early = До першого ходу можна:
hand-waiting = Чекаємо: { $name }
hand-timer = ⏱ На хід залишилося { $seconds } с
hand-timed-out = ⏱ Час на хід вийшов — за вас походив комп'ютер. Наступний хід знову ваш.
recap-line = <b>Підсумки роздачі { $number }:</b> { $outcome }
recap-you = у вас { $change }, разом <b>{ $score }</b>

## Кнопки (звичайний текст)

button-pass = Пас
button-give = { $card } → { $name }
button-concede = Розписати
button-throw = Скинути карти
button-redeal = Перездача
button-marriage = { $card } + мар'яж { $value }
button-aces = { $card } + тузи { $value }
button-troyan = { $card } + троян
button-trilyazh = { $card } + трильяж
button-back = ◂ Назад
button-larger = Більше ▸
button-smaller = ◂ Менше
button-confirm-concede = ✔ Так, розписати
button-confirm-throw = ✔ Так, скинути

## Події (рядок «останній хід» і підсумки роздачі)

event-deal-started = Роздача { $number }, здає { $name }
event-bid = { $name }: { $value }
event-bid-forced = { $name }: { $value } (обов'язкова ставка)
event-pass = { $name }: пас
event-pass-automatic = { $name }: пас (торгівля в мінусі заборонена)
event-declarer = { $name } виграє торгівлю: { $value }
event-declarer-without-bid = { $name } бере прикуп без торгівлі
event-talon-shown = Прикуп: { $cards }
event-talon-taken = { $name } бере прикуп
event-card-given = { $name }: карта → { $to }
event-contract = { $name } замовляє { $value }
event-redeal = { $name } просить перездачу: { $ground }
redeal-ground-four-nines = чотири дев'ятки
redeal-ground-under-14-points = менше 14 очок на руках
event-conceded = { $name } розписує гру ({ $value })
event-thrown = { $name } скидає карти ({ $value })
event-thrown-without-contract = { $name } скидає карти без замовлення: іншим по 50
event-card-played = { $name }: { $card }
event-declared = 📣 { $declaration }
event-trump = Козир тепер { $suit }
event-trick = { $name } бере взятку (+{ $points })
event-trilyazh-completed = { $name }: трильяж { $suit } зіграно, +3 до очок роздачі
event-trilyazh-broken = { $name }: трильяж { $suit } зірвано
event-deal-scored = Роздачу завершено
event-contract-made = { $name }: замовлення { $value } зіграно ({ $change })
event-contract-failed = { $name }: замовлення { $value } не зіграно ({ $change })
event-bolt = { $name } отримує палку (усього { $bolts })
event-bolt-penalty = { $name }: третя палка — { $penalty }
event-mounted =
    { $game ->
        [tumbochka] { $name } сідає на тумбочку
       *[other] { $name } сідає на бочку
    }
event-fell-attempts =
    { $game ->
        [tumbochka] { $name } злазить з тумбочки: три роздачі без перемоги. Рахунок { $score }
       *[other] { $name } злітає з бочки: три спроби не вдалися. Рахунок { $score }
    }
event-fell-raised-and-failed =
    { $game ->
        [tumbochka] { $name } злазить з тумбочки. Рахунок { $score }
       *[other] { $name } злітає з бочки: підвищене замовлення не зіграно. Рахунок { $score }
    }
event-fell-knocked-off =
    { $game ->
        [tumbochka] { $name } злазить з тумбочки: її зайняв інший. Рахунок { $score }
       *[other] { $name } злітає з бочки: на неї заліз інший. Рахунок { $score }
    }
event-fell-climbed-together =
    { $game ->
        [tumbochka] { $name } злазить з тумбочки: на неї сідали одразу кілька. Рахунок { $score }
       *[other] { $name } злітає з бочки: на неї лізли одразу кілька. Рахунок { $score }
    }
event-golden-bagel = 🥯 { $name } отримує золотий бублик
event-dump-truck = 🚛 Самоскид! { $name }: рахунок обнуляється
event-match-over = 🏆 Партію завершено, перемагає { $name }

## Підсумки роздачі та партії

result-title = <b>Підсумки роздачі { $number }</b>
result-redeal-void = Роздача не зараховується, здає наступний.
result-made =
    ✅ { $name } грає { $contract } і виконує замовлення: { $points ->
        [one] { $points } очко
        [few] { $points } очки
       *[many] { $points } очок
    }
result-failed =
    ❌ { $name } грає { $contract } і недобирає: { $points ->
        [one] { $points } очко
        [few] { $points } очки
       *[many] { $points } очок
    }
result-golden-round = ✨ Золотий кон: усі зміни рахунку подвоєні
result-seat-points =
    { $name }: { $points ->
        [one] { $points } очко
        [few] { $points } очки
       *[many] { $points } очок
    } → { $change }, разом <b>{ $score }</b>
result-seat = { $name }: { $change }, разом <b>{ $score }</b>
match-title = 🏆 <b>{ $game }: партію завершено!</b> Перемагає <b>{ $name }</b>
match-golden-bagel = 🥯 { $name }: на тумбочці із золотим бубликом, і більше ніхто не сів туди в цій роздачі — це одразу перемога.
match-scores = Підсумковий рахунок:
match-line = { $place }. { $name } — { $score } (розрахунок { $settlement })
match-settlement = Кожен, хто програв, платить переможцю різницю в очках.

## Відмови (спливні підказки, звичайний текст)

refusal-match-over = Партію вже завершено
refusal-wrong-phase = Зараз цього зробити не можна
refusal-not-your-turn = Зараз не ваш хід
refusal-not-playing = Ви не граєте в цій роздачі
refusal-no-such-seat = Немає такого місця за столом
refusal-invalid-deal = Неправильна роздача
refusal-wrong-dealer = Зараз здає інший гравець
refusal-bid-too-low = Ставка має бути вищою за поточну
refusal-bid-not-multiple = Ставка має бути кратною 5
refusal-bid-over-cap = Без мар'яжу більше 120 не замовити
refusal-bid-over-maximum = Це більше за максимальну ставку
refusal-below-barrel = На бочці не можна замовляти менше замовлення бочки
refusal-opening-bid-exact = Перша ставка — рівно 4
refusal-must-open = Пасувати не можна: відкрийте торгівлю ставкою 4
refusal-below-tumbochka-minimum = З тумбочки замовляють не менше 7
refusal-score-too-low-to-bid = Проти тумбочки 7 і більше можна замовити лише з додатним рахунком
refusal-card-not-in-hand = Цієї карти у вас немає
refusal-invalid-recipient = Цьому гравцеві карту віддати не можна
refusal-already-given = Цьому гравцеві карту вже віддано
refusal-contract-below-bid = Замовлення не може бути меншим за ставку
refusal-contract-not-multiple = Замовлення має бути кратним 5
refusal-contract-over-cap = Без мар'яжу більше 120 не замовити
refusal-contract-over-maximum = Це більше за максимальне замовлення
refusal-not-declarer = Це може лише той, хто грає
refusal-option-off = За цим столом це правило вимкнено
refusal-no-grounds-for-redeal = Перездача — лише з чотирма дев'ятками або менше ніж 14 очками
refusal-too-late = Запізно: перший хід уже зроблено
refusal-not-in-this-game = У цій грі так не можна
refusal-must-follow-suit = Треба ходити в масть
refusal-must-trump = Масті немає — треба бити козирем
refusal-not-on-lead = Оголошувати можна лише на своєму заході
refusal-marriage-needs-trick = Мар'яж оголошують, узявши хоча б одну взятку
refusal-no-marriage = У вас немає цього мар'яжу
refusal-no-four-aces = Для тузового мар'яжу потрібні всі чотири тузи
refusal-no-troyan = У вас немає трояна в цій масті
refusal-troyan-leads-six = З трояном заходять із шістки
refusal-no-trilyazh = У вас немає трильяжу в цій масті
refusal-trilyazh-leads-jack = З трильяжем заходять із валета
refusal-must-continue-trilyazh = Продовжуйте трильяж: спершу дама, потім король

## Правила (/rules)

rules-title = <b>{ $game }: правила</b>
rules-conventions = Конвенції столу (тузовий мар'яж, крок торгівлі, перездача, бочка та інші) змінюються в налаштуваннях лобі до початку партії.
rules-thousand-1 = <b>Карти.</b> Троє гравців, 24 карти: 9, В, Д, К, 10, Т (за старшинством). Очки карт: Т — 11, 10 — 10, К — 4, Д — 3, В — 2, 9 — 0, разом 120. Мар'яж (К і Д однієї масті): ♠ 40, ♣ 60, ♦️ 80, ♥️ 100.
rules-thousand-2 = <b>Торгівля.</b> По 7 карт і 3 у прикуп. Гравець після того, хто здає, сидить на сотні: у нього обов'язкова ставка 100. Інші по колу підвищують ставку з кроком 5 (до 300) або пасують; пас остаточний. Без мар'яжу на руках більше 120 замовити не можна.
rules-thousand-3 = <b>Прикуп і замовлення.</b> Прикуп відкривають, переможець торгівлі забирає його, віддає по карті кожному супернику й називає замовлення — не менше ставки. З чотирма дев'ятками або менше ніж 14 очками можна попросити перездачу. Той, хто грає, може розписати гру: собі мінус замовлення, суперникам по половині замовлення.
rules-thousand-4 = <b>Розіграш.</b> Першим ходить той, хто грає. Треба ходити в масть, без масті — козирем, інакше будь-якою картою. Той, хто взяв хоча б одну взятку, може, заходячи з короля чи дами мар'яжу, оголосити його: отримує його вартість, і масть стає козирною.
rules-thousand-5 = <b>Рахунок.</b> Хто зіграв замовлення, отримує +замовлення, хто не зіграв — мінус замовлення. Суперники записують свої очки, округлені до 5. Хто не взяв жодної взятки, отримує палку; кожна третя палка — мінус 120. Рівно 555 або −555 — самоскид: рахунок обнуляється.
rules-thousand-6 = <b>Бочка.</b> Хто набрав 880, сідає на бочку: за три роздачі йому треба зіграти замовлення від 121 — тоді він набирає 1001 і виграє. Не зміг — злітає з бочки (мінус 120). Хто заліз на бочку, збиває того, хто там сидів (мінус 120). Партія закінчується й тоді, коли в когось −1000: перемагає лідер.
rules-thousand-one-1 = <b>Карти.</b> Колода, очки карт і мар'яжі — як у Тисячі. Грають троє або четверо; коли четверо, той, хто здає, не грає, але отримує мар'яж, якщо той лежить у прикупі.
rules-thousand-one-2 = <b>Торгівля.</b> Починає гравець після того, хто здає: ставка від 40, крок 5, більше 120 — лише з мар'яжем. Якщо двоє спасували, третій бере прикуп без торгівлі й грає 40, називає своє замовлення або скидає карти — тоді іншим по 50.
rules-thousand-one-3 = <b>Прикуп.</b> Той, хто грає, показує прикуп, забирає його, віддає по карті суперникам і називає замовлення, не менше ставки. Якщо замовлення не зіграти, можна скинути карти: собі мінус замовлення, іншим нічого.
rules-thousand-one-4 = <b>Розіграш.</b> Ходити в масть, без масті — козирем. Мар'яж оголошують на будь-якому своєму заході, навіть першому; кожен новий мар'яж змінює козир.
rules-thousand-one-5 = <b>Рахунок.</b> Як у Тисячі, але без палок, бочки й самоскида. Перемагає перший, хто набрав 1001.
rules-tumbochka-1 = <b>Карти.</b> Троє гравців, 24 карти: 6, 7, 8, В, Д, К (за старшинством). Карти не мають очок: кожна взятка — 1 очко.
rules-tumbochka-2 = <b>Торгівля.</b> По 7 карт і 3 у прикуп. Гравець після того, хто здає, мусить замовити рівно 4; далі по колу підвищують на 1 (до 14) або пасують. Той, хто грає, бере прикуп, не показуючи, віддає по карті суперникам і може підвищити замовлення.
rules-tumbochka-3 = <b>Троян і трильяж.</b> Козиря немає, доки хтось не оголосить трояна: на своєму заході показати 8, 7 і 6 однієї масті, назвати її козирем і зайти з шістки. Трильяж — К, Д, В однієї масті: заходять із валета, потім із дами й короля; хто взяв усі три взятки, додає 3 до очок роздачі. Розігрувачу вони допомагають зіграти замовлення, але записує він усе одно рівно замовлення.
rules-tumbochka-4 = <b>Рахунок.</b> Хто зіграв замовлення, отримує +замовлення, хто не зіграв — мінус замовлення; суперники записують свої взятки.
rules-tumbochka-5 = <b>Тумбочка.</b> Хто набрав 20, сідає на тумбочку: щоб виграти, йому треба за три роздачі зіграти замовлення від 7. Не вийшло або на тумбочку сів інший — злазить: 10 очок, а з другого разу 0 і золотий бублик. Із золотим бубликом сісти на тумбочку самому — одразу перемога.

## Конвенції столу (налаштування лобі)

option-on = увімк.
option-off = вимк.
option-ace_marriage = Тузовий мар'яж (200)
option-bid_step = Крок торгівлі
option-bid_cap_without_marriage = Без мар'яжу не більше 120
option-minus_bidding = Торгівля в мінусі
option-hidden_talon_on_hundred = Закритий прикуп на сотні
option-redeal = Перездача
option-concede = Розписати гру
option-concede_penalty = Штраф за розпис
option-rounding = Округлення очок
option-bolts = Палки
option-golden_round = Золотий кон
option-dump_truck = Самоскид (555)
option-target = Гра до
option-barrel = Бочка
option-barrel_bidding = Торгівля на бочці
option-bid_step-value = { $value }
option-minus_bidding-value =
    { $value ->
        [off] дозволена
       *[other] заборонена при рахунку нижче { $value }
    }
option-rounding-value =
    { $value ->
        [none] без округлення
       *[other] до { $value }
    }
option-target-value = { $value }
option-barrel-value =
    { $value ->
        [off] без бочки
       *[other] з { $value }
    }
