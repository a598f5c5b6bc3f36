# Texts of the game table: cards, the state of a deal, buttons, events, results, refusals,
# rules and table conventions. Markup is Telegram HTML; player names arrive escaped.

## Cards

rank-6 = 6
rank-7 = 7
rank-8 = 8
rank-9 = 9
rank-J = J
rank-Q = Q
rank-K = K
rank-T = 10
rank-A = A
suit-S = ♠
suit-C = ♣
suit-D = ♦️
suit-H = ♥️

## Games and phases

game-thousand = Thousand
game-thousand-one = Thousand and One
game-tumbochka = Tumbochka
phase-bidding = bidding
phase-giving = giving cards
phase-contract = contract
phase-play = play
phase-deal-over = deal over
phase-redealt = redeal
phase-match-over = match over
phase-starting = the match is starting
phase-stopped = match stopped
state-stopped = ⏹ Match stopped · /stop: { $name }
stopped-title = ⏹ <b>{ $game }: match stopped</b> · /stop: { $name }
stopped-scores = Scores when it stopped (no winner):
stopped-line = { $place }. { $name } — { $score }

## State of the deal (table and private message)

state-header = <b>{ $game }</b> · deal { $number } · { $phase }
state-header-start = <b>{ $game }</b> · { $phase }
state-seat = { $marker }<b>{ $name }</b> — { $score }
tag-dealer = deals
tag-sits-out = sits out
tag-declarer = declarer
tag-perch-thousand = on the barrel
tag-perch-thousand-one = on the barrel
tag-perch-tumbochka = on the tumbochka
tag-bagel = 🥯 golden bagel
tag-bolts =
    { $n ->
        [one] { $n } bolt
       *[other] { $n } bolts
    }
tag-cards =
    { $n ->
        [one] { $n } card
       *[other] { $n } cards
    }
tag-tricks =
    { $tricks ->
        [one] { $tricks } trick
       *[other] { $tricks } tricks
    }
tag-taken =
    { $tricks ->
        [one] { $tricks } trick
       *[other] { $tricks } tricks
    }, { $points ->
        [one] { $points } point
       *[other] { $points } points
    }
state-bids = Bidding: { $bids }
state-bid = { $name } { $value }
state-bid-pass = { $name } pass
state-declarer-bid = { $name } declares, bid { $value }
state-declarer-contract = { $name } declares, contract { $value }
state-declarer-without-bid = { $name } declares without bidding, contract { $value }
state-talon = Talon: { $cards }
state-trump = Trump: { $suit }
state-no-trump = No trump
state-declarations = Declared: { $list }
declaration-marriage = { $name }: marriage { $suit } { $value }
declaration-aces = { $name }: ace marriage { $value }
declaration-troyan = { $name }: troyan { $suit }
declaration-trilyazh = { $name }: trilyazh { $suit }
state-trilyazh = Trilyazh { $suit } ({ $name }): trick { $stage } of { $total }
state-trick = On the table: { $plays }
state-last-trick = Last trick — { $name }: { $plays }
state-play = { $name } { $card }
state-perch-thousand = On the barrel: { $name } · attempts used: { $used } of { $total }
state-perch-thousand-one = On the barrel: { $name } · attempts used: { $used } of { $total }
state-perch-tumbochka = On the tumbochka: { $name } · deals used: { $used } of { $total }
state-golden-round = ✨ Golden round: all scores are doubled
state-turn = ▶ Turn: { $name }
state-turn-timer = ▶ Turn: { $name } · ⏱ { $seconds } s
state-winner = 🏆 Winner: { $name }
table-note = Just now:
table-notes = Just now:

## A player's private message

