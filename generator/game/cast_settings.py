"""What the organisers say about casting: the `casting:` section of
sixes.yaml (the questionnaire's columns and the hard rules), and the shape
of a questionnaire written as YAML instead of a form's CSV.

Game layer: models only, validated like every settings file (file:line:col,
a JSON Schema for editors). Names in them (characters, players) are matched
later, against the game and the answers, by cast_rules.py.

    casting:
      columns:                       # headers of the form's export (default: Name, and a Timestamp if present)
        player: Your name
        choices: [First choice, Second choice, Third choice]   # one column per rank, or one holding a list
        grid: Rank the characters    # or a grid question: columns `Rank the characters [Ned Tregarth]`…
        refuses: [Characters you will not play]
        avoids: [Players you would rather not be cast opposite]
        attributes: [Pronouns]       # kept for quotas; every other column is never read
      precast: {Ned Tregarth: Alex Morgan}
      opposite: [[Ned Tregarth, Mercy Pascoe]]     # characters who face each other in play
      apart: [[Alex Morgan, Sam Lee]]              # players never cast on two opposite characters
      quotas:
        - {characters: [Edmund Carrow, Judith Carrow], asked: true, at_most: 1}
      seed: 1
"""
from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from ..core.text import NAME
from ..core.validation import DataModel

Name = Annotated[str, NAME]
Pair = Annotated[list[Name], Field(min_length=2, max_length=2)]
MAX_RULES = 500             # of each kind: a large convention's worth
MAX_COLUMNS = 50


class AnswerColumns(DataModel):
    player: Name = Field(default="Name", min_length=1, max_length=200,
                         description="The header of the column holding each player's name.")
    timestamp: Name | None = Field(default=None, max_length=200, description=(
        "The header of the time each answer was sent, to keep a player's latest answer (default: a column "
        "called Timestamp, Completion time or Start time, if there is one)."))
    choices: list[Name] = Field(default_factory=lambda: ["Choices"], min_length=1, max_length=MAX_COLUMNS,
                                description="Headers of the ranked choices: one column per rank, best first, or "
                                            "one column whose cells list characters best first (a, b, c).")
    grid: Name | None = Field(default=None, max_length=500, description=(
        "A grid question ranking the characters, as a form exports it: one column per character headed "
        "`QUESTION [Character]`, each cell the rank (1, 1st choice, First…). Give the QUESTION; the grid is "
        "read instead of `choices` unless those are given too (then the grid's ranks come after them)."))
    refuses: list[Name] = Field(default_factory=list, max_length=MAX_COLUMNS,
                                description="Headers of columns listing characters the player will not play.")
    avoids: list[Name] = Field(default_factory=list, max_length=MAX_COLUMNS, description=(
        "Headers of columns listing players this player must not be cast opposite (see `opposite`)."))
    attributes: list[Name] = Field(default_factory=list, max_length=MAX_COLUMNS, description=(
        "Headers of columns kept for quotas (e.g. a pronouns question). No other column is ever read."))


class Quota(DataModel):
    label: str | None = Field(default=None, max_length=200, description="How the report names this rule.")
    characters: list[Name] | None = Field(default=None, max_length=MAX_RULES,
                                          description="The characters counted (default: every character).")
    players: list[Name] | None = Field(default=None, max_length=MAX_RULES,
                                       description="Only these players are counted (default: every player).")
    attribute: Name | None = Field(default=None, description="Only players whose answer in this attribute column…")
    values: list[Name] = Field(default_factory=list, max_length=MAX_COLUMNS,
                               description="…is one of these (compared without case).")
    asked: bool = Field(default=False, description="Only a player who listed the character among their choices.")
    at_least: int | None = Field(default=None, ge=0, le=10_000, description="At least this many counted.")
    at_most: int | None = Field(default=None, ge=0, le=10_000, description="At most this many counted.")

    @model_validator(mode="after")
    def _bounded(self) -> "Quota":
        if self.at_least is None and self.at_most is None:
            raise ValueError("a quota needs at_least or at_most (or both)")
        if self.at_least is not None and self.at_most is not None and self.at_least > self.at_most:
            raise ValueError(f"at_least ({self.at_least}) is more than at_most ({self.at_most})")
        if (self.attribute is None) != (not self.values):
            raise ValueError("`attribute` and `values` go together: the column, and the answers counted")
        return self


class CastingSettings(DataModel):
    columns: AnswerColumns = Field(default_factory=AnswerColumns,
                                   description="Which columns of the questionnaire's CSV hold what.")
    precast: dict[Name, Name] = Field(default_factory=dict, max_length=MAX_RULES,
                                      description="Characters the organisers cast themselves: character -> player.")
    opposite: list[Pair] = Field(default_factory=list, max_length=MAX_RULES, description=(
        "Pairs of characters who face each other in play (rivals, lovers, a duel): two players kept `apart` "
        "are never cast on such a pair."))
    apart: list[Pair] = Field(default_factory=list, max_length=MAX_RULES, description=(
        "Pairs of players who must not be cast opposite each other (added to the questionnaire's avoids)."))
    quotas: list[Quota] = Field(default_factory=list, max_length=MAX_RULES,
                                description="Counts the casting must keep: at least / at most so many.")
    seed: int = Field(default=1, ge=0, le=2 ** 31, description="Breaks ties; the same seed casts the same way.")


class AnsweredPlayer(DataModel):
    name: Name = Field(min_length=1, max_length=200, description="The player's name, as on the envelope.")
    choices: list[Name] = Field(default_factory=list, max_length=MAX_RULES, description="Characters, best first.")
    refuses: list[Name] = Field(default_factory=list, max_length=MAX_RULES,
                                description="Characters they will not play.")
    avoids: list[Name] = Field(default_factory=list, max_length=MAX_RULES,
                               description="Players they must not be cast opposite.")
    attributes: dict[Name, Name] = Field(default_factory=dict, max_length=MAX_COLUMNS,
                                         description="Answers kept for quotas, by attribute.")


class QuestionnaireFile(DataModel):
    players: list[AnsweredPlayer] = Field(min_length=1, max_length=5000,
                                          description="Each player's answers (a questionnaire written as YAML).")
