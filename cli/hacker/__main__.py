"""`python -m adp2p.cli.hacker`: a local Hacker game against bots in this terminal (cli/hacker/cmd.py)."""

import argparse
import sys

from adp2p.cli.hacker.cmd import add_args, run

parser = argparse.ArgumentParser(prog="python -m adp2p.cli.hacker", description="Hacker against bots, locally")
add_args(parser)
sys.exit(run(parser.parse_args()))
