"""The deduction bot (`DeductionBot`, bot.py), in parts: learning.py (the checklist and answers), values.py (what things
are worth to it), acting.py (attempts and card plays), choices.py (every other decision); common.py (its tables).
"""

from adp2p.engine.access_denied.bots.deduction.bot import DeductionBot

__all__ = ["DeductionBot"]
