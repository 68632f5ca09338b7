"""A word of thousands of letters is measured at once, and as before.

`check` of a game whose every name was one word of 2,000 letters ran for
ten minutes (tests/test_name_fit.py's D6xD6 case): the measure hyphenated
the whole rest of the word once per line it took (core/measure.py), and
the lookup card's legend tried its longest name at every length
(render/fit/lookup_fit.py). Now only the start a line could hold is
hyphenated, and lengths the letters alone rule out are skipped. Each is
held to its CPU time and, on many random words and legends, to the answer
the whole computation gives.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from cpu_time import cpu_time
from generator.core import measure
from generator.core.i18n import speaking, words_for
from generator.render.fit.lookup_fit import LegendBox

LANGUAGES = ("en", "fr", "de")
PIECES = ["ver", "wal", "tung", "schaft", "ge", "keit", "lich", "an", "ti", "con", "sti", "tion", "ment", "ck",
          "sch", "ung", "x", "W", "i", "ß", "é", "œ"]


def whole_word_start(token: str, room: float, face) -> str | None:
    """What measure._hyphenated answered when it hyphenated the whole word."""
    word = measure._HYPHENABLE.match(token)
    if face.dictionary is None or word is None:
        return None
    for start, _end in face.dictionary.iterate(word.group(2)):
        if face.width(word.group(1) + start + measure.HYPHEN) <= room:
            return word.group(1) + start
    return None


def whole_word_lines(word: str, face) -> int:
    """Lines one word takes alone, as measure._set_word set it before:
    every line's test over the whole rest, every cut from all the pieces."""
    added, rest = 0, word
    while face.width(rest) > face.width_mm:
        head = whole_word_start(rest, face.width_mm, face)
        if head is None:
            advances = measure._advances(face.weight, face.italic)
            room = face.width_mm * measure.PT_PER_MM / face.size_pt
            used, count = 0.0, 0
            for count, char in enumerate(rest):
                used += advances.get(char, measure._FALLBACK_EM)
                if count and used > room:
                    break
            head = rest[:count] if count and used > room else rest
        rest, added = rest[len(head):], added + 1
    return added + 1


def random_word(rng: random.Random, most: int) -> str:
    word = "".join(rng.choice(PIECES) for _ in range(rng.randint(2, most)))
    return word.upper() if rng.random() < 0.15 else word


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_start_of_a_long_word_breaks_where_the_whole_word_does(language):
    rng = random.Random(language)
    dictionary = measure.dictionary_for(language)
    for _ in range(500):
        token = rng.choice(["", "(", "«"]) + random_word(rng, 120) + rng.choice(["", ".", ","])
        face = measure._Face(rng.choice([7, 9, 9.5]), rng.choice([400, 700]), rng.random() < 0.3,
                             rng.uniform(5, 80), dictionary)
        room = rng.uniform(0, face.width_mm)
        assert measure._hyphenated(token, room, face) == whole_word_start(token, room, face), (token, room)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_long_word_takes_the_lines_it_took_when_measured_whole(language):
    rng = random.Random(language)
    with speaking(words_for(language)):
        for _ in range(60):
            word, width, size = random_word(rng, 150), rng.uniform(8, 60), rng.choice([7, 9])
            face = measure._Face(size, 400, False, width * measure.FILL, measure.dictionary_for(language))
            assert measure.line_count(word, width, size) == whole_word_lines(word, face), (word, width)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_word_of_6000_letters_is_measured_at_once(language):
    """It took seconds (the whole rest hyphenated, and summed, line after line)."""
    with speaking(words_for(language)):
        measure.line_count("Warmup" * 3, 14.4, 9)        # the dictionary and the fonts, read once
        lines, seconds = cpu_time(measure.line_count, "Punchorkick" + "x" * 6000, 14.4, 9, weight=700)
    assert lines > 500 and seconds < 1.0, (lines, seconds)


@dataclass(frozen=True)
class Rung:
    abbr: str
    name: str


def legend_box(names: list[str], width: float, height: float) -> LegendBox:
    ladder = (Rung("-", "Unhurt"), *(Rung(f"L{i}", name) for i, name in enumerate(names)))
    return LegendBox("the legend", width, height, (), ladder=ladder,
                     locs=tuple(("levels", i, "name") for i in range(len(names))))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_legends_limit_is_the_longest_start_that_fits(language):
    rng = random.Random(language)
    with speaking(words_for(language)):
        for _ in range(40):
            names = [random_word(rng, rng.choice([3, 20, 60])) for _ in range(rng.randint(2, 6))]
            box, i = legend_box(names, rng.uniform(40, 90), rng.uniform(4, 30)), rng.randrange(len(names))
            every_length = max((k for k in range(len(names[i]) + 1)
                                if box.fits([*names[:i], names[i][:k], *names[i + 1:]])), default=-1)
            assert box._most_letters(names, i) == every_length, (names, i, box.width_mm, box.height_mm)


def test_the_legends_limits_for_names_of_2000_letters_are_found_at_once():
    """Each name was tried at each of its 2,001 lengths: half a minute."""
    box = legend_box(["Scratch" + "x" * 2000, "Wound" + "x" * 2000, "Down" + "x" * 2000], 56.8, 20.0)
    box.too_long()                                        # the fonts, read once
    found, seconds = cpu_time(box.too_long)
    assert [long.over for long in found] and seconds < 1.0, (found, seconds)


def test_a_labels_one_line_count_is_the_longest_start_that_fits():
    """labels.one_line searches by halves: the same count as trying every
    length (each start of random titles), and a title of thousands of
    letters is answered without a measure per letter."""
    from generator.render.fit.labels import FILL, LINE_PT, PAD_X, one_line
    rng = random.Random(7)
    letters = "abcdefghij KLMNOPQ éüßœ-WWWiii"
    for _ in range(60):
        title = "".join(rng.choice(letters) for _ in range(rng.randrange(0, 90)))
        width = rng.choice((45.7, 63.5, 66.7))
        room = (width - 2 * PAD_X) * FILL
        every = max((k for k in range(len(title) + 1) if measure.text_width(title[:k], LINE_PT) <= room), default=0)
        assert one_line(title, width) == every, title
    count, took = cpu_time(one_line, "W" * 20_000, 63.5)
    assert count > 0 and took < 1.0
