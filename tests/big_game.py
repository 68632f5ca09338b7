"""A 24-player Sixes game of our own making, for the pack's tests and for
looking at a real-sized pack: `python tests/big_game.py FOLDER` writes a game
folder (sixes.yaml, sixes/, casting.yaml, handouts/) that `sixes check` and
`sixes pack` run in.

The character files are named so that file order and envelope order differ
("big-anton-kral.yaml" sorts between "annie-..." and "aurelio-..."), every
background has paragraphs and single line breaks, and the casting file puts
the envelopes in an order of its own.
"""
from __future__ import annotations

import sys
from pathlib import Path

TITLE = "The Last Night of the Marchetti Circus: A Sixes LARP"
FACTIONS = ("The Ring", "The Menagerie", "The Creditors", "The Town")
# (character, player) in envelope order; files are named after the characters.
CAST = (
    ("Big Anton Kral", "Maria Lindqvist"), ("Annie Marchetti", "Tom Okafor"), ("Aurelio Brandt", "Sam Dale"),
    ("Clementine Roux", "Priya Raman"), ("Dmitri Volkov", "Jonas Weber"), ("Esme Farrow", "Alex Morgan"),
    ("Felix Quint", "Robin Ash"), ("Greta Lund", "Chen Wei"), ("Hugo Marchetti", "Fatima Haddad"),
    ("Ida Sorensen", "Lukas Novak"), ("Jasper Crane", "Noor Khalil"), ("Katya Ilic", "Ben Carter"),
    ("Leopold Hart", "Sofia Rossi"), ("Mina Okonkwo", "Daniel Kim"), ("Nils Berg", "Hannah Schmidt"),
    ("Olive Dunmore", "Kwame Mensah"), ("Pietro Salvi", "Emma Dubois"), ("Queenie Lark", "Oskar Nilsson"),
    ("Rafael Costa", "Yuki Tanaka"), ("Selma Vidal", "Marco Bianchi"), ("Theo Wren", "Aisha Bello"),
    ("Ursula Pike", "Jan Kowalski"), ("Viktor Adler", "Lena Fischer"), ("Wanda Marchetti", "Ravi Patel"),
)
SPECIALS = ("Heal", "Steady Guard")


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def background(name: str, k: int) -> str:
    """Two paragraphs; the first has a line break after a sentence and a
    wrapped line that must flow on."""
    return (f"You came to the circus for this job.\n"
            f"Goals: find the ledger before the last show ends and keep\n"
            f"your own name out of it.\n"
            f"\n"
            f"{name} owes the ringmaster {k + 3} crowns. Nobody else knows.")


def write_game(folder: Path, players: int = len(CAST), handout: bool = True) -> Path:
    """The game folder, with `players` characters cast in envelope order."""
    folder = Path(folder)
    (folder / "sixes" / "characters").mkdir(parents=True)
    (folder / "sixes.yaml").write_text('site:\n  name: "Marchetti"\npaper: a4\noutput: output\n', encoding="utf-8")
    (folder / "sixes" / "game.yaml").write_text(
        f'title: "{TITLE}"\nblurb: The circus plays its last night; everyone wants the ledger.\n'
        f"players: {players}\ngm_notes: |\n  The ledger is in the lion's wagon.\n  Nobody looks there.\n",
        encoding="utf-8")
    (folder / "sixes" / "specials.yaml").write_text(
        "specials:\n"
        "  - name: Heal\n    rule: Your target regains hit points equal to your Effect.\n    usage: unlimited\n"
        "    effect: heal\n"
        "  - name: Steady Guard\n    rule: Your Defend Other action has +1 Effect.\n    usage: unlimited\n"
        "    adds_effect: {defend_other: 1}\n", encoding="utf-8")
    from generator.systems.sixes import SYSTEM
    (folder / "sixes" / "actions.yaml").write_text((SYSTEM.starter / "actions.yaml").read_text(encoding="utf-8"),
                                                   encoding="utf-8")
    for k, (name, _) in enumerate(CAST[:players]):
        text = background(name, k).replace("\n", "\n  ")
        (folder / "sixes" / "characters" / f"{slug(name)}.yaml").write_text(
            f"name: {name}\nfaction: {FACTIONS[k % len(FACTIONS)]}\n"
            f"description: A performer with debts and a secret.\n"
            f"background: |\n  {text}\n"
            f"hit_points: {4 + k % 3}\narmour: {k % 2}\ndamage: {k % 2}\nspecials: [{SPECIALS[k % 2]}]\n",
            encoding="utf-8")
    lines = ["system: sixes", "envelopes:"]
    for k, (name, player) in enumerate(CAST[:players]):
        lines += [f"  - player: {player}", f"    character: {name}"]
        if handout and k == 0:
            lines.append("    handouts: [handouts/ledger-page.pdf]")
    (folder / "casting.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    if handout:
        from pypdf import PdfWriter
        writer = PdfWriter()
        writer.add_blank_page(595.28, 841.89)        # A4
        (folder / "handouts").mkdir()
        with open(folder / "handouts" / "ledger-page.pdf", "wb") as handle:
            writer.write(handle)
    return folder


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    print(write_game(Path(sys.argv[1])))