hand-cards = <b>Your cards:</b> { $cards }
hand-no-cards = No cards in hand
hand-sitting-out = You deal and sit out this deal.
hand-gift = { $card } → { $name }
hand-given = You gave: { $list }
hand-gift-from = { $card } ({ $name })
hand-received = You received: { $list }
hand-prompt-bid = Your bid:
hand-prompt-give = Give one card to each opponent — first choose the card:
hand-prompt-give-to = Who gets { $card }?
hand-confirm-concede = Concede the deal? Press “Yes, concede” — or “Back”.
hand-confirm-throw = Throw in the cards? Press “Yes, throw” — or “Back”.
hand-prompt-contract = Name the contract — or lead at once to play the bid:
hand-prompt-lead = Your lead:
hand-prompt-follow = Your turn — follow:
hand-prompt-early = Before the first lead you may:
hand-waiting = Waiting for { $name }
hand-timer = ⏱ { $seconds } s left for your move
hand-timed-out = ⏱ Your time ran out — the computer moved for you. The next move is yours again.
recap-line = <b>Deal { $number } result:</b> { $outcome }
recap-you = you { $change }, total <b>{ $score }</b>

## Buttons (plain text)

button-pass = Pass
button-give = { $card } → { $name }
button-concede = Concede
button-throw = Throw cards
button-redeal = Redeal
button-marriage = { $card } + marriage { $value }
button-aces = { $card } + aces { $value }
button-troyan = { $card } + troyan
button-trilyazh = { $card } + trilyazh
button-back = ◂ Back
button-larger = More ▸
button-smaller = ◂ Less
button-confirm-concede = ✔ Yes, concede
button-confirm-throw = ✔ Yes, throw

## Events (the "last move" line and deal results)

event-deal-started = Deal { $number }, { $name } deals
event-bid = { $name }: { $value }
event-bid-forced = { $name }: { $value } (forced bid)
event-pass = { $name }: pass
event-pass-automatic = { $name }: pass (no bidding below the threshold)
event-declarer = { $name } wins the bidding: { $value }
event-declarer-without-bid = { $name } takes the talon without bidding
event-talon-shown = Talon: { $cards }
event-talon-taken = { $name } takes the talon
event-card-given = { $name }: a card → { $to }
event-contract = { $name } names the contract { $value }
event-redeal = { $name } asks for a redeal: { $ground }
redeal-ground-four-nines = four nines
redeal-ground-under-14-points = under 14 points in hand
event-conceded = { $name } concedes ({ $value })
event-thrown = { $name } throws the cards ({ $value })
event-thrown-without-contract = { $name } throws the cards without a contract: 50 to each other player
event-card-played = { $name }: { $card }
event-declared = 📣 { $declaration }
event-trump = Trump is now { $suit }
event-trick = { $name } takes the trick (+{ $points })
event-trilyazh-completed = { $name }: trilyazh { $suit } made, +3 to the deal points
event-trilyazh-broken = { $name }: trilyazh { $suit } broken
event-deal-scored = The deal is over
event-contract-made = { $name }: contract { $value } made ({ $change })
event-contract-failed = { $name }: contract { $value } failed ({ $change })
event-bolt = { $name } gets a bolt ({ $bolts } in total)
event-bolt-penalty = { $name }: third bolt — { $penalty }
event-mounted =
    { $game ->
        [tumbochka] { $name } sits on the tumbochka
       *[other] { $name } climbs onto the barrel
    }
event-fell-attempts =
    { $game ->
        [tumbochka] { $name } leaves the tumbochka: three deals without a win. Score { $score }
       *[other] { $name } falls off the barrel: three attempts failed. Score { $score }
    }
event-fell-raised-and-failed =
    { $game ->
        [tumbochka] { $name } leaves the tumbochka. Score { $score }
       *[other] { $name } falls off the barrel: a raised contract failed. Score { $score }
    }
event-fell-knocked-off =
    { $game ->
        [tumbochka] { $name } is knocked off the tumbochka. Score { $score }
       *[other] { $name } is knocked off the barrel. Score { $score }
    }
event-fell-climbed-together =
    { $game ->
        [tumbochka] { $name } falls: several players reached the tumbochka at once. Score { $score }
       *[other] { $name } falls: several players reached the barrel at once. Score { $score }
    }
event-golden-bagel = 🥯 { $name } gets the golden bagel
event-dump-truck = 🚛 Dump truck! { $name }'s score is reset to 0
event-match-over = 🏆 The match is over, { $name } wins

## Deal and match results

result-title = <b>Deal { $number } results</b>
result-redeal-void = The deal does not count; the next player deals.
result-made =
    ✅ { $name } plays { $contract } and makes it: { $points ->
        [one] { $points } point
       *[other] { $points } points
    }
