"""The `sixes` command: cli.py declares its options, and each verb has its
own module (check, build, pack, cast, serve, watch, deploy, tracker, new, clean,
schema, simulate), a short sequence over what they share: where a command
works (locate.py), how it fails (failures.py), its progress (progress.py),
the build context (context.py) and the one writer of an output folder
(output.py). The top floor: may import every other folder."""
