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

function cell(tr, text, cls, tag = "td") {
  const c = document.createElement(tag);
  c.textContent = text;
  if (cls) c.className = cls;
  tr.appendChild(c);
  return c;
}

// a target on the board (a sector, a player): a button while some choice uses it, clicked to narrow the choices
function target(parent, label, key, ctx) {
  if (!ctx.selectable(key)) { parent.textContent = label; return; }
  const b = document.createElement("button");
  b.type = "button";
  b.className = "target" + (ctx.picked(key) ? " picked" : "");
  b.setAttribute("aria-pressed", ctx.picked(key) ? "true" : "false");
  b.textContent = label;
  b.addEventListener("click", () => ctx.toggle(key));
  parent.appendChild(b);
}

const fill = (t, f) => String(t).replace(/\{(\w+)\}/g, (_, k) => (k in f ? f[k] : `{${k}}`));

export function drawBoard(el, b, w, ctx) {
  pre(section(el, "", "piles"), b.piles);
  const names = b.players.map((p) => p.name);
  // the six sectors: controller, every player's access, the Root bonuses, the cards lying there
  const box = section(el, "", "sectors");
  const scroll = document.createElement("div");
  scroll.className = "scroll";
  const t = document.createElement("table");
  t.className = "sectors";
  const cap = document.createElement("caption");
  cap.textContent = w.levels;
  t.appendChild(cap);
  const head = document.createElement("tr");
  cell(head, b.cols.sector, "", "th");
  cell(head, b.cols.ctrl, "", "th");
  names.forEach((n, p) => cell(head, n, `p${p}` + (p === ctx.me ? " me" : ""), "th"));
  cell(head, b.cols.bonus, "", "th");
  const on = b.sectors.some((s) => s.on.length);
  if (on) cell(head, b.cols.on_sector, "", "th");
  t.appendChild(head);
  b.sectors.forEach((s, k) => {
    const tr = document.createElement("tr");
    target(cell(tr, "", "sector", "th"), s.name, `s${k}`, ctx);
    cell(tr, s.ctrl === null ? "–" : names[s.ctrl], s.ctrl === null ? "none" : `p${s.ctrl}`);
    s.access.forEach((a, p) => {
      const c = cell(tr, a, `lvl lvl-${a === "-" ? "none" : a}`);
      c.setAttribute("aria-label", `${names[p]}: ${a}`);
    });
    cell(tr, s.bonus.map((x) => `${x.what} (${names[x.p]})`).join(", "), "bonus");
    if (on) cell(tr, s.on.map((c) => c.title || "?").join(", "), "on");
    t.appendChild(tr);
  });
  scroll.appendChild(t);
  box.appendChild(scroll);
  // the players: hand, Roots, upgrades; whose turn it is
  const ps = section(el, w.players, "players");
  const ul = document.createElement("ul");
  ul.className = "players";
  b.players.forEach((p, i) => {
    const li = document.createElement("li");
    li.className = `p${i}` + (i === b.turn ? " turn" : "") + (i === ctx.me ? " me" : "");
    const name = document.createElement("strong");
    target(name, p.name + (i === ctx.me ? ` (${w.you})` : "") + (i === b.turn ? ` — ${w.turn_of}` : ""), `q${i}`, ctx);
    li.appendChild(name);
    const facts = [fill(w.in_hand, { n: p.hand, l: p.limit }), fill(w.roots, { n: p.roots })];
    if (p.upgrades.length) facts.push(`${w.upgrades_of}: ${p.upgrades.map((c) => c.title).join(", ")}`);
    li.appendChild(document.createTextNode(" · " + facts.join(" · ")));
    ul.appendChild(li);
  });
  ps.appendChild(ul);
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
