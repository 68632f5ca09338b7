"""`python -m generator` runs the `sixes` command (handy in a worktree or without the script)."""
from .cli import main

main()
