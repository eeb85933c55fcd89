"""The short rules shown on the device (the full rules are in the repository)."""

PAGES = (
    "Sixty-Six: be first to 66 card points in a deal. A 11, 10 10, K 4, Q 3, J 2, 9 0. "
    "Win deals to score game points; first to 7 wins the match.",
    "Each player has 6 cards; the face-up card is trump. Win a trick with the higher "
    "card of the suit led, or with a trump. The winner draws first, then leads.",
    "While the talon is open you may play any card. Once it is used up or closed you "
    "must follow suit and beat the card led if you can, else trump.",
    "Marriage: on lead, show K and Q of a suit and lead one: 20 points, 40 in trumps. "
    "They count once you have won a trick.",
    "On lead, after winning a trick: swap the trump 9 for the face-up trump, or close "
    "the talon (then no more drawing: reach 66 or lose 2-3 game points).",
    "Declare when you have 66 (casual mode does it for you). Game points: 1; 2 if the "
    "loser has under 33 (schneider); 3 if the loser took no trick (schwarz).",
    "Buttons: move left/right, OK plays the raised card, MENU opens the actions "
    "(marry, exchange, close, declare, hint) and the main menu.",
)
