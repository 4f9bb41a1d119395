// Access Denied's drawing: the board as the terminal's tables (sectors, players, piles) and the player's own cards
// (hand, password, upgrades) as SVG cards from the card data. A card that some choice uses is a button: clicking it
// narrows the choices to those that use it (a password or the cards to discard are picked card by card).
import { cardElement } from "./cards.js";

const BANDS = { Reaction: "#2a7f62", Upgrade: "#33658a", Harmful: "#b23a48", Virus: "#7b2d8b",
                Reaktion: "#2a7f62", "Schädlich": "#b23a48", "Sektorkarte": "#8a6d1f", "Sector card": "#8a6d1f" };

function styleOf(c) {
  for (const k of c.kinds || []) if (BANDS[k]) return { band: BANDS[k] };
  return { band: "#264653" };
}

function section(parent, title, cls) {
  const s = document.createElement("div");
  s.className = "panel " + (cls || "");
  if (title) { const h = document.createElement("h2"); h.textContent = title; s.appendChild(h); }
  parent.appendChild(s);
  return s;
}

function pre(parent, text, label) {
  const p = document.createElement("pre");
  p.textContent = text;
  if (label) p.setAttribute("aria-label", label);
  parent.appendChild(p);
}

export function drawBoard(el, b, w) {
  const top = section(el, "", "piles");
  pre(top, b.piles);
  pre(section(el, "", "sectors"), b.sectors, w.board);
  pre(section(el, w.players, "players"), b.players, w.players);
}

function row(parent, cards, w, ctx, notes = {}) {
  const r = document.createElement("div");
  r.className = "cards";
  for (const c of cards) {
    const sel = ctx.selectable(c.h);
    r.appendChild(cardElement(c, w, styleOf(c), {
      selectable: sel, picked: ctx.picked(c.h), onClick: () => ctx.toggle(c.h),
      note: notes[c.h] || "" }));
  }
  parent.appendChild(r);
}

export function drawMine(el, b, w, ctx) {
  if (!b.hand) return;
  const hand = section(el, `${w.hand} (${b.hand.length})`, "hand");
  const notes = {};
  for (const c of b.hand) notes[c.h] = c.why === null ? w.playable : (c.why || "");
  row(hand, b.hand, w, ctx, notes);
  if (b.password && b.password.length) {
    const pw = section(el, w.password, "password");
    for (const p of b.password) {
      const h = document.createElement("h3"); h.textContent = p.sector; pw.appendChild(h);
      row(pw, p.cards, w, ctx);
    }
  }
  if (b.upgrades && b.upgrades.length) row(section(el, w.upgrades, "upgrades"), b.upgrades, w, ctx);
}
