// Hacker's drawing: the departments, the cafeteria, the players and the hack pad as the terminal's page draws them
// (its lines, as text), and the player's own cards (hand, laid face down) as SVG cards from Hacker's card data.
import { cardElement } from "./cards.js";

const BANDS = { chance: "#33658a", terminal: "#8a6d1f", defence: "#2a7f62" };

function section(parent, title, cls) {
  const s = document.createElement("div");
  s.className = "panel " + (cls || "");
  if (title) { const h = document.createElement("h2"); h.textContent = title; s.appendChild(h); }
  parent.appendChild(s);
  return s;
}

export function drawBoard(el, b, w) {
  const p = document.createElement("pre");
  p.textContent = b.lines;
  p.setAttribute("aria-label", w.board);
  section(el, "", "hboard").appendChild(p);
}

function row(parent, cards, w, ctx) {
  const r = document.createElement("div");
  r.className = "cards";
  for (const c of cards) {
    r.appendChild(cardElement(c, w, { band: BANDS[c.kind] || "#264653" }, {
      selectable: ctx.selectable(c.h), picked: ctx.picked(c.h), onClick: () => ctx.toggle(c.h), note: c.note || "" }));
  }
  parent.appendChild(r);
}

export function drawMine(el, b, w, ctx) {
  if (!b.hand) return;
  row(section(el, `${w.hand} (${b.hand.length})`, "hand"), b.hand, w, ctx);
  if (b.laid && b.laid.length) row(section(el, w.laid, "laid"), b.laid, w, ctx);
}
