"""The human client of Hacker (seed 004): its screen, its menu, its words (EN/DE) and an in-process game against
bots. It works from what a table gives a player: `hacker.api.view(state, seat)`, the seat's legal events and the
public account (`view.history`)."""
