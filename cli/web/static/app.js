// The page's client, game-neutral: one websocket to this player's own peer; every message is a whole snapshot of
// what the seat may see (the same engine view the terminal draws) and the decision it is asked, if any. A click
// sends the number of a choice the peer offered; the peer answers with the next snapshot. The game's module
// (`<game>.js`, served from the game's client: cli/<game>/web.js) draws its board and the player's own cards;
// everything else is here.

const GAMES = {};  // each game's board module (`<game>.js`: cli/<game>/web.js), imported when a snapshot first names it
const $ = (id) => document.getElementById(id);
const SHOWN_MAX = 40;  // choices listed at once (more: click cards to narrow them)

let snap = null, socket = null, picked = new Set(), clockTimer = null;
let stageKey = "";

function fill(text, fields) {
  return String(text).replace(/\{(\w+)\}/g, (_, k) => (k in fields ? fields[k] : `{${k}}`));
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const url = `ws://${location.host}${location.pathname.replace(/\/?$/, "/")}ws`;
  socket = new WebSocket(url);
  let drawn = Promise.resolve();  // snapshots drawn one after the other, each after its game's module is loaded
  socket.onmessage = (e) => {
    drawn = drawn.then(() => show(JSON.parse(e.data))).catch((err) => console.error(err));
  };
  socket.onopen = () => { if (!snap || !snap.fault) banner(""); };
  socket.onclose = () => {
    if (snap) banner(snap.left || snap.words.lost, "lost");
    setTimeout(connect, 2000);  // a dropped socket (a sleeping laptop) comes back while the peer runs
  };
}

async function show(s) {
  if (s.game && !(s.game in GAMES)) GAMES[s.game] = await import(`./${s.game}.js`).catch(() => null);
  render(s);
}

function banner(text, kind = "fault") {
  const b = $("banner");
  b.hidden = !text;
  b.className = kind;
  b.textContent = text;
}

function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

function button(label, onClick, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

function render(s) {
  snap = s;
  const w = s.words, game = GAMES[s.game];
  document.documentElement.lang = s.lang;
  document.title = `${w["title." + s.game] || "ad-p2p"} — ad-p2p`;
  $("title").textContent = w["title." + s.game] || s.game;
  $("leave").textContent = w.leave;
  $("leave").hidden = !s.ask || s.stage === "replay";
  $("log-h").textContent = w.log;
  document.body.dataset.stage = s.stage;
  document.body.dataset.rev = String(s.rev);
  const ask = s.ask;
  const key = ask ? `${ask.id}/${ask.head}` : "";
  if (key !== stageKey) { picked = new Set(); stageKey = key; }
  document.body.dataset.ask = key;  // the decision (and stage) drawn: the same after a reload (the browser tests wait on it)
  if (s.fault) banner(`${w.fault}: ${s.fault}`);
  else if (s.left) banner(s.left, "lost");
  else if (socket && socket.readyState === WebSocket.OPEN) banner("");

  // the lobby: who is here, who is missing
  $("lobby").hidden = s.stage !== "lobby";
  if (s.stage === "lobby" && s.lobby) {
    $("lobby-h").textContent = w.lobby;
    $("lobby-line").textContent = fill(w.lobby_table, { table: s.lobby.table, k: s.lobby.here.length, want: s.lobby.want });
    const ul = clear($("lobby-here"));
    for (const name of s.lobby.here) { const li = document.createElement("li"); li.textContent = name; ul.appendChild(li); }
    $("lobby-missing").textContent = s.lobby.missing ? fill(w.missing, { n: s.lobby.missing }) : "";
    // the roster our player is asked to confirm: who would sit where, their key fingerprints, whether there is a word
    const roster = clear($("lobby-roster"));
    roster.hidden = !s.lobby.roster;
    for (const line of s.lobby.roster || []) {
      const li = document.createElement("li");
      li.textContent = line.trim();
      if (/^\d+\./.test(line.trim())) li.className = "seat";
      roster.appendChild(li);
    }
  }
  const status = s.stage === "lobby" ? w.lobby : s.board ? s.board.header : w.setup;
  $("status").textContent = status || "";

  const ctx = {
    words: w, names: s.names || [], me: s.me,
    selectable: (h) => !!ask && visibleChoices(ask).some((c) => (c.cards || []).includes(h)),
    picked: (h) => picked.has(h),
    // a card or a target (a sector, a player, a square: "s3", "q1", "sq:C3") clicked: the choices narrowed to those
    // that use it; when the marks picked make up the one choice left, that choice is made (as the terminal does)
    toggle: (h) => {
      picked.has(h) ? picked.delete(h) : picked.add(h);
      const left = ask ? visibleChoices(ask) : [];
      if (picked.size && left.length === 1 && !left[0].more && (left[0].cards || []).length === picked.size) {
        send({ t: "pick", id: ask.id, n: left[0].n });
        return;
      }
      if (s.board && game) game.drawBoard(clear($("board")), s.board, w, ctx);
      drawAsk(); drawMine();
    },
  };
  const drawMine = () => { if (s.board && game) game.drawMine(clear($("mine")), s.board, w, ctx); };
  if (s.board && game) { game.drawBoard(clear($("board")), s.board, w, ctx); drawMine(); }
  else { clear($("board")); clear($("mine")); }

  // the game's notes: Access Denied's checklist, Hacker's codes and checks
  const notes = s.board && s.board.notes;
  $("notes-box").hidden = !notes;
  if (notes) { $("notes-h").textContent = s.board.notes_title || w.notes; $("notes").textContent = notes; }

  drawLog(s);
  const drawAsk = () => renderAsk(s);
  drawAsk();
  renderEnd(s);
}

function drawLog(s) {
  const ol = $("log");
  const atEnd = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 30;
  clear(ol);
  for (const line of s.log) {
    const li = document.createElement("li");
    li.textContent = line.trim();
    if (!line.startsWith("  ")) li.className = "notice";
    ol.appendChild(li);
  }
  if (atEnd || !ol.dataset.seen) ol.scrollTop = ol.scrollHeight;
  ol.dataset.seen = "1";
}

function visibleChoices(ask) {
  const all = ask.choices.map((c, n) => ({ ...c, n }));
  if (!picked.size) return all;
  return all.filter((c) => [...picked].every((h) => (c.cards || []).includes(h)));
}

function renderAsk(s) {
  const ask = s.ask, w = s.words, box = $("ask");
  clearInterval(clockTimer);
  const notes = clear($("ask-notes"));  // what was shown privately, and choices taken without asking
  for (const n of s.notes || []) { const li = document.createElement("li"); li.textContent = n.trim(); notes.appendChild(li); }
  box.hidden = !ask && !!s.end;
  if (!ask) {
    $("ask-q").textContent = s.end ? "" : (s.stage === "lobby" ? "" : w.waiting);
    box.hidden = !!s.end || s.stage === "lobby";
    clear($("ask-choices")); clear($("ask-tools")); $("ask-head").textContent = ""; $("ask-clock").textContent = "";
    $("ask-filter").hidden = true;
    box.classList.remove("asking");
    return;
  }
  box.classList.add("asking");
  $("ask-q").textContent = ask.question;
  $("ask-head").textContent = ask.head || "";
  const list = clear($("ask-choices"));
  const shown = visibleChoices(ask);
  // choices made of several cards (a password, the cards to discard, an attempt): picked card by card, as the
  // terminal picks them where there are more than a few
  const carded = ask.choices.length > 4 && ask.choices.some((c) => (c.cards || []).length > 1) || picked.size > 0;
  $("ask-filter").hidden = !carded;
  if (carded) $("ask-filter").textContent = fill(w.pick_cards, { n: Math.min(shown.length, SHOWN_MAX), k: ask.choices.length });
  let group = null;
  shown.slice(0, SHOWN_MAX).forEach((c, i) => {
    if (c.group && c.group !== group) {
      group = c.group;
      const h = document.createElement("h3"); h.className = "group"; h.textContent = c.group; list.appendChild(h);
    }
    const label = (i < 9 ? `${i + 1}. ` : "") + c.label + (c.more > 1 ? ` — ${fill(w.more, { n: c.more })}` : "");
    const b = button(label, () => send({ t: "pick", id: ask.id, n: c.n }), "choice" + (c.more ? " more" : ""));
    b.dataset.n = c.n;
    list.appendChild(b);
  });
  const tools = clear($("ask-tools"));
  if (ask.back) tools.appendChild(button(w.back, () => send({ t: "back", id: ask.id }), "back"));
  if (picked.size) tools.appendChild(button(w.clear, () => { picked = new Set(); render(snap); }, "clear"));
  const clock = $("ask-clock");
  if (ask.seconds !== null && ask.seconds !== undefined) {
    const until = Date.now() + ask.seconds * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      clock.textContent = fill(w.seconds, { s: left });
      clock.style.setProperty("--left", String(Math.max(0, (until - Date.now()) / (ask.seconds * 1000))));
    };
    tick();
    clockTimer = setInterval(tick, 250);
    clock.hidden = false;
  } else { clock.textContent = ""; clock.hidden = true; }
}

