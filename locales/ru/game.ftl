# Тексты игрового стола: карты, состояние раздачи, кнопки, события, итоги, отказы, правила
# и конвенции стола. Разметка — HTML Telegram; имена игроков уже экранированы.

## Карты

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

## Игры и фазы

game-thousand = Тысяча
game-thousand-one = Тысяча одно
game-tumbochka = Тумбочка
phase-bidding = торговля
phase-giving = отдача карт
phase-contract = заказ
phase-play = розыгрыш
phase-deal-over = раздача окончена
phase-redealt = пересдача
phase-match-over = партия окончена
phase-starting = партия начинается
phase-stopped = партия остановлена
state-stopped = ⏹ Партия остановлена · /stop: { $name }
stopped-title = ⏹ <b>{ $game }: партия остановлена</b> · /stop: { $name }
stopped-scores = Счёт на момент остановки (победителя нет):
stopped-line = { $place }. { $name } — { $score }

## Состояние раздачи (стол и личное сообщение)

state-header = <b>{ $game }</b> · раздача { $number } · { $phase }
state-header-start = <b>{ $game }</b> · { $phase }
state-seat = { $marker }<b>{ $name }</b> — { $score }
tag-dealer = сдаёт
tag-sits-out = не играет
tag-declarer = играет
tag-perch-thousand = на бочке
tag-perch-thousand-one = на бочке
tag-perch-tumbochka = на тумбочке
tag-bagel = 🥯 золотая баранка
tag-bolts =
    { $n ->
        [one] { $n } палка
        [few] { $n } палки
       *[many] { $n } палок
    }
tag-cards =
    { $n ->
        [one] { $n } карта
        [few] { $n } карты
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
        [few] { $points } очка
       *[many] { $points } очков
    }
state-bids = Торговля: { $bids }
state-bid = { $name } { $value }
state-bid-pass = { $name } пас
state-declarer-bid = Играет { $name }, ставка { $value }
state-declarer-contract = Играет { $name }, заказ { $value }
state-declarer-without-bid = Играет { $name } без торговли, заказ { $value }
state-talon = Прикуп: { $cards }
state-trump = Козырь: { $suit }
state-no-trump = Козыря нет
state-declarations = Объявлено: { $list }
declaration-marriage = { $name }: марьяж { $suit } { $value }
declaration-aces = { $name }: тузовый марьяж { $value }
declaration-troyan = { $name }: троян { $suit }
declaration-trilyazh = { $name }: трильяж { $suit }
state-trilyazh = Трильяж { $suit } ({ $name }): взятка { $stage } из { $total }
state-trick = На столе: { $plays }
state-last-trick = Последняя взятка — { $name }: { $plays }
state-play = { $name } { $card }
state-perch-thousand = На бочке: { $name } · попыток использовано: { $used } из { $total }
state-perch-thousand-one = На бочке: { $name } · попыток использовано: { $used } из { $total }
state-perch-tumbochka = На тумбочке: { $name } · раздач использовано: { $used } из { $total }
state-golden-round = ✨ Золотой кон: все очки удваиваются
state-turn = ▶ Ход: { $name }
state-turn-timer = ▶ Ход: { $name } · ⏱ { $seconds } с
state-winner = 🏆 Победитель: { $name }
table-note = Только что:
table-notes = Только что:

## Личное сообщение игрока

hand-cards = <b>Ваши карты:</b> { $cards }
hand-no-cards = Карт на руках нет
hand-sitting-out = Вы сдаёте и в этой раздаче не играете.
hand-gift = { $card } → { $name }
hand-given = Вы отдали: { $list }
hand-gift-from = { $card } ({ $name })
hand-received = Вам отдали: { $list }
hand-prompt-bid = Ваша ставка:
hand-prompt-give = Отдайте по одной карте каждому сопернику — сначала выберите карту:
hand-prompt-give-to = Кому отдать { $card }?
hand-confirm-concede = Расписать игру? Нажмите «Да, расписать» — или «Назад».
hand-confirm-throw = Сбросить карты? Нажмите «Да, сбросить» — или «Назад».
hand-prompt-contract = Назовите заказ — или сразу ходите, тогда заказ равен ставке:
hand-prompt-lead = Ваш ход:
hand-prompt-follow = Ваш ход — отвечайте:
hand-prompt-early = До первого хода можно:
hand-waiting = Ждём: { $name }
hand-timer = ⏱ На ход осталось { $seconds } с
hand-timed-out = ⏱ Время на ход вышло — за вас сходил компьютер. Следующий ход снова ваш.
recap-line = <b>Итоги раздачи { $number }:</b> { $outcome }
recap-you = у вас { $change }, итого <b>{ $score }</b>

