"""Shared examples, by fan id.

Hands use 万 and honours wherever the pattern allows, so that the one-suit
rule sets (``erren``, ``erren64``; ``jj`` reads them in 条) show the same
hand as ``mcr``; patterns that need more suits use them (those fans exist
only in the rule sets with all suits).  Every hand reaches the 8-fan minimum
of the rule sets that have its fan.
"""

from __future__ import annotations

from .base import Example, ex

EAST, SOUTH, WEST = "1z", "2z", "3z"

COMMON: dict[str, Example] = {
    # 88
    "BIG_FOUR_WINDS": ex("1112223334445z5z"),
    "BIG_THREE_DRAGONS": ex("123m555666777z11m"),
    "ALL_GREEN": ex("234234666888s6z6z"),
    "NINE_GATES": ex("1112345678999m5m"),
    "FOUR_KONGS": ex("[1111m][2222m][3333m][4444z]5z5z"),
    "SEVEN_SHIFTED_PAIRS": ex("1122334455667m7m"),
    "THIRTEEN_ORPHANS": ex("19m19p19s1234567z1m"),
    # 64
    "ALL_TERMINALS": ex("111999m111999p99s"),
    "LITTLE_FOUR_WINDS": ex("123m111222333z44z"),
    "LITTLE_THREE_DRAGONS": ex("123456m555666z77z"),
    "ALL_HONORS": ex("111222333555z77z"),
    "FOUR_CONCEALED_PUNGS": ex("111333555777m99m"),
    "PURE_TERMINAL_CHOWS": ex("123123789789m55m"),
    # 48
    "QUADRUPLE_CHOW": ex("123123123123m99m"),
    "FOUR_PURE_SHIFTED_PUNGS": ex("111222333444m99m"),
    # 32
    "FOUR_PURE_SHIFTED_CHOWS": ex("123234345456m99m"),
    "THREE_KONGS": ex("[1111m][2222m][3333z]456m9m9m"),
    "ALL_TERMINALS_AND_HONORS": ex("[111m][999m]111222z33z"),
    # 24
    "SEVEN_PAIRS": ex("1133557799m1122z"),
    "GREATER_HONORS_AND_KNITTED_TILES": ex("147m25p39s1234567z"),
    "ALL_EVEN_PUNGS": ex("222444m666p888s22s"),
    "FULL_FLUSH": ex("123234666789m99m"),
    "PURE_TRIPLE_CHOW": ex("[234m][234m]234789m55m"),
    "PURE_SHIFTED_PUNGS": ex("[111m][222m]333789m55m"),
    "UPPER_TILES": ex("789m789p777999s88p"),
    "MIDDLE_TILES": ex("444456m456p456s55s"),
    "LOWER_TILES": ex("111123m123p123s22s"),
    # 16
    "PURE_STRAIGHT": ex("123456789m111z22z"),
    "THREE_SUITED_TERMINAL_CHOWS": ex("123789m123789p55s"),
    "PURE_SHIFTED_CHOWS": ex("123234345999m11z"),
    "ALL_FIVES": ex("345m456p555567s55m"),
    "TRIPLE_PUNG": ex("222345m222p222s99m"),
    "THREE_CONCEALED_PUNGS": ex("[789m]111333555m99m"),
    # 12
    "LESSER_HONORS_AND_KNITTED_TILES": ex("147m258p369s12345z"),
    "KNITTED_STRAIGHT": ex("147m258p369s111z22z"),
    "UPPER_FOUR": ex("666678789789m99m"),
    "LOWER_FOUR": ex("111123234234m44m"),
    "BIG_THREE_WINDS": ex("123m111222333z99m"),
    # 8
    "MIXED_STRAIGHT": ex("123m456p789s111z22z"),
    "REVERSIBLE_TILES": ex("123345999p456s55z"),
    "MIXED_TRIPLE_CHOW": ex("123999m123p123s55z"),
    "MIXED_SHIFTED_PUNGS": ex("111789m222p333s55z"),
    "CHICKEN_HAND": ex("[123m][345p][678s]45s55z6s"),
    "LAST_TILE_DRAW": ex("123456789m111z22z", self_drawn=True, wall_last=True),
    "LAST_TILE_CLAIM": ex("123456789m111z22z", wall_last=True),
    "OUT_WITH_REPLACEMENT_TILE": ex("[1111z]123456789m22z", self_drawn=True, kong=True),
    "ROBBING_THE_KONG": ex("12345678m111z22z9m", kong=True),
    # 6
    "TWO_CONCEALED_KONGS": ex("[1111m]*[2222z]*345678m99m"),
    "ALL_PUNGS": ex("[111m][222z]333m444z55z"),
    "HALF_FLUSH": ex("123345789m111z22z"),
    "MIXED_SHIFTED_CHOWS": ex("123m99m234p345s777z"),
    "ALL_TYPES": ex("123m345p678s111z55z"),
    "MELDED_HAND": ex("[123m][456m][789m][111z]55z"),
    "TWO_DRAGON_PUNGS": ex("123456m555666z99m"),
    # 4
    "OUTSIDE_HAND": ex("123789999m111z11m"),
    "FULLY_CONCEALED_HAND": ex("123456789m111z22z", self_drawn=True),
    "TWO_MELDED_KONGS": ex("[5555z][6666z]123456m99m"),
    "LAST_TILE": ex("12345678m111z22z9m", last_tile=True),
    # 2
    "DRAGON_PUNG": ex("123456789m777z11z"),
    "PREVALENT_WIND": ex("123456789m222z11z", round_wind=SOUTH),
    "SEAT_WIND": ex("123456789m333z11z", seat_wind=WEST),
    "CONCEALED_HAND": ex("123456789m111z22z"),
    "ALL_CHOWS": ex("123234456789m55m"),
    "TILE_HOG": ex("111123456789m55m"),
    "DOUBLE_PUNG": ex("222m222p111z789s55s"),
    "TWO_CONCEALED_PUNGS": ex("[123m][456m]555666z99m"),
    "CONCEALED_KONG": ex("[5555z]*123456789m11z"),
    "ALL_SIMPLES": ex("234345456678m22m"),
    # 1
    "PURE_DOUBLE_CHOW": ex("123123456789m11z"),
    "MIXED_DOUBLE_CHOW": ex("[123m]123p555666z99s"),
    "SHORT_STRAIGHT": ex("123456m111z777z99m"),
    "TWO_TERMINAL_CHOWS": ex("123789m111z777z99m"),
    "PUNG_OF_TERMINALS_OR_HONORS": ex("111456789m222z33z"),
    "MELDED_KONG": ex("[1111z]123456789m22z"),
    "ONE_VOIDED_SUIT": ex("123m789p555666z11m"),
    "NO_HONORS": ex("123222m456p789s55p"),
    "EDGE_WAIT": ex("12456789m111z22z3m"),
    "CLOSED_WAIT": ex("13456789m111z22z2m"),
    "SINGLE_WAIT": ex("123456789m111z2z2z"),
    "SELF_DRAWN": ex("[123m]456789m111z22z", self_drawn=True),
    "FLOWER_TILES": ex("123456789m111z22z+1f"),
    # two-player fans (seeds 000, 001)
    "BIG_SEVEN_STARS": ex("1122334455667z7z"),
    "FOUR_WINDS_SEVEN_PAIRS": ex("112233m11223344z"),
    "THREE_DRAGONS_SEVEN_PAIRS": ex("11223344m556677z"),
    "HEAVENLY_HAND": ex("123456789m111z22z", self_drawn=True, heavenly=True),
    "EARTHLY_HAND": ex(
        "123456789m111z22z", self_drawn=True, earthly=True, seat_wind=WEST
    ),
    "HUMAN_HAND": ex("123456789m111z22z", human=True, seat_wind=WEST),
    "HEAVENLY_READY": ex("123456789m111z22z", heavenly_ready=True),
    "LITTLE_THREE_WINDS": ex("123456m111222z33z"),
    "READY_FIRST_DISCARD": ex("123456789m111z22z", ready_first=True),
    "NO_FLOWERS": ex("123456789m111z22z"),
    "READY_HAND": ex("123456789m111z22z", ready=True),
    "FOUR_PLANTS": ex("123456789m111z22z+5678f"),
    "FOUR_SEASONS": ex("123456789m111z22z+1234f"),
    "ALL_FLOWERS": ex("123456789m111z22z+12345678f"),
    "BONUS_TILE": ex("123456789m111z22z", bonus_tiles="5m"),
    "TWO_FIVE_EIGHT_PAIR": ex("123456789m111z55m"),
    "SEAT_FLOWER": ex("123456789m111z22z+1f"),
    "TERMINAL_PAIR": ex("123456789m111z99m"),
    "BIG_WHEELS": ex("2233445566778p8p"),
}
