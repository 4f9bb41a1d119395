"""The human client of Classified Information (seed 003): its screen, its staged menu, its words (EN/DE; the German
texts are ours), the offline game against the bots and the commands' parts (`cards`, `rules`, `sim`, `play
--offline`). It works from what a table gives a player: `engine.classified.api.view(state, seat)`, the seat's legal
events and the public account (`view.history`)."""
