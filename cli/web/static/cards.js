// Cards drawn as SVG from the card data the peer sends (title, kinds, code letter, text, requirements):
// game-neutral; a game's module picks the colours and the corner mark. Every card carries its whole text as
// its accessible name and tooltip, so a card cut short on a small screen still reads whole.
const NS = "http://www.w3.org/2000/svg";
const W = 180, H_FULL = 252, H_MIN = 170;  // a card as tall as its words need, up to H

function el(name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// words wrapped to lines of at most `width` characters (a long word is cut)
export function wrap(text, width) {
  const out = [];
  for (const para of String(text).split(/\n+/)) {
    let line = "";
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const w = word.length > width ? word.slice(0, width - 1) + "…" : word;
      if (line && (line + " " + w).length > width) { out.push(line); line = w; }
      else line = line ? line + " " + w : w;
    }
    if (line) out.push(line);
  }
  return out;
}

export function describeCard(c, words) {
  if (c.hidden) return words.hidden;
  const parts = [c.title];
  if (c.code) parts.push(words.code.replace("{c}", c.code));
  if (c.kinds && c.kinds.length) parts.push(c.kinds.join(", "));
  if (c.text) parts.push(c.text);
  if (c.requires && c.requires.length) parts.push(words.needs + ": " + c.requires.join(", "));
  return parts.join(". ");
}

// one card: {title, code, kinds, text, requires, hidden}; style: {fill, ink, band}
export function cardSVG(c, words, style = {}) {
  const fill = style.fill || "#fdfbf4", band = style.band || "#264653", ink = style.ink || "#1d1d1d";
  const reqLines = !c.hidden && (c.requires || []).length ? wrap(words.needs + ": " + c.requires.join(", "), 22).slice(0, 3) : [];
  const textLines = c.hidden ? [] : wrap(c.text || "", 25);
  const H = Math.min(H_FULL, Math.max(H_MIN, 64 + (c.kinds && c.kinds.length ? 16 : 0) + textLines.length * 14
                                              + reqLines.length * 14 + 16));
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "card-svg", role: "img" });
  const name = describeCard(c, words);
  svg.setAttribute("aria-label", name);
  svg.appendChild(el("title", {}, name));
  svg.appendChild(el("rect", { x: 1.5, y: 1.5, width: W - 3, height: H - 3, rx: 12, fill: c.hidden ? "#39424e" : fill,
                               stroke: band, "stroke-width": 3 }));
  if (c.hidden) {
    svg.appendChild(el("text", { x: W / 2, y: H / 2 + 14, "text-anchor": "middle", "font-size": 44, fill: "#d9dde3" }, "?"));
    return svg;
  }
  svg.appendChild(el("rect", { x: 3, y: 3, width: W - 6, height: 44, rx: 10, fill: band }));
  const titleLines = wrap(c.title, c.code ? 14 : 17).slice(0, 2);
  titleLines.forEach((t, i) => svg.appendChild(el("text", {
    x: 10, y: titleLines.length === 1 ? 31 : 21 + i * 17, "font-size": 15, "font-weight": 700, fill: "#fff" }, t)));
  if (c.code) {
    svg.appendChild(el("circle", { cx: W - 22, cy: 25, r: 16, fill: "#fff", stroke: band, "stroke-width": 2 }));
    svg.appendChild(el("text", { x: W - 22, y: 31, "text-anchor": "middle", "font-size": 18, "font-weight": 700,
                                 fill: band }, c.code));
  }
  let y = 64;
  if (c.kinds && c.kinds.length) {
    svg.appendChild(el("text", { x: 10, y, "font-size": 11.5, "font-style": "italic", fill: band }, c.kinds.join(" · ")));
    y += 16;
  }
  const room = Math.floor((H - 12 - y - reqLines.length * 14) / 14);
  let lines = textLines;
  if (lines.length > room) { lines = lines.slice(0, Math.max(0, room)); if (lines.length) lines[lines.length - 1] += "…"; }
  for (const t of lines) { svg.appendChild(el("text", { x: 10, y, "font-size": 12, fill: ink }, t)); y += 14; }
  let ry = H - 10 - (reqLines.length - 1) * 14;
  for (const t of reqLines) { svg.appendChild(el("text", { x: 10, y: ry, "font-size": 11, "font-weight": 700, fill: band }, t)); ry += 14; }
  return svg;
}

// a card as the page shows it: a button when it can be clicked (it narrows the choices), else a figure
export function cardElement(c, words, style, { selectable = false, picked = false, onClick = null, note = "" } = {}) {
  const wrapEl = document.createElement(selectable ? "button" : "figure");
  wrapEl.className = "card" + (selectable ? " selectable" : "") + (picked ? " picked" : "");
  if (selectable) {
    wrapEl.type = "button";
    wrapEl.setAttribute("aria-pressed", picked ? "true" : "false");
    wrapEl.addEventListener("click", onClick);
  }
  wrapEl.dataset.h = c.h;
  wrapEl.appendChild(cardSVG(c, words, style));
  if (note) {
    const cap = document.createElement(selectable ? "span" : "figcaption");
    cap.className = "card-note";
    cap.textContent = note;
    wrapEl.appendChild(cap);
  }
  return wrapEl;
}
