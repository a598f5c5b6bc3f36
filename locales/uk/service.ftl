# The bot as a service: its description in Telegram's profile (bot/telegram/menu.py), and the
# answers to presses and links used where they do not belong (bot/handlers/).

bot-description =
    Бот для гри в «Тисячу», «Тисячу один» і «Тумбочку» з друзями в групі.
    Додайте його до групи й надішліть /new; карти й ходи кожен отримує в особистому чаті.
    Тут, в особистому чаті, /solo — партія проти комп'ютерів.
bot-short-description = «Тисяча», «Тисяча один» і «Тумбочка» в групі та проти комп'ютерів.
press-wrong-message = Ця кнопка не звідси: натисніть її в повідомленні, де вона показана.
press-page-stale = Цей список застарів: надішліть /top або /history ще раз.
start-join-not-member = Сісти за цей стіл можуть лише учасники групи «{ $group }».
start-join-unknown = Такого набору гравців немає або його вже закрито.
group-anonymous-cannot-sit = Анонімний адміністратор не може сісти за стіл: надішліть /join від свого імені або натисніть «Сісти за стіл».
bot-removed-match = Бота видалили з групи «{ $group }», і партію зупинено.
