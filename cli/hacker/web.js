// Hacker's drawing: the departments, the cafeteria, the players and the hack pad as the terminal's page draws them
// (the same words and marks), and the player's own cards (hand, laid face down) as SVG cards from Hacker's card
// data.
import { cardElement } from "./cards.js";

const BANDS = { chance: "#33658a", terminal: "#8a6d1f", defence: "#2a7f62" };

function section(parent, title, cls) {
  const s = document.createElement("div");
  s.className = "panel " + (cls || "");
  if (title) { const h = document.createElement("h2"); h.textContent = title; s.appendChild(h); }
  parent.appendChild(s);
  return s;
}

// a target (a department, a player, a square of the pad): a button while some choice uses it, clicked to narrow
// the choices (or to make the one it completes)
function target(parent, label, key, ctx, name = "") {
  if (!ctx.selectable(key)) { parent.textContent = label; return; }
  const b = document.createElement("button");
  b.type = "button";
  b.className = "target" + (ctx.picked(key) ? " picked" : "");
  b.setAttribute("aria-pressed", ctx.picked(key) ? "true" : "false");
  if (name) b.setAttribute("aria-label", name);
  b.textContent = label;
  b.addEventListener("click", () => ctx.toggle(key));
  parent.appendChild(b);
}

function text(parent, tag, t, cls) {
  const e = document.createElement(tag);
  e.textContent = t;
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
}

export function drawBoard(el, b, w, ctx) {
  // the six departments: flags, who sits at the terminal (and its TIME), who waits in the queue; the cafeteria
  const depts = section(el, "", "hdepts");
  const grid = document.createElement("div");
  grid.className = "depts";
  for (const d of b.depts) {
    const box = document.createElement("div");
    box.className = "dept" + (d.open ? "" : " closed") + (d.broken ? " broken" : "");
    target(text(box, "h3", ""), d.name, `d${b.depts.indexOf(d)}`, ctx);
    if (d.flags.length) text(box, "p", d.flags.join(" · "), "flags");
    const term = text(box, "p", d.terminal ? `▣ ${d.terminal.who}` + (d.terminal.time !== null ? ` T${d.terminal.time}` : "") : "▢", "term");
    if (d.terminal && d.terminal.p >= 0) term.classList.add(`p${d.terminal.p}`);
    if (d.queue.length) text(box, "p", d.queue.map((q) => q.who).join(", "), "queue");
    grid.appendChild(box);
  }
  depts.appendChild(grid);
  if (b.cafe.who.length) text(depts, "p", `${b.cafe.name}: ${b.cafe.who.join(", ")}`, "cafe");
  // the players: place, TIME, PRIO, passwords and codes known (the public check list), cards
  const ps = section(el, w.players, "players");
  const scroll = document.createElement("div");
  scroll.className = "scroll";
  const t = document.createElement("table");
  t.className = "sectors hplayers";
  const head = document.createElement("tr");
  for (const k of ["", "at", "time", "prio", "pw", "codes", "cards"]) text(head, "th", k ? b.cols[k] : "");
  t.appendChild(head);
  b.players.forEach((p, i) => {
    const tr = document.createElement("tr");
    if (i === b.actor) tr.className = "turn";
    target(text(tr, "th", "", `p${i}` + (i === ctx.me ? " me" : "")), (i === b.actor ? "▶ " : "") + p.name, `q${i}`, ctx);
    text(tr, "td", p.at);
    text(tr, "td", p.time === null ? "–" : String(p.time));
    text(tr, "td", p.prio);
    text(tr, "td", p.pw, "marks");
    text(tr, "td", `${p.code} ${p.codes}`, "marks");
    text(tr, "td", p.cards);
    t.appendChild(tr);
  });
  scroll.appendChild(t);
  ps.appendChild(scroll);
  // the hack pad while an attempt runs
  if (b.pad) {
    const pad = section(el, "", "pad");
    const lines = b.pad.split("\n");
    text(pad, "h3", lines[0]);
    const grid = document.createElement("table");
    grid.className = "hackpad";
    const head = document.createElement("tr");
    text(head, "th", "");
    for (const c of "ABCDE") text(head, "th", c);
    grid.appendChild(head);
    b.squares.forEach((row, r) => {
      const tr = document.createElement("tr");
      text(tr, "th", String(r + 1));
      for (const q of row) {
        const td = text(tr, "td", "", `mark mark-${{ "@": "at", "?": "asked", X: "hit", o: "clear", "#": "mine" }[q.mark] || "none"}`);
        target(td, q.mark, `sq:${q.sq}`, ctx, q.sq);
      }
      grid.appendChild(tr);
    });
    pad.appendChild(grid);
    for (const line of lines.slice(7)) text(pad, "p", line, "padnote");  // (the roll, on the controller's page)
    const legend = lines.slice(2, 7).map((l) => l.slice(14).trim()).filter(Boolean).join(" · ");
    if (legend) text(pad, "p", legend, "padnote");
  }
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
