// Classified Information's drawing: the opponent's side (cards in hand, the cards of it you have seen, the Guard
// spots with what you know of each face-down one), your side (your Suitcase as a card, your Guard spots), the
// automatic Cypher Wheel (the opponent's Suitcase Numbers still possible; yours as they can tell), the piles, the
// Big Reveal at the end; and your hand as cards. A card or a Guard that some choice uses is a button: clicked, it
// narrows the choices to those that use it.
import { cardElement } from "./cards.js";

const BANDS = { guard: "#2a7f62", assassin: "#b23a48", sentinel: "#6a4c93" };

function section(parent, title, cls) {
  const s = document.createElement("div");
  s.className = "panel " + (cls || "");
  if (title) { const h = document.createElement("h2"); h.textContent = title; s.appendChild(h); }
  parent.appendChild(s);
  return s;
}

function text(parent, tag, t, cls) {
  const e = document.createElement(tag);
  e.textContent = t;
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
}

function fill(t, fields) { return String(t).replace(/\{(\w+)\}/g, (_, k) => (k in fields ? fields[k] : `{${k}}`)); }

// a Guard spot: its number where known (^ face up, v face down), else ? and the numbers it may be
function guardLabel(g, L) {
  if (g.spot === 0) return `+ ${g.name}`;
  const face = g.face !== null ? `${g.name}` : `? (${g.maybe})`;
  return `${g.spot}: ${face} ${g.up ? "▲" : "▼"}${g.tucked ? " +" : ""}`;
}

function guards(parent, list, L, ctx) {
  const row = document.createElement("div");
  row.className = "guards";
  if (!list.length) text(row, "span", L.no_guards, "none");
  for (const g of list) {
    const label = guardLabel(g, L);
    if (ctx.selectable(g.key)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "target guard" + (ctx.picked(g.key) ? " picked" : "") + (g.up ? " up" : " down");
      b.setAttribute("aria-pressed", ctx.picked(g.key) ? "true" : "false");
      b.dataset.key = g.key;
      b.textContent = label;
      b.addEventListener("click", () => ctx.toggle(g.key));
      row.appendChild(b);
    } else {
      const s = text(row, "span", label, "guard " + (g.up ? "up" : "down"));
      s.dataset.key = g.key;
    }
  }
  parent.appendChild(row);
}

function cards(parent, list, w, ctx, key = (c) => c.h) {
  const r = document.createElement("div");
  r.className = "cards";
  for (const c of list) {
    const k = key(c);
    r.appendChild(cardElement(c, w, { band: BANDS[c.kind] || "#264653" }, {
      selectable: ctx.selectable(k), picked: ctx.picked(k), onClick: () => ctx.toggle(k) }));
  }
  parent.appendChild(r);
}

function wheel(parent, label, marks, k) {
  const row = document.createElement("div");
  row.className = "wheel";
  text(row, "span", label, "wheel-label");
  marks.forEach((on, i) => text(row, "span", on ? String(i + 1) : "·", "wheel-n" + (on ? " on" : "")));
  text(row, "span", k, "wheel-k");
  parent.appendChild(row);
}

// this game's few styles (the shell's style.css is game-neutral): a constructed style sheet, which the page's
// Content-Security-Policy (style-src 'self': no <style> element) allows
let styled = false;
function styles() {
  if (styled) return;
  styled = true;
  const st = new CSSStyleSheet();
  st.replaceSync(`
    .guards { display: flex; flex-wrap: wrap; gap: .4rem; margin: .2rem 0 .4rem; }
    .guard { font-family: "DejaVu Sans Mono", monospace; padding: .2rem .5rem; border-radius: 5px; border: 2px solid #ccc; }
    .guard.down { background: #39424e; color: #fff; } .guard.up { background: #fff; }
    button.guard.down { color: #fff; background: #39424e; }
    .wheel { display: flex; gap: .25rem; align-items: center; font-family: "DejaVu Sans Mono", monospace; margin: .15rem 0; flex-wrap: wrap; }
    .wheel-label { min-width: 14rem; font-weight: 700; }
    .wheel-n { width: 1.6rem; text-align: center; border-radius: 50%; color: #999; }
    .wheel-n.on { background: #264653; color: #fff; font-weight: 700; }
    .wheel-k { margin-left: .6rem; color: #555; }
    .yourside { display: flex; gap: 1rem; flex-wrap: wrap; align-items: flex-start; }
    .reveal { border: 3px solid #e9c46a; } .reveal h2 { margin-top: 0; }
    .handsize { font-size: 1.1rem; }
    @media (max-width: 600px) { .wheel-label { flex-basis: 100%; min-width: 0; } }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, st];
}

export function drawBoard(el, b, w, ctx) {
  styles();
  const L = b.labels;
  if (b.end && b.end.length) {
    const end = section(el, "", "reveal");
    b.end.forEach((line, i) => text(end, i ? "p" : "h2", line.replace(/^=+ | =+$/g, "")));
  }
  if (b.them) {
    const them = section(el, L.them, "them");
    text(them, "p", fill(L.their_hand, { k: b.them.hand }), "handsize");
    if (b.them.seen.length) { text(them, "p", L.seen + ":", "seen"); cards(them, b.them.seen, w, ctx, (c) => `c${c.h}`); }
    if (b.them.mixed && b.them.mixed.length) text(them, "p", `${L.mixed_in}: ${b.them.mixed.join(", ")}`, "mixed");
    text(them, "h3", L.guards);
    guards(them, b.them.guards, L, ctx);
    const you = section(el, L.you, "you");
    const row = document.createElement("div");
    row.className = "yourside";
    if (b.me.suitcase) {
      const box = document.createElement("div");
      text(box, "h3", L.suitcase);
      cards(box, [b.me.suitcase], w, { selectable: () => false, picked: () => false, toggle: () => {} });
      row.appendChild(box);
    }
    const gbox = document.createElement("div");
    text(gbox, "h3", L.guards);
    guards(gbox, b.me.guards, L, ctx);
    row.appendChild(gbox);
    you.appendChild(row);
    const wh = section(el, "", "cypher");
    wheel(wh, L.wheel, b.wheel.theirs, b.wheel.k_theirs);
    wheel(wh, L.shown, b.wheel.mine, b.wheel.k_mine);
  }
  const piles = section(el, "", "piles");
  const p = b.piles;
  const top = p.top && p.top.length ? ` (${L.top}: ${p.top.join(" ")})` : "";
  text(piles, "p", `${fill(L.encrypted, { k: p.encrypted })} · ${fill(L.deck, { k: p.deck })}${top}`);
  text(piles, "p", `${L.discard} (${p.discards}): ` + (p.discard.map((c) => c.hidden ? "?" : `${c.face} ${c.title}`).join(", ") || "–"), "discard");
}

export function drawMine(el, b, w, ctx) {
  if (!b.hand) return;
  cards(section(el, `${b.labels.hand} (${b.hand.length})`, "hand"), b.hand, w, ctx);
}