## Кнопки (обычный текст)

button-pass = Пас
button-give = { $card } → { $name }
button-concede = Расписать
button-throw = Сбросить карты
button-redeal = Пересдача
button-marriage = { $card } + марьяж { $value }
button-aces = { $card } + тузы { $value }
button-troyan = { $card } + троян
button-trilyazh = { $card } + трильяж
button-back = ◂ Назад
button-larger = Больше ▸
button-smaller = ◂ Меньше
button-confirm-concede = ✔ Да, расписать
button-confirm-throw = ✔ Да, сбросить

## События (строка «последний ход» и итоги раздачи)

event-deal-started = Раздача { $number }, сдаёт { $name }
event-bid = { $name }: { $value }
event-bid-forced = { $name }: { $value } (обязательная ставка)
event-pass = { $name }: пас
event-pass-automatic = { $name }: пас (торговля в минусе запрещена)
event-declarer = { $name } выигрывает торговлю: { $value }
event-declarer-without-bid = { $name } берёт прикуп без торговли
event-talon-shown = Прикуп: { $cards }
event-talon-taken = { $name } берёт прикуп
event-card-given = { $name }: карта → { $to }
event-contract = { $name } заказывает { $value }
event-redeal = { $name } просит пересдачу: { $ground }
redeal-ground-four-nines = четыре девятки
redeal-ground-under-14-points = меньше 14 очков на руках
event-conceded = { $name } расписывает игру ({ $value })
event-thrown = { $name } сбрасывает карты ({ $value })
event-thrown-without-contract = { $name } сбрасывает карты без заказа: остальным по 50
event-card-played = { $name }: { $card }
event-declared = 📣 { $declaration }
event-trump = Козырь теперь { $suit }
event-trick = { $name } берёт взятку (+{ $points })
event-trilyazh-completed = { $name }: трильяж { $suit } сыгран, +3 к очкам раздачи
event-trilyazh-broken = { $name }: трильяж { $suit } сорван
event-deal-scored = Раздача окончена
event-contract-made = { $name }: заказ { $value } сыгран ({ $change })
event-contract-failed = { $name }: заказ { $value } не сыгран ({ $change })
event-bolt = { $name } получает палку (всего { $bolts })
event-bolt-penalty = { $name }: третья палка — { $penalty }
event-mounted =
    { $game ->
        [tumbochka] { $name } садится на тумбочку
       *[other] { $name } садится на бочку
    }
event-fell-attempts =
    { $game ->
        [tumbochka] { $name } слезает с тумбочки: три раздачи без победы. Счёт { $score }
       *[other] { $name } слетает с бочки: три попытки не удались. Счёт { $score }
    }
event-fell-raised-and-failed =
    { $game ->
        [tumbochka] { $name } слезает с тумбочки. Счёт { $score }
       *[other] { $name } слетает с бочки: повышенный заказ не сыгран. Счёт { $score }
    }
event-fell-knocked-off =
    { $game ->
        [tumbochka] { $name } слезает с тумбочки: её занял другой. Счёт { $score }
       *[other] { $name } слетает с бочки: на неё забрался другой. Счёт { $score }
    }
event-fell-climbed-together =
    { $game ->
        [tumbochka] { $name } слезает с тумбочки: сесть на неё пытались сразу несколько. Счёт { $score }
       *[other] { $name } слетает с бочки: на неё лезли сразу несколько. Счёт { $score }
    }
event-golden-bagel = 🥯 { $name } получает золотую баранку
event-dump-truck = 🚛 Самосвал! { $name }: счёт обнуляется
event-match-over = 🏆 Партия окончена, побеждает { $name }

## Итоги раздачи и партии

result-title = <b>Итоги раздачи { $number }</b>
result-redeal-void = Раздача не считается, сдаёт следующий.
result-made =
    ✅ { $name } играет { $contract } и делает заказ: { $points ->
        [one] { $points } очко
        [few] { $points } очка
       *[many] { $points } очков
    }
result-failed =
    ❌ { $name } играет { $contract } и не добирает: { $points ->
        [one] { $points } очко
        [few] { $points } очка
       *[many] { $points } очков
    }
result-golden-round = ✨ Золотой кон: все изменения счёта удвоены
result-seat-points =
    { $name }: { $points ->
        [one] { $points } очко
        [few] { $points } очка
       *[many] { $points } очков
    } → { $change }, итого <b>{ $score }</b>
