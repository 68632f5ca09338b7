"""`python -m generator` runs the `sixes` command (handy in a worktree or without the script)."""
from .commands.cli import main

if __name__ == "__main__":      # not when a rendering worker starts up (render/pdf/batch.py spawns them)
    main()
