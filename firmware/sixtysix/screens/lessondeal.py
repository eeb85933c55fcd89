"""The lesson's deal (sixtysix.screens.lesson): a game record of the standard rules
(docs/RECORD_FORMAT.md) in which every two-handed rule comes up in order, and what the
box before each of its actions is about.

The computer deals, so the person (seat 0) leads first; the computer's actions are the
lesson's script. host_tests/records/std_lesson.json is this record (a test keeps them
the same), which tools.replay replays as any deal of the standard rules.
"""

RECORD = {
    "rules": "standard", "options": {}, "people": [0],
    "hands": [["JS", "TC", "KD", "QD", "9H", "KC"], ["AS", "9C", "KS", "AD", "QS", "9S"]],
    "trump_card": "TH",
    "talon": ["AC", "JC", "AH", "QC", "9D", "TS", "KH", "QH", "JH", "TD", "JD"],
    "actions": [
        "0 play JS", "1 play AS",       # leading and following while the talon is open
        "1 play 9C", "0 play TC",       # the winner draws first and leads
        "0 marry KD", "1 play KS",      # a marriage: 20
        "0 exchange", "0 close",        # the trump 9 for the face-up 10; the talon closed
        "0 play QD", "1 play AD",       # now the computer must beat your Q
        "1 play QC", "0 play KC",       # and you must beat its Q
        "0 play JC", "1 play AC",
        "1 play TS", "0 play AH",       # no spades: you must trump
        "0 declare",                    # 66: the deal ends, 1 game point (the computer has 40)
    ],
}

# The box before each action: its title and the rules it says (sixtysix.screens.rulestext's
# names); None: no box (the computer's reply). The person's own move is said after the
# rules, in the hint's words (shared_rules.ai.hints).
STEPS = (
    ("Your lead", ("GOAL", "OPEN")),
    None,
    ("The computer won", ("TRICK", "DRAW")),
    ("Following", ("OPEN",)),
    ("A marriage", ("MARRIAGE",)),
    None,
    ("The trump 9", ("EXCHANGE",)),
    ("Closing", ("CLOSE",)),
    ("The talon is closed", ("STRICT",)),
    None,
    None,
    ("Follow and beat", ("STRICT",)),
    ("Your lead", ("STRICT",)),
    None,
    None,
    ("No spades: trump", ("STRICT",)),
    ("Declaring", ("DECLARE", "WRONG")),
)
# The box after the deal's result, before the lesson ends.
END = ("What a deal scores", ("SCORE", "WRONG"))