result-seat = { $name }: { $change }, итого <b>{ $score }</b>
match-title = 🏆 <b>{ $game }: партия окончена!</b> Побеждает <b>{ $name }</b>
match-golden-bagel = 🥯 { $name }: на тумбочке с золотой баранкой, и больше никто не сел туда в этой раздаче — это сразу победа.
match-scores = Итоговый счёт:
match-line = { $place }. { $name } — { $score } (расчёт { $settlement })
match-settlement = Каждый проигравший платит победителю разницу в очках.

## Отказы (всплывающие подсказки, обычный текст)

refusal-match-over = Партия уже окончена
refusal-wrong-phase = Сейчас этого сделать нельзя
refusal-not-your-turn = Сейчас не ваш ход
refusal-not-playing = Вы не играете в этой раздаче
refusal-no-such-seat = Нет такого места за столом
refusal-invalid-deal = Неверная сдача
refusal-wrong-dealer = Сейчас сдаёт другой игрок
refusal-bid-too-low = Ставка должна быть выше текущей
refusal-bid-not-multiple = Ставка должна быть кратна 5
refusal-bid-over-cap = Без марьяжа больше 120 не заказать
refusal-bid-over-maximum = Это больше максимальной ставки
refusal-below-barrel = На бочке нельзя заказывать меньше заказа бочки
refusal-opening-bid-exact = Первая ставка — ровно 4
refusal-must-open = Пасовать нельзя: откройте торговлю ставкой 4
refusal-below-tumbochka-minimum = С тумбочки заказывают не меньше 7
refusal-score-too-low-to-bid = Против тумбочки 7 и больше можно заказать только с положительным счётом
refusal-card-not-in-hand = Этой карты у вас нет
refusal-invalid-recipient = Этому игроку карту отдать нельзя
refusal-already-given = Этому игроку карта уже отдана
refusal-contract-below-bid = Заказ не может быть меньше ставки
refusal-contract-not-multiple = Заказ должен быть кратен 5
refusal-contract-over-cap = Без марьяжа больше 120 не заказать
refusal-contract-over-maximum = Это больше максимального заказа
refusal-not-declarer = Это может только разыгрывающий
refusal-option-off = За этим столом это правило выключено
refusal-no-grounds-for-redeal = Пересдача — только с четырьмя девятками или меньше чем 14 очками
refusal-too-late = Поздно: первый ход уже сделан
refusal-not-in-this-game = В этой игре так нельзя
refusal-must-follow-suit = Нужно ходить в масть
refusal-must-trump = Масти нет — нужно бить козырем
refusal-not-on-lead = Объявлять можно только на своём заходе
refusal-marriage-needs-trick = Марьяж объявляют, взяв хотя бы одну взятку
refusal-no-marriage = У вас нет этого марьяжа
refusal-no-four-aces = Для тузового марьяжа нужны все четыре туза
refusal-no-troyan = У вас нет трояна в этой масти
refusal-troyan-leads-six = С трояном заходят с шестёрки
refusal-no-trilyazh = У вас нет трильяжа в этой масти
refusal-trilyazh-leads-jack = С трильяжем заходят с валета
refusal-must-continue-trilyazh = Продолжайте трильяж: сначала дама, потом король

## Правила (/rules)

