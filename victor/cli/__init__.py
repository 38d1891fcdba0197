"""The `victor` command (also `python -m victor`, and the scripts clean.py,
learn.py and annotate.py): its arguments, and what each subcommand does
once they are parsed. Kept apart from the stages so that no stage knows
about terminals or exit codes.

    victor clean [--config NAME] [--format F] [-o DIR] PAGES...
    victor learn [--config NAME] -o MODEL FILES.anno...
    victor annotate [--config NAME] PAGE.html PAGE.anno
    victor lm train -o LM.arpa.gz TEXTS...
"""

from victor.cli.commands import COMMANDS, main, parser, script

__all__ = ["COMMANDS", "main", "parser", "script"]
