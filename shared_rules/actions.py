"""Actions as small ints (their record text, "marry KC", is in record.py).

play c = c (0..31); marry c = MARRY + c; declare-marriage c = DECLARE_MARRIAGE + c;
bid n = BID + n (1..5) and pass = PASS in the bidding games.
"""
MARRY = 32
DECLARE_MARRIAGE = 64
EXCHANGE = 96
CLOSE = 97
DECLARE = 98
DRAW = 99
BID = 100
PASS = 100
