"""Fan definitions in English, by fan id (the site's translation of the seeds'
descriptions; where the seeds word a fan differently, the definition the
scorer implements)."""

TEXTS: dict[str, str] = {
    # 88
    "BIG_FOUR_WINDS": "Pungs (or kongs) of all four winds, and a pair.",
    "BIG_THREE_DRAGONS": "Pungs (or kongs) of all three dragons.",
    "ALL_GREEN": "Only 2, 3, 4, 6, 8 of bamboo and the Green Dragon, in chows, "
    "pungs and the pair; without a Green it also scores Full Flush.",
    "NINE_GATES": "1112345678999 of one suit held concealed, winning on any tile "
    "of that suit.",
    "FOUR_KONGS": "Four kongs, melded or concealed.",
    "SEVEN_SHIFTED_PAIRS": "Seven pairs of one suit in consecutive numbers.",
    "THIRTEEN_ORPHANS": "One each of the 1s and 9s of the three suits and of the "
    "seven honours, plus a second copy of any one of them.",
    # 64
    "ALL_TERMINALS": "Pungs (or kongs) and a pair of 1s and 9s only.",
    "LITTLE_FOUR_WINDS": "Pungs (or kongs) of three winds and a pair of the fourth.",
    "LITTLE_THREE_DRAGONS": "Pungs (or kongs) of two dragons and a pair of the third.",
    "ALL_HONORS": "Pungs (or kongs) and a pair of honours only.",
    "FOUR_CONCEALED_PUNGS": "Four pungs (or kongs) made without claiming.",
    "PURE_TERMINAL_CHOWS": "Two 123 and two 789 chows of one suit with a pair of "
    "5s of the same suit.",
    # 48
    "QUADRUPLE_CHOW": "Four identical chows of one suit.",
    "FOUR_PURE_SHIFTED_PUNGS": "Four pungs of one suit in consecutive numbers.",
    # 32
    "FOUR_PURE_SHIFTED_CHOWS": "Four chows of one suit, each one or each two "
    "numbers above the last.",
    "THREE_KONGS": "Three kongs, melded or concealed.",
    "ALL_TERMINALS_AND_HONORS": "Pungs and a pair made only of 1s, 9s and honours.",
    # 24
    "SEVEN_PAIRS": "Seven pairs (four of a kind counts as two pairs).",
    "GREATER_HONORS_AND_KNITTED_TILES": "All seven honours and seven suited tiles "
    "from 147, 258 and 369 in different suits, all single, with no pair.",
    "ALL_EVEN_PUNGS": "Pungs and a pair of 2s, 4s, 6s and 8s only.",
    "FULL_FLUSH": "Only tiles of one suit, no honours.",
    "PURE_TRIPLE_CHOW": "Three identical chows of one suit.",
    "PURE_SHIFTED_PUNGS": "Three pungs of one suit in consecutive numbers.",
    "UPPER_TILES": "Only suited 7s, 8s and 9s.",
    "MIDDLE_TILES": "Only suited 4s, 5s and 6s.",
    "LOWER_TILES": "Only suited 1s, 2s and 3s.",
    # 16
    "PURE_STRAIGHT": "123, 456 and 789 of one suit.",
    "THREE_SUITED_TERMINAL_CHOWS": "A 123 and a 789 chow in each of two suits and a "
    "pair of 5s of the third.",
    "PURE_SHIFTED_CHOWS": "Three chows of one suit, each one or each two numbers "
    "above the last.",
    "ALL_FIVES": "Every set and the pair contain a suited 5.",
    "TRIPLE_PUNG": "Pungs of the same number in all three suits.",
    "THREE_CONCEALED_PUNGS": "Three pungs (or kongs) made without claiming.",
    # 12
    "LESSER_HONORS_AND_KNITTED_TILES": "Fourteen single tiles from honours and from "
    "147, 258 and 369 in different suits, with no pair.",
    "KNITTED_STRAIGHT": "147, 258 and 369 each in a different suit, plus a set and a "
    "pair.",
    "UPPER_FOUR": "Only suited 6s to 9s.",
    "LOWER_FOUR": "Only suited 1s to 4s.",
    "BIG_THREE_WINDS": "Pungs (or kongs) of three winds.",
    # 8
    "MIXED_STRAIGHT": "123, 456 and 789, each in a different suit.",
    "REVERSIBLE_TILES": "Only tiles that look the same upside down: 1234589 of "
    "dots, 245689 of bamboo and the White Dragon.",
    "MIXED_TRIPLE_CHOW": "Chows of the same numbers in all three suits.",
    "MIXED_SHIFTED_PUNGS": "Pungs in the three suits, in consecutive numbers.",
    "CHICKEN_HAND": "A winning hand that scores no other fan (flowers aside).",
    "LAST_TILE_DRAW": "Winning on the last tile of the wall, self-drawn.",
    "LAST_TILE_CLAIM": "Winning on the last discard.",
    "OUT_WITH_REPLACEMENT_TILE": "Winning on the tile drawn after a kong (not after "
    "a flower).",
    "ROBBING_THE_KONG": "Winning on the tile the opponent adds to a melded pung.",
    # 6
    "TWO_CONCEALED_KONGS": "Two concealed kongs.",
    "ALL_PUNGS": "Four pungs (or kongs) and a pair.",
    "HALF_FLUSH": "Tiles of one suit and honours only.",
    "MIXED_SHIFTED_CHOWS": "Chows in the three suits, each one number above the last.",
    "ALL_TYPES": "Characters, dots, bamboo, winds and dragons all in the hand.",
    "MELDED_HAND": "Every set claimed, winning on the opponent's discard with a "
    "single wait for the pair.",
    "TWO_DRAGON_PUNGS": "Pungs (or kongs) of two dragons.",
    # 4
    "OUTSIDE_HAND": "Every set and the pair hold a 1, a 9 or an honour.",
    "FULLY_CONCEALED_HAND": "No claimed set, winning on a self-drawn tile.",
    "TWO_MELDED_KONGS": "Two melded kongs.",
    "LAST_TILE": "Winning on the last copy of a tile, the other three being in view.",
    # 2
    "DRAGON_PUNG": "A pung (or kong) of a dragon.",
    "PREVALENT_WIND": "A pung (or kong) of the round wind.",
    "SEAT_WIND": "A pung (or kong) of your seat wind (the dealer sits East).",
    "CONCEALED_HAND": "No chow, pung or melded kong claimed, winning on a discard.",
    "ALL_CHOWS": "Four chows and a suited pair; the wait does not matter.",
    "TILE_HOG": "All four copies of a tile used in sets and the pair, not as a kong.",
    "DOUBLE_PUNG": "Pungs of the same number in two suits.",
    "TWO_CONCEALED_PUNGS": "Two pungs (or kongs) made without claiming.",
    "CONCEALED_KONG": "A kong of four tiles drawn by yourself.",
    "ALL_SIMPLES": "No 1s, 9s or honours.",
    # 1
    "PURE_DOUBLE_CHOW": "Two identical chows of one suit.",
    "MIXED_DOUBLE_CHOW": "Chows of the same numbers in two suits.",
    "SHORT_STRAIGHT": "Two chows of one suit making six consecutive numbers.",
    "TWO_TERMINAL_CHOWS": "A 123 and a 789 chow of one suit.",
    "PUNG_OF_TERMINALS_OR_HONORS": "A pung (or kong) of 1s, 9s or an honour not "
    "scored as a wind or dragon pung.",
    "MELDED_KONG": "A kong made from a claimed tile or added to a melded pung.",
    "ONE_VOIDED_SUIT": "One of the three suits missing.",
    "NO_HONORS": "No winds or dragons.",
    "EDGE_WAIT": "Winning only on the 3 of 12 or the 7 of 89.",
    "CLOSED_WAIT": "Winning only on the middle tile of a chow.",
    "SINGLE_WAIT": "Winning only on the tile that completes the pair.",
    "SELF_DRAWN": "Winning on a tile you draw yourself.",
    "FLOWER_TILES": "One fan for each flower set aside; counted only after a win, "
    "not toward the minimum.",
    # two-player fans (seeds 000 and 001)
    "BIG_SEVEN_STARS": "Seven pairs of the seven honours: East, South, West, North, "
    "White, Green and Red.",
    "FOUR_WINDS_SEVEN_PAIRS": "Seven pairs including pairs of all four winds.",
    "THREE_DRAGONS_SEVEN_PAIRS": "Seven pairs including pairs of all three dragons.",
    "HEAVENLY_HAND": "The dealer wins on the deal (after replacing flowers); not "
    "after a concealed kong.",
    "EARTHLY_HAND": "The non-dealer wins on the first tile drawn (a flower's "
    "replacement counts); not when anyone has chowed, punged or konged before.",
    "HUMAN_HAND": "The non-dealer wins on the dealer's first discard; not after a "
    "concealed kong by the dealer.",
    "HEAVENLY_READY": "Ready declared at the first chance: the dealer with the first "
    "discard, the non-dealer right after the deal; scored only with a win.",
    "LITTLE_THREE_WINDS": "Pungs (or kongs) of two winds and a pair of a third.",
    "READY_FIRST_DISCARD": "After declaring ready, winning on the opponent's first "
    "discard.",
    "NO_FLOWERS": "Not a single flower drawn.",
    "READY_HAND": "A win after declaring ready.",
    "FOUR_PLANTS": "All four plant flowers: plum, orchid, chrysanthemum, bamboo.",
    "FOUR_SEASONS": "All four season flowers: spring, summer, autumn, winter.",
    "ALL_FLOWERS": "All eight flowers.",
    "BONUS_TILE": "The hand holds the bonus tile drawn before the hand (melds "
    "included): 10 extra fan at settlement.",
    "TWO_FIVE_EIGHT_PAIR": "The pair is a suited 2, 5 or 8.",
    "SEAT_FLOWER": "A flower of your seat's number (East: spring and plum; West: "
    "autumn and bamboo), one fan each.",
    "TERMINAL_PAIR": "The pair is a suited 1 or 9.",
    "BIG_WHEELS": "Pairs of 2 to 8 of dots: 22 33 44 55 66 77 88.",
}
