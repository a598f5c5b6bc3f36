# Підсумки, статистика, рейтинг, історія та пулька (bot/records). Розмітка — HTML Telegram;
# імена вже екрановані. Тексти картинки (rec-sheet-*) і CSV (rec-csv-*) — простий текст.

## Гравці, ігри, час, сторінки

rec-computer = 🤖 Комп'ютер ({ $level ->
        [easy] легкий
        [hard] сильний
       *[other] { $level }
    })
rec-unknown-player = Гравець { $id }
rec-game-thousand = Тисяча
rec-game-thousand-one = Тисяча один
rec-game-tumbochka = Тумбочка
# Формат дати для strftime
rec-date-format = %d.%m.%Y
rec-duration-hours = { $hours } год { $minutes } хв
rec-duration-minutes = { $minutes } хв
rec-page = Сторінка { $page } з { $pages }
rec-page-previous = ◀ Назад
rec-page-next = Далі ▶

## /stats

rec-stats-title = 📊 <b>{ $name }</b> — статистика
rec-stats-empty = Поки жодної завершеної партії.
rec-stats-rating = Рейтинг: <b>{ $rating }</b>
rec-stats-rating-provisional = Рейтинг: <b>{ $rating }</b> (попередній: { $matches } { $matches ->
        [one] партія
        [few] партії
       *[many] партій
    } з 10)
rec-stats-matches = { $matches } { $matches ->
        [one] партія
        [few] партії
       *[many] партій
    }, { $wins } { $wins ->
        [one] перемога
        [few] перемоги
       *[many] перемог
    } ({ $percent }%)
rec-stats-place = { $place }-е — { $count } { $count ->
        [one] раз
        [few] рази
       *[many] разів
    }
rec-stats-places = Місця: { $places } · середній рахунок { $average } · розрахунок { $settlement }
rec-stats-contracts = { $deals } { $deals ->
        [one] роздача
        [few] роздачі
       *[many] роздач
    } · { $contracts } { $contracts ->
        [one] замовлення
        [few] замовлення
       *[many] замовлень
    } (зіграно { $made }, не зіграно { $failed }), середнє замовлення { $average }
rec-stats-marriages = Мар'яжі: ♠ { $spades } · ♣ { $clubs } · ♦️ { $diamonds } · ♥️ { $hearts } · тузовий { $aces }
rec-stats-bolts = Палки: { $bolts }, з них третіх (−120): { $penalties }
rec-stats-barrel = Бочка: { $mounted } { $mounted ->
        [one] раз
        [few] рази
       *[many] разів
    }, перемог: { $made }, падінь: { $fallen }
rec-stats-thousand-extras = Розписано ігор: { $concessions } · перездач: { $redeals } · самоскидів: { $trucks }
rec-stats-throws = Скидань карт: { $throws }
rec-stats-tumbochka-declarations = Трояни: { $troyans } · трильяжі: { $trilyazhes }
rec-stats-tumbochka = На тумбочці: { $sits } { $sits ->
        [one] раз
        [few] рази
       *[many] разів
    }, перемог: { $made }, падінь: { $falls } · золотих бубликів: { $bagels }
rec-stats-time = Час за грою: { $time }

## /top

rec-top-title = 🏆 <b>{ $game }</b> — рейтинг чату
rec-top-title-humans = 🏆 <b>{ $game }</b> — рейтинг чату (лише люди)
rec-top-empty = У цьому чаті ще не дограли жодної партії в цю гру. Інші ігри: /top 1000, /top 1001, /top тумбочка.
rec-top-line = { $position }. { $name } — <b>{ $rating }{ $mark }</b> · { $matches } { $matches ->
        [one] партія
        [few] партії
       *[many] партій
    }, { $wins } { $wins ->
        [one] перемога
        [few] перемоги
       *[many] перемог
    }
rec-top-provisional = * — попередній рейтинг: менше 10 партій.
rec-top-humans-only = 👤 Лише люди
rec-top-everyone = 🤖 З комп'ютерними гравцями
rec-top-usage = Так: /top [гра] [люди] — наприклад, /top 1001 або /top тумбочка люди.

## /history

rec-history-title = 📜 <b>Останні партії</b>
rec-history-empty = У цьому чаті ще не було завершених партій.
rec-history-finished = { $date } · <b>{ $game }</b> · 🏆 { $winner }
rec-history-abandoned = { $date } · <b>{ $game }</b> · зупинена
rec-history-seat = { $name } { $score }

## /export

rec-export-caption = Ваші партії (CSV).
rec-export-empty = У вас ще немає завершених партій.
rec-export-private = Відкрийте особистий чат із ботом (натисніть на ім'я бота → «Запустити») і надішліть там /export: файл прийде туди.
rec-export-sent = Файл із вашими партіями — в особистому чаті з ботом.

## /score

rec-score-none = Тут зараз не йде партія, а пулька є лише в тієї, що йде. Підсумки завершених партій — /history, ваші партії файлом — /export.

## Пулька (картинка)

rec-sheet-title = { $game } — пулька
rec-sheet-subtitle-finished = Переможець: { $winner } · { $deals } { $deals ->
        [one] роздача
        [few] роздачі
       *[many] роздач
    }
rec-sheet-subtitle-running = Партія триває · { $deals } { $deals ->
        [one] роздача
        [few] роздачі
       *[many] роздач
    }
rec-sheet-axis-deal = Роздача
rec-sheet-axis-score = Очки
rec-sheet-line-barrel = бочка { $score }
rec-sheet-line-tumbochka = тумбочка { $score }
rec-sheet-line-target = мета { $score }
rec-sheet-no-deals = Ще жодної зіграної роздачі.
rec-sheet-col-deal = №
rec-sheet-col-contract = Замовлення
rec-sheet-omitted = Перші { $count } { $count ->
        [one] роздача не показана
        [few] роздачі не показані
       *[many] роздач не показані
    }
rec-sheet-made = { $name } { $contract } ✓
rec-sheet-failed = { $name } { $contract } ✗
rec-sheet-conceded = { $name } { $contract } ✗ розпис
rec-sheet-thrown = { $name } { $contract } ✗ скид
rec-sheet-thrown-free = { $name }: скинув
rec-sheet-redeal = перездача ({ $name })
rec-sheet-mark-perch-thousand = Б
rec-sheet-mark-perch-tumbochka = Т
rec-sheet-mark-dump-truck = С
rec-sheet-legend-thousand = ✓ замовлення зіграно · ✗ не зіграно · | палка · ⊘ третя палка (−120) · Б на бочці (↑ підйом, ↓ падіння) · С самоскид · ★ перемога
rec-sheet-legend-thousand-one = ✓ замовлення зіграно · ✗ не зіграно · ★ перемога
rec-sheet-legend-tumbochka = ✓ замовлення зіграно · ✗ не зіграно · Т на тумбочці (↑ підйом, ↓ падіння) · ◎ золотий бублик · ★ перемога

## CSV

rec-csv-date = Дата (UTC)
rec-csv-match = Партія
rec-csv-game = Гра
rec-csv-status = Підсумок
rec-csv-players = Гравці
rec-csv-seat = Місце за столом
rec-csv-place = Місце
rec-csv-score = Рахунок
rec-csv-settlement = Розрахунок
rec-csv-rating = Рейтинг після
rec-csv-status-finished = дограна
rec-csv-status-abandoned = зупинена
