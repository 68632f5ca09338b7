"""The `sixes` command (cli.py) and what its commands share: the build
context (context.py), the one writer of an output folder (output.py), and
build, pack, serve, watch and deploy, each a short sequence over them. The
top floor: may import every other folder."""