result-failed =
    ❌ { $name } plays { $contract } and falls short: { $points ->
        [one] { $points } point
       *[other] { $points } points
    }
result-golden-round = ✨ Golden round: every score change is doubled
result-seat-points =
    { $name }: { $points ->
        [one] { $points } point
       *[other] { $points } points
    } → { $change }, total <b>{ $score }</b>
result-seat = { $name }: { $change }, total <b>{ $score }</b>
match-title = 🏆 <b>{ $game }: the match is over!</b> <b>{ $name }</b> wins
match-golden-bagel = 🥯 { $name }: on the tumbochka with a golden bagel, and nobody else sat there in this deal — that wins at once.
match-scores = Final scores:
match-line = { $place }. { $name } — { $score } (settlement { $settlement })
match-settlement = Each loser pays the winner the difference in score.

## Refusals (toasts, plain text)

refusal-match-over = The match is already over
refusal-wrong-phase = You can't do that now
refusal-not-your-turn = It's not your turn
refusal-not-playing = You are not playing this deal
refusal-no-such-seat = There is no such seat
refusal-invalid-deal = Invalid deal
refusal-wrong-dealer = Another player deals now
refusal-bid-too-low = The bid must be higher than the current one
refusal-bid-not-multiple = The bid must be a multiple of 5
refusal-bid-over-cap = Without a marriage you can't bid over 120
refusal-bid-over-maximum = That is over the maximum bid
refusal-below-barrel = On the barrel you can't bid below the barrel contract
refusal-opening-bid-exact = The opening bid is exactly 4
refusal-must-open = You can't pass: open the bidding with 4
refusal-below-tumbochka-minimum = On the tumbochka the bid is at least 7
refusal-score-too-low-to-bid = Bidding 7 or more against the tumbochka needs a positive score
refusal-card-not-in-hand = You don't have that card
refusal-invalid-recipient = You can't give a card to that player
refusal-already-given = That player already got a card
refusal-contract-below-bid = The contract can't be below the bid
refusal-contract-not-multiple = The contract must be a multiple of 5
refusal-contract-over-cap = Without a marriage you can't name over 120
refusal-contract-over-maximum = That is over the maximum contract
refusal-not-declarer = Only the declarer can do that
refusal-option-off = That rule is off at this table
refusal-no-grounds-for-redeal = A redeal needs four nines or under 14 points
refusal-too-late = Too late: the first card is already led
refusal-not-in-this-game = Not in this game
refusal-must-follow-suit = You must follow suit
refusal-must-trump = You have no card of that suit: play a trump
refusal-not-on-lead = You can declare only when you lead
refusal-marriage-needs-trick = Declare a marriage after taking at least one trick
refusal-no-marriage = You don't hold that marriage
refusal-no-four-aces = The ace marriage needs all four aces
refusal-no-troyan = You have no troyan in that suit
refusal-troyan-leads-six = A troyan is led with the six
refusal-no-trilyazh = You have no trilyazh in that suit
refusal-trilyazh-leads-jack = A trilyazh is led with the jack
refusal-must-continue-trilyazh = Continue the trilyazh: the queen, then the king

## Rules (/rules)

