# Итоги, статистика, рейтинг, история и пулька (bot/records). Разметка — HTML Telegram;
# имена уже экранированы. Тексты картинки (rec-sheet-*) и CSV (rec-csv-*) — простой текст.

## Игроки, игры, время, страницы

rec-computer = 🤖 Компьютер ({ $level ->
        [easy] лёгкий
        [hard] сильный
       *[other] { $level }
    })
rec-unknown-player = Игрок { $id }
rec-game-thousand = Тысяча
rec-game-thousand-one = Тысяча одно
rec-game-tumbochka = Тумбочка
# Формат даты для strftime
rec-date-format = %d.%m.%Y
rec-duration-hours = { $hours } ч { $minutes } мин
rec-duration-minutes = { $minutes } мин
rec-page = Страница { $page } из { $pages }
rec-page-previous = ◀ Назад
rec-page-next = Дальше ▶

## /stats

rec-stats-title = 📊 <b>{ $name }</b> — статистика
rec-stats-empty = Пока ни одной законченной партии.
rec-stats-rating = Рейтинг: <b>{ $rating }</b>
rec-stats-rating-provisional = Рейтинг: <b>{ $rating }</b> (предварительный: { $matches } { $matches ->
        [one] партия
        [few] партии
       *[many] партий
    } из 10)
rec-stats-matches = { $matches } { $matches ->
        [one] партия
        [few] партии
       *[many] партий
    }, { $wins } { $wins ->
        [one] победа
        [few] победы
       *[many] побед
    } ({ $percent }%)
rec-stats-place = { $place }-е — { $count } { $count ->
        [one] раз
        [few] раза
       *[many] раз
    }
rec-stats-places = Места: { $places } · средний счёт { $average } · расчёт { $settlement }
rec-stats-contracts = { $deals } { $deals ->
        [one] раздача
        [few] раздачи
       *[many] раздач
    } · { $contracts } { $contracts ->
        [one] заказ
        [few] заказа
       *[many] заказов
    } (сыграно { $made }, не сыграно { $failed }), средний заказ { $average }
rec-stats-marriages = Марьяжи: ♠ { $spades } · ♣ { $clubs } · ♦️ { $diamonds } · ♥️ { $hearts } · тузовый { $aces }
rec-stats-bolts = Палки: { $bolts }, из них третьих (−120): { $penalties }
rec-stats-barrel = Бочка: { $mounted } { $mounted ->
        [one] раз
        [few] раза
       *[many] раз
    }, побед: { $made }, падений: { $fallen }
rec-stats-thousand-extras = Расписано игр: { $concessions } · пересдач: { $redeals } · самосвалов: { $trucks }
rec-stats-throws = Сбросов карт: { $throws }
rec-stats-tumbochka-declarations = Трояны: { $troyans } · трильяжи: { $trilyazhes }
rec-stats-tumbochka = На тумбочке: { $sits } { $sits ->
        [one] раз
        [few] раза
       *[many] раз
    }, побед: { $made }, падений: { $falls } · золотых баранок: { $bagels }
rec-stats-time = Время за игрой: { $time }

## /top

rec-top-title = 🏆 <b>{ $game }</b> — рейтинг чата
rec-top-title-humans = 🏆 <b>{ $game }</b> — рейтинг чата (только люди)
rec-top-empty = В этом чате ещё не доиграли ни одной партии в эту игру. Другие игры: /top 1000, /top 1001, /top тумбочка.
rec-top-line = { $position }. { $name } — <b>{ $rating }{ $mark }</b> · { $matches } { $matches ->
        [one] партия
        [few] партии
       *[many] партий
    }, { $wins } { $wins ->
        [one] победа
        [few] победы
       *[many] побед
    }
rec-top-provisional = * — предварительный рейтинг: меньше 10 партий.
rec-top-humans-only = 👤 Только люди
rec-top-everyone = 🤖 С компьютерными игроками
rec-top-usage = Так: /top [игра] [люди] — например, /top 1001 или /top тумбочка люди.

## /history

rec-history-title = 📜 <b>Последние партии</b>
rec-history-empty = В этом чате ещё не было законченных партий.
rec-history-finished = { $date } · <b>{ $game }</b> · 🏆 { $winner }
rec-history-abandoned = { $date } · <b>{ $game }</b> · остановлена
rec-history-seat = { $name } { $score }

## /export

rec-export-caption = Ваши партии (CSV).
rec-export-empty = У вас ещё нет законченных партий.
rec-export-private = Откройте личный чат с ботом (нажмите на имя бота → «Запустить») и отправьте там /export: файл придёт туда.
rec-export-sent = Файл с вашими партиями — в личном чате с ботом.

## /score

rec-score-none = Здесь сейчас не идёт партия, а пулька есть только у идущей. Итоги законченных партий — /history, ваши партии файлом — /export.

## Пулька (картинка)

rec-sheet-title = { $game } — пулька
rec-sheet-subtitle-finished = Победитель: { $winner } · { $deals } { $deals ->
        [one] раздача
        [few] раздачи
       *[many] раздач
    }
rec-sheet-subtitle-running = Партия идёт · { $deals } { $deals ->
        [one] раздача
        [few] раздачи
       *[many] раздач
    }
rec-sheet-axis-deal = Раздача
rec-sheet-axis-score = Очки
rec-sheet-line-barrel = бочка { $score }
rec-sheet-line-tumbochka = тумбочка { $score }
rec-sheet-line-target = цель { $score }
rec-sheet-no-deals = Ещё ни одной сыгранной раздачи.
rec-sheet-col-deal = №
rec-sheet-col-contract = Заказ
rec-sheet-omitted = Первые { $count } { $count ->
        [one] раздача не показана
        [few] раздачи не показаны
       *[many] раздач не показаны
    }
rec-sheet-made = { $name } { $contract } ✓
rec-sheet-failed = { $name } { $contract } ✗
rec-sheet-conceded = { $name } { $contract } ✗ роспись
rec-sheet-thrown = { $name } { $contract } ✗ сброс
rec-sheet-thrown-free = { $name }: сброс
rec-sheet-redeal = пересдача ({ $name })
rec-sheet-mark-perch-thousand = Б
rec-sheet-mark-perch-tumbochka = Т
rec-sheet-mark-dump-truck = С
rec-sheet-legend-thousand = ✓ заказ сыгран · ✗ не сыгран · | палка · ⊘ третья палка (−120) · Б на бочке (↑ подъём, ↓ падение) · С самосвал · ★ победа
rec-sheet-legend-thousand-one = ✓ заказ сыгран · ✗ не сыгран · ★ победа
rec-sheet-legend-tumbochka = ✓ заказ сыгран · ✗ не сыгран · Т на тумбочке (↑ подъём, ↓ падение) · ◎ золотая баранка · ★ победа

## CSV

rec-csv-date = Дата (UTC)
rec-csv-match = Партия
rec-csv-game = Игра
rec-csv-status = Итог
rec-csv-players = Игроки
rec-csv-seat = Место за столом
rec-csv-place = Место
rec-csv-score = Счёт
rec-csv-settlement = Расчёт
rec-csv-rating = Рейтинг после
rec-csv-status-finished = доиграна
rec-csv-status-abandoned = остановлена