function renderEnd(s) {
  const e = s.end, w = s.words;
  $("end").hidden = !e;
  if (!e) return;
  $("end-h").textContent = w.end;
  $("end-line").textContent = e.line;
  const sum = clear($("end-summary"));
  for (const line of e.summary) { const p = document.createElement("p"); p.textContent = line; sum.appendChild(p); }
  $("end-audit-h").textContent = w.audit;
  const ul = clear($("end-audit"));
  for (const v of e.verdicts) {
    const li = document.createElement("li");
    li.className = "verdict " + v.state;
    li.textContent = `${v.name}: ${v.short}`;
    for (const d of v.details) { const p = document.createElement("p"); p.textContent = d; li.appendChild(p); }
    ul.appendChild(li);
  }
  $("end-log").textContent = e.log ? fill(w.game_log, { path: e.log }) : "";
  const bs = clear($("end-buttons"));
  if (e.rematch) {
    bs.appendChild(button(w.again, () => { send({ t: "again", yes: true }); }, "again"));
    bs.appendChild(button(w.no_again, () => { send({ t: "again", yes: false }); $("end-buttons").textContent = w.bye; }, "no-again"));
  } else bs.textContent = w.bye;
}

document.addEventListener("keydown", (e) => {
  if (!snap || !snap.ask || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target && ["INPUT", "TEXTAREA"].includes(e.target.tagName)) return;
  if (/^[1-9]$/.test(e.key)) {
    const c = visibleChoices(snap.ask)[Number(e.key) - 1];
    if (c) { send({ t: "pick", id: snap.ask.id, n: c.n }); e.preventDefault(); }
  } else if (e.key === "Escape" && snap.ask.back) {
    send({ t: "back", id: snap.ask.id });
  }
});
$("leave").addEventListener("click", () => {
  if (snap && snap.ask && window.confirm(snap.words.leave_sure)) send({ t: "leave", id: snap.ask.id });
});
connect();