rules-title = <b>{ $game }: правила</b>
rules-conventions = Конвенции стола (тузовый марьяж, шаг торговли, пересдача, бочка и другие) меняются в настройках лобби до начала партии.
rules-thousand-1 = <b>Карты.</b> Трое игроков, 24 карты: 9, В, Д, К, 10, Т (по старшинству). Очки карт: Т — 11, 10 — 10, К — 4, Д — 3, В — 2, 9 — 0, всего 120. Марьяж (К и Д одной масти): ♠ 40, ♣ 60, ♦️ 80, ♥️ 100.
rules-thousand-2 = <b>Торговля.</b> По 7 карт и 3 в прикуп. Игрок после сдающего сидит на сотне: у него обязательная ставка 100. Остальные по кругу повышают ставку шагом 5 (до 300) или пасуют; пас окончательный. Без марьяжа на руках больше 120 заказать нельзя.
rules-thousand-3 = <b>Прикуп и заказ.</b> Прикуп открывают, победитель торговли забирает его, отдаёт по карте каждому сопернику и называет заказ — не меньше ставки. С четырьмя девятками или меньше чем 14 очками можно попросить пересдачу. Разыгрывающий может расписать игру: себе минус заказ, соперникам по половине заказа.
rules-thousand-4 = <b>Розыгрыш.</b> Первым ходит разыгрывающий. Нужно ходить в масть, без масти — козырем, иначе любой картой. Взявший хотя бы одну взятку может, заходя с короля или дамы марьяжа, объявить его: получает его стоимость, и масть становится козырной.
rules-thousand-5 = <b>Счёт.</b> Сыгравший заказ получает +заказ, не сыгравший — минус заказ. Соперники записывают свои очки, округлённые до 5. Не взявший ни одной взятки получает палку; каждая третья палка — минус 120. Ровно 555 или −555 — самосвал: счёт обнуляется.
rules-thousand-6 = <b>Бочка.</b> Набравший 880 садится на бочку: за три раздачи ему нужно сыграть заказ от 121 — тогда он набирает 1001 и выигрывает. Не смог — слетает с бочки (минус 120). Забравшийся на бочку сбивает сидящего там (минус 120). Партия кончается и тогда, когда у кого-то −1000: побеждает лидер.
rules-thousand-one-1 = <b>Карты.</b> Колода, очки карт и марьяжи — как в Тысяче. Играют трое или четверо; при четверых сдающий не играет, но получает марьяж, если тот лежит в прикупе.
rules-thousand-one-2 = <b>Торговля.</b> Начинает игрок после сдающего: ставка от 40, шаг 5, больше 120 — только с марьяжем. Если двое спасовали, третий берёт прикуп без торговли и играет 40, называет свой заказ или сбрасывает карты — тогда остальным по 50.
rules-thousand-one-3 = <b>Прикуп.</b> Разыгрывающий показывает прикуп, забирает его, отдаёт по карте соперникам и называет заказ, не меньше ставки. Если заказ не сыграть, можно сбросить карты: себе минус заказ, остальным ничего.
rules-thousand-one-4 = <b>Розыгрыш.</b> Ходить в масть, без масти — козырем. Марьяж объявляют на любом своём заходе, даже первом; каждый новый марьяж меняет козырь.
rules-thousand-one-5 = <b>Счёт.</b> Как в Тысяче, но без палок, бочки и самосвала. Побеждает первый, кто набрал 1001.
rules-tumbochka-1 = <b>Карты.</b> Трое игроков, 24 карты: 6, 7, 8, В, Д, К (по старшинству). Карты очков не имеют: каждая взятка — 1 очко.
rules-tumbochka-2 = <b>Торговля.</b> По 7 карт и 3 в прикуп. Игрок после сдающего обязан заказать ровно 4; дальше по кругу повышают на 1 (до 14) или пасуют. Разыгрывающий берёт прикуп, не показывая, отдаёт по карте соперникам и может повысить заказ.
rules-tumbochka-3 = <b>Троян и трильяж.</b> Козыря нет, пока кто-то не объявит троян: на своём заходе показать 8, 7 и 6 одной масти, назвать её козырем и зайти с шестёрки. Трильяж — К, Д, В одной масти: заходят с валета, потом с дамы и короля; взявший все три взятки добавляет 3 к очкам раздачи. Разыгрывающему они помогают сделать заказ, но записывает он всё равно ровно заказ.
rules-tumbochka-4 = <b>Счёт.</b> Сыгравший заказ получает +заказ, не сыгравший — минус заказ; соперники записывают свои взятки.
rules-tumbochka-5 = <b>Тумбочка.</b> Набравший 20 садится на тумбочку: чтобы выиграть, ему нужно за три раздачи сыграть заказ от 7. Не вышло или на тумбочку сел другой — слезает: 10 очков, а со второго раза 0 и золотая баранка. С золотой баранкой сесть на тумбочку одному — сразу победа.

## Конвенции стола (настройки лобби)

option-on = вкл.
option-off = выкл.
option-ace_marriage = Тузовый марьяж (200)
option-bid_step = Шаг торговли
option-bid_cap_without_marriage = Без марьяжа не больше 120
option-minus_bidding = Торговля в минусе
option-hidden_talon_on_hundred = Закрытый прикуп на сотне
option-redeal = Пересдача
option-concede = Расписать игру
option-concede_penalty = Штраф за роспись
option-rounding = Округление очков
option-bolts = Палки
option-golden_round = Золотой кон
option-dump_truck = Самосвал (555)
option-target = Игра до
option-barrel = Бочка
option-barrel_bidding = Торговля на бочке
option-bid_step-value = { $value }
option-minus_bidding-value =
    { $value ->
        [off] разрешена
       *[other] запрещена при счёте ниже { $value }
    }
option-rounding-value =
    { $value ->
        [none] без округления
       *[other] до { $value }
    }
option-target-value = { $value }
option-barrel-value =
    { $value ->
        [off] без бочки
       *[other] с { $value }
    }
