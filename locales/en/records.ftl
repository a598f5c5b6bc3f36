# Results, statistics, ratings, history and the score sheet (bot/records). Markup is
# Telegram HTML; names are already escaped. Picture (rec-sheet-*) and CSV (rec-csv-*) texts
# are plain text.

## Players, games, time, pages

rec-computer = 🤖 Computer ({ $level ->
        [easy] easy
        [hard] hard
       *[other] { $level }
    })
rec-unknown-player = Player { $id }
rec-game-thousand = Thousand
rec-game-thousand-one = Thousand and One
rec-game-tumbochka = Tumbochka
# Date format for strftime
rec-date-format = %Y-%m-%d
rec-duration-hours = { $hours } h { $minutes } min
rec-duration-minutes = { $minutes } min
rec-page = Page { $page } of { $pages }
rec-page-previous = ◀ Back
rec-page-next = Next ▶

## /stats

rec-stats-title = 📊 <b>{ $name }</b> — statistics
rec-stats-empty = No finished matches yet.
rec-stats-rating = Rating: <b>{ $rating }</b>
rec-stats-rating-provisional = Rating: <b>{ $rating }</b> (provisional: { $matches } { $matches ->
        [one] match
       *[other] matches
    } of 10)
rec-stats-matches = { $matches } { $matches ->
        [one] match
       *[other] matches
    }, { $wins } { $wins ->
        [one] win
       *[other] wins
    } ({ $percent }%)
rec-stats-place = { $place ->
        [1] 1st
        [2] 2nd
        [3] 3rd
       *[other] { $place }th
    } — { $count } { $count ->
        [one] time
       *[other] times
    }
rec-stats-places = Places: { $places } · average score { $average } · settlement { $settlement }
rec-stats-contracts = { $deals } { $deals ->
        [one] deal
       *[other] deals
    } · { $contracts } { $contracts ->
        [one] contract
       *[other] contracts
    } ({ $made } made, { $failed } failed), average contract { $average }
rec-stats-marriages = Marriages: ♠ { $spades } · ♣ { $clubs } · ♦️ { $diamonds } · ♥️ { $hearts } · aces { $aces }
rec-stats-bolts = Bolts: { $bolts }, third bolts (−120): { $penalties }
rec-stats-barrel = Barrel: climbed { $mounted } { $mounted ->
        [one] time
       *[other] times
    }, won { $made }, fell { $fallen }
rec-stats-thousand-extras = Conceded: { $concessions } · redeals: { $redeals } · dump trucks: { $trucks }
rec-stats-throws = Threw the cards: { $throws }
rec-stats-tumbochka-declarations = Troyans: { $troyans } · trilyazhes: { $trilyazhes }
rec-stats-tumbochka = Tumbochka: sat { $sits } { $sits ->
        [one] time
       *[other] times
    }, won from it { $made }, fell { $falls } · golden bagels: { $bagels }
rec-stats-time = Time played: { $time }

## /top

rec-top-title = 🏆 <b>{ $game }</b> — this chat's ratings
rec-top-title-humans = 🏆 <b>{ $game }</b> — this chat's ratings (humans only)
rec-top-empty = No match of this game has been finished in this chat yet. Other games: /top 1000, /top 1001, /top tumbochka.
rec-top-line = { $position }. { $name } — <b>{ $rating }{ $mark }</b> · { $matches } { $matches ->
        [one] match
       *[other] matches
    }, { $wins } { $wins ->
        [one] win
       *[other] wins
    }
rec-top-provisional = * — provisional rating: fewer than 10 matches.
rec-top-humans-only = 👤 Humans only
rec-top-everyone = 🤖 With computer players
rec-top-usage = Like this: /top [game] [humans] — for example /top 1001 or /top tumbochka humans.

## /history

rec-history-title = 📜 <b>Recent matches</b>
rec-history-empty = No match has ended in this chat yet.
rec-history-finished = { $date } · <b>{ $game }</b> · 🏆 { $winner }
rec-history-abandoned = { $date } · <b>{ $game }</b> · stopped
rec-history-seat = { $name } { $score }

## /export

rec-export-caption = Your matches (CSV).
rec-export-empty = You have no finished matches yet.
rec-export-private = Open a private chat with the bot (tap its name → “Start”) and send /export there: the file comes there.
rec-export-sent = The file of your matches is in your private chat with the bot.

## /score

rec-score-none = No match is running here, and only a running match has a score sheet. Finished matches: /history; your matches as a file: /export.

## The score sheet (picture)

rec-sheet-title = { $game } — score sheet
rec-sheet-subtitle-finished = Winner: { $winner } · { $deals } { $deals ->
        [one] deal
       *[other] deals
    }
rec-sheet-subtitle-running = Match in progress · { $deals } { $deals ->
        [one] deal
       *[other] deals
    }
rec-sheet-axis-deal = Deal
rec-sheet-axis-score = Score
rec-sheet-line-barrel = barrel { $score }
rec-sheet-line-tumbochka = tumbochka { $score }
rec-sheet-line-target = target { $score }
rec-sheet-no-deals = No deal has been played yet.
rec-sheet-col-deal = #
rec-sheet-col-contract = Contract
rec-sheet-omitted = The first { $count } { $count ->
        [one] deal is
       *[other] deals are
    } not shown
rec-sheet-made = { $name } { $contract } ✓
rec-sheet-failed = { $name } { $contract } ✗
rec-sheet-conceded = { $name } { $contract } ✗ conceded
rec-sheet-thrown = { $name } { $contract } ✗ threw
rec-sheet-thrown-free = { $name }: threw
rec-sheet-redeal = redeal ({ $name })
rec-sheet-mark-perch-thousand = B
rec-sheet-mark-perch-tumbochka = T
rec-sheet-mark-dump-truck = DT
rec-sheet-legend-thousand = ✓ made · ✗ failed · | bolt · ⊘ third bolt (−120) · B on the barrel (↑ climbed, ↓ fell) · DT dump truck · ★ winner
rec-sheet-legend-thousand-one = ✓ made · ✗ failed · ★ winner
rec-sheet-legend-tumbochka = ✓ made · ✗ failed · T on the tumbochka (↑ sat, ↓ fell) · ◎ golden bagel · ★ winner

## CSV

rec-csv-date = Date (UTC)
rec-csv-match = Match
rec-csv-game = Game
rec-csv-status = Outcome
rec-csv-players = Players
rec-csv-seat = Seat
rec-csv-place = Place
rec-csv-score = Score
rec-csv-settlement = Settlement
rec-csv-rating = Rating after
rec-csv-status-finished = finished
rec-csv-status-abandoned = stopped