rules-title = <b>{ $game }: rules</b>
rules-conventions = Table conventions (ace marriage, bid step, redeal, the barrel and more) are set in the lobby settings before the match starts.
rules-thousand-1 = <b>Cards.</b> Three players, 24 cards: 9, J, Q, K, 10, A (low to high). Card points: A 11, 10 10, K 4, Q 3, J 2, 9 0; 120 in total. A marriage (K and Q of one suit): ♠ 40, ♣ 60, ♦️ 80, ♥️ 100.
rules-thousand-2 = <b>Bidding.</b> 7 cards each and 3 in the talon. The player after the dealer sits on the hundred with a forced bid of 100. The others in turn raise by 5 (up to 300) or pass; a pass is final. Without a marriage in hand you can't bid over 120.
rules-thousand-3 = <b>Talon and contract.</b> The talon is shown; the winner of the bidding takes it, gives one card to each opponent and names the contract, at least the bid. With four nines or under 14 points you may ask for a redeal. The declarer may concede: minus the contract for them, half the contract for each opponent.
rules-thousand-4 = <b>Play.</b> The declarer leads first. Follow suit; if you can't, play a trump; otherwise any card. A player who has taken a trick may lead the king or queen of a marriage and declare it: they score its value and its suit becomes trump.
rules-thousand-5 = <b>Scoring.</b> A made contract scores plus the contract, a failed one minus the contract. Opponents score their points rounded to 5. A player who takes no trick gets a bolt; every third bolt costs 120. Exactly 555 or −555 is a dump truck: the score goes back to 0.
rules-thousand-6 = <b>The barrel.</b> At 880 a player climbs onto the barrel and has three deals to make a contract of 121 or more — then they reach 1001 and win. Otherwise they fall off (minus 120). Climbing onto the barrel knocks off whoever is there (minus 120). The match also ends when someone reaches −1000: the leader wins.
rules-thousand-one-1 = <b>Cards.</b> Deck, card points and marriages as in Thousand. Three or four play; with four, the dealer sits out but scores a marriage lying in the talon.
rules-thousand-one-2 = <b>Bidding.</b> The player after the dealer starts: bids from 40, step 5, over 120 only with a marriage. If two pass, the third takes the talon without bidding and plays 40, names a contract, or throws the cards — then the others get 50 each.
rules-thousand-one-3 = <b>Talon.</b> The declarer shows the talon, takes it, gives one card to each opponent and names the contract, at least the bid. Seeing no way to make it, they may throw the cards: minus the contract for them, nothing for the others.
rules-thousand-one-4 = <b>Play.</b> Follow suit; if you can't, play a trump. A marriage may be declared on any lead, even the first; each new marriage changes the trump.
rules-thousand-one-5 = <b>Scoring.</b> As in Thousand, without bolts, barrel or dump truck. The first to reach 1001 wins.
rules-tumbochka-1 = <b>Cards.</b> Three players, 24 cards: 6, 7, 8, J, Q, K (low to high). Cards have no points: every trick is worth 1.
rules-tumbochka-2 = <b>Bidding.</b> 7 cards each and 3 in the talon. The player after the dealer must bid exactly 4; then in turn the others raise by 1 (up to 14) or pass. The declarer takes the talon unseen, gives one card to each opponent and may raise the contract.
rules-tumbochka-3 = <b>Troyan and trilyazh.</b> There is no trump until someone declares a troyan: on their lead they show 8, 7 and 6 of one suit, name it trump and lead the six. A trilyazh is K, Q and J of one suit: lead the jack, then the queen and the king; taking all three tricks adds 3 to the deal points. They help the declarer make the contract, but the declarer still scores exactly the contract.
rules-tumbochka-4 = <b>Scoring.</b> A made contract scores plus the contract, a failed one minus the contract; opponents score their tricks.
rules-tumbochka-5 = <b>The tumbochka.</b> At 20 a player sits on the tumbochka and has three deals to make a contract of 7 or more to win. If not, or if someone else sits there, they leave with 10 points — from the second time with 0 and a golden bagel. Sitting there alone with a golden bagel wins at once.

## Table conventions (lobby settings)

option-on = on
option-off = off
option-ace_marriage = Ace marriage (200)
option-bid_step = Bid step
option-bid_cap_without_marriage = No bids over 120 without a marriage
option-minus_bidding = Bidding in the minus
option-hidden_talon_on_hundred = Hidden talon on the hundred
option-redeal = Redeal
option-concede = Conceding
option-concede_penalty = Penalty for conceding
option-rounding = Rounding
option-bolts = Bolts
option-golden_round = Golden round
option-dump_truck = Dump truck (555)
option-target = Play to
option-barrel = Barrel
option-barrel_bidding = Bidding on the barrel
option-bid_step-value = { $value }
option-minus_bidding-value =
    { $value ->
        [off] allowed
       *[other] not with a score below { $value }
    }
option-rounding-value =
    { $value ->
        [none] no rounding
       *[other] to { $value }
    }
option-target-value = { $value }
option-barrel-value =
    { $value ->
        [off] no barrel
       *[other] at { $value }
    }
