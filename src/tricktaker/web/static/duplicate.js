// @ts-check
// The duplicate pages (docs/duplicate.md): a set's standings at #/duplicate/ID, and the
// daily challenge at #/daily[/GAME]: today's deals of a game, played at a table of one's
// own against the same seeded bots as everyone else, and the standings of all who did.
// The server works out every figure; this page only shows them.

import { api, errorText, saveHost, saveInvite, saveName, saveSeat, savedName, seatToken } from "./api.js";
import { clubBackLink } from "./club-parts.js";
import { clear, el } from "./dom.js";
import { readText, writeText } from "./storage.js";

/**
 * The host token of a set this browser made, or null.
 * @param {string} setId
 */
const setHostToken = (setId) => readText(`dupset.${setId}`);

/** How often the standings are asked for again while the page is open, in milliseconds. */
const REFRESH_MS = 10000;

/**
 * @typedef {{hand: number, score: number, entrants: number, matchpoints: number, top: number,
 *   percent: number, against_average: number}} Board
 * @typedef {{table: string, number: number, seat: number, name: string, account?: string | null, bot: string | null,
 *   hands: number, score: number, matchpoints: number, top: number, percent: number,
 *   against_average: number, boards: Board[]}} Standing
 * @typedef {{id: string, name: string | null, game: string, game_name: string, preset: string | null,
 *   players: number, hands: number, day: string | null, club?: any}} SetInfo
 * @typedef {{table: string, number: number, status: string, hands_played: number}} SetTable
 * @typedef {{set: SetInfo, order: string, tables: SetTable[], hands_shown: number[], standings: Standing[]}} SetStandings
 * @typedef {{game: string, name: string, players: number, hands: number}} DailyGame
 */

/** The pages' styles (duplicate.css), added to the page once. */
function duplicateStyles() {
  if (!document.querySelector("link[data-tricktaker-duplicate]")) {
    const href = new URL("./duplicate.css", import.meta.url).href;
    document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-duplicate": "" }));
  }
}

/**
 * A figure against the average: one decimal, a sign, a real minus.
 * @param {number} value
 */
function signed(value) {
  const text = Math.abs(value).toFixed(1);
  if (text === "0.0") return "0.0";
  return value < 0 ? `\u2212${text}` : `+${text}`;
}

/**
 * The seat token this browser holds at a table of the set (its standings show the hands
 * that table has finished: docs/duplicate.md, No peeking), or null.
 * @param {SetStandings | null} data
 */
export function heldSeat(data) {
  for (const table of data ? data.tables : []) {
    const held = seatToken(table.table);
    if (held) return { table: table.table, token: held.token };
  }
  return null;
}

/**
 * What the standings leave out, said in a sentence, or null when they show every hand.
 * @param {SetStandings} data
 */
function hiddenNote(data) {
  const shown = (data.hands_shown || []).length;
  if (shown >= data.set.hands) return null;
  return el(
    "p",
    { class: "help", id: "dup-hidden" },
    `No peeking: ${shown} of ${data.set.hands} hands shown. A hand's results show once your own table has finished it`,
    data.set.day ? " (everyone's once the day is over, UTC)." : ", or once every table has.",
  );
}

/** @param {number} value */
const percentText = (value) => `${value.toFixed(1)}%`;

/**
 * The standings as a table, best first.
 * @param {SetStandings} data
 * @param {Standing[]} shown the rows to show (the bots' left out, on request)
 * @param {string} caption
 */
function standingsTable(data, shown, caption) {
  if (!shown.length) {
    return el("p", { class: "help", id: "dup-empty" }, "Nobody has finished a hand of these deals yet.");
  }
  const byAverage = data.order === "average";
  // Equal figures share a place (1, 2, 2, 4), as on a club's page.
  const same = (/** @type {Standing} */ a, /** @type {Standing} */ b) => a.percent === b.percent && a.against_average === b.against_average;
  /** @type {number[]} */
  const places = [];
  shown.forEach((row, index) => {
    places.push(index > 0 && same(shown[index - 1], row) ? places[index - 1] : index + 1);
  });
  const rows = shown.map((row, index) =>
    el(
      "tr",
      { class: row.bot ? "dup-bot" : "dup-person" },
      el("td", { class: "dup-rank" }, String(places[index])),
      el(
        "th",
        { scope: "row", class: "dup-name" },
        row.account ? el("a", { href: `#/player/${encodeURIComponent(row.account)}` }, row.name) : row.name,
        row.bot ? el("span", { class: "dup-kind" }, ` (${row.bot})`) : null,
        el("span", { class: "dup-where" }, `Table ${row.number}, seat ${row.seat + 1}`),
      ),
      el("td", { class: "num" }, String(row.hands)),
      el("td", { class: "num wide-only" }, `${row.matchpoints}/${row.top}`),
      el("td", { class: byAverage ? "num" : "num dup-key" }, percentText(row.percent)),
      el("td", { class: byAverage ? "num dup-key" : "num" }, signed(row.against_average)),
    ),
  );
  return el(
    "div",
    { class: "dup-scroll", tabindex: "0", role: "region", "aria-label": "Standings" },
    el(
      "table",
      { class: "dup-standings", id: "dup-standings" },
      el("caption", {}, caption),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, "#"),
          el("th", { scope: "col" }, "Player"),
          el("th", { scope: "col", class: "num" }, "Hands"),
          el("th", { scope: "col", class: "num wide-only" }, "Matchpoints"),
          el("th", { scope: "col", class: "num" }, "Score"),
          el("th", { scope: "col", class: "num" }, "vs average"),
        ),
      ),
      el("tbody", {}, rows),
    ),
  );
}

/**
 * One entrant's hands, each compared with everyone who held the same cards.
 * @param {Standing[]} shown
 * @param {string} picked the entrant shown (table number and seat, "2:0")
 * @param {(key: string) => void} pick
 */
function boardsPart(shown, picked, pick) {
  if (!shown.length) return null;
  /** @param {Standing} row */
  const key = (row) => `${row.number}:${row.seat}`;
  const row = shown.find((r) => key(r) === picked) || shown[0];
  const select = el(
    "select",
    { id: "dup-entrant", onchange: (/** @type {Event} */ e) => pick(/** @type {HTMLSelectElement} */ (e.target).value) },
    shown.map((r) =>
      el("option", { value: key(r), selected: key(r) === key(row) }, `${r.name}, table ${r.number}, seat ${r.seat + 1}`),
    ),
  );
  return el(
    "div",
    { class: "dup-by-hand" },
    el("h3", {}, "Hand by hand"),
    el("p", { class: "field" }, el("label", { for: "dup-entrant" }, "Player"), select),
    el(
      "div",
      { class: "dup-scroll", tabindex: "0", role: "region", "aria-label": "Hand by hand" },
      el(
        "table",
        { class: "dup-standings", id: "dup-boards" },
        el("caption", {}, `${row.name}'s hands, each compared with everyone who held the same cards`),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col" }, "Hand"),
            el("th", { scope: "col", class: "num" }, "Points"),
            el("th", { scope: "col", class: "num wide-only" }, "Held by"),
            el("th", { scope: "col", class: "num" }, "Score"),
            el("th", { scope: "col", class: "num" }, "vs average"),
          ),
        ),
        el(
          "tbody",
          {},
          row.boards.map((b) =>
            el(
              "tr",
              {},
              el("th", { scope: "row" }, String(b.hand)),
              el("td", { class: "num" }, String(b.score)),
              el("td", { class: "num wide-only" }, String(b.entrants)),
              el("td", { class: "num" }, percentText(b.percent)),
              el("td", { class: "num" }, signed(b.against_average)),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * The order switch: matchpoints (the default) or against the seats' averages.
 * @param {string} order
 * @param {(order: string) => void} choose
 */
function orderSwitch(order, choose) {
  /** @param {string} value @param {string} label */
  const option = (value, label) =>
    el(
      "button",
      {
        type: "button",
        class: "small",
        "aria-pressed": String(order === value),
        onclick: () => choose(value),
      },
      label,
    );
  return el(
    "div",
    { class: "row dup-order", role: "group", "aria-label": "Order the standings by" },
    el("span", { class: "help" }, "Order by"),
    option("matchpoints", "Matchpoints"),
    option("average", "Against the average"),
  );
}

/** What the two figures mean, in a few words (docs/duplicate.md, Scoring). */
function scoringNote() {
  return el(
    "p",
    { class: "help dup-note" },
    "Each hand is compared with everyone who held the same cards in the same seat: 2 matchpoints for each one you beat, 1 for each tie, as a percentage of the most you could make (50% is par). ",
    "“vs average” is your score minus the others’ average on the same cards, added up over the hands.",
  );
}

/**
 * The standings part of a page: its panel, the switch and the table, asked for again
 * every REFRESH_MS while `keep()` says so.
 * @param {(order: string) => string} path the standings' path for an order
 * @param {(data: SetStandings) => string} caption
 * @param {AbortSignal} signal
 * @param {{seen?: (data: SetStandings) => void, bots?: boolean}} [more] `seen`: told each
 *   answer; `bots`: whether the bots are shown at first
 */
function standingsPanel(path, caption, signal, { seen, bots = true } = {}) {
  const box = el("div", { id: "dup-standings-box", "aria-live": "polite" });
  const byHand = el("div", { id: "dup-by-hand-box" });
  const error = el("p", { class: "form-error", role: "alert" });
  const botsBox = el("input", { id: "dup-bots", type: "checkbox", checked: bots, onchange: () => draw() });
  let order = "matchpoints";
  let picked = "";
  /** @type {SetStandings | null} */
  let last = null;

  function draw() {
    if (!last) return;
    const data = last;
    const shown = botsBox.checked ? data.standings : data.standings.filter((r) => !r.bot);
    clear(box).append(
      orderSwitch(order, (o) => { order = o; load(); }),
      standingsTable(data, shown, caption(data)),
    );
    const note = hiddenNote(data);
    if (note) box.append(note);
    const part = boardsPart(shown, picked, (key) => { picked = key; draw(); });
    clear(byHand);
    if (part) byHand.append(part);
  }
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;

  async function load() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    try {
      const held = heldSeat(last);
      /** @type {SetStandings} */
      const data = await api(path(order), { signal, token: held ? held.token : null });
      if (signal.aborted) return;
      if (!held && heldSeat(data)) {
        last = data;
        load(); // this browser sits at a table of the set: ask again with its seat
        return;
      }
      error.textContent = "";
      last = data;
      draw();
      if (seen) seen(data);
    } catch (problem) {
      if (signal.aborted) return;
      error.textContent = `The standings could not be loaded: ${errorText(problem)}`;
    }
    if (!signal.aborted) timer = setTimeout(load, REFRESH_MS);
  }
  signal.addEventListener("abort", () => { if (timer !== null) clearTimeout(timer); });
  load();
  return el(
    "section",
    { class: "panel", "aria-labelledby": "dup-standings-title" },
    el("h2", { id: "dup-standings-title" }, "Standings"),
    scoringNote(),
    el("p", { class: "field check" }, botsBox, el("label", { for: "dup-bots" }, "Show the bots (each compared with the bots that held its seat)")),
    box,
    byHand,
    error,
  );
}

/**
 * A set's page: its game, its tables (to watch) and its standings.
 * @param {HTMLElement} root
 * @param {{setId: string}} args
 */
export async function mountDuplicate(root, { setId }) {
  duplicateStyles();
  const stop = new AbortController();
  const base = `/duplicate/${encodeURIComponent(setId)}`;
  /** @type {SetStandings} */
  const first = await api(base, { signal: stop.signal });
  const title = first.set.name || "Duplicate set";
  const tablesList = el("ul", { class: "dup-tables", id: "dup-tables" });
  /** @param {SetStandings} data */
  const showTables = (data) => {
    clear(tablesList).append(
      ...data.tables.map((t) =>
        el(
          "li",
          {},
          el("strong", {}, `Table ${t.number}`),
          ` · ${t.status === "waiting" ? "not started" : t.status}, ${t.hands_played} of ${data.set.hands} hands · `,
          el("a", { href: `#/table/${encodeURIComponent(t.table)}?watch=1` }, "Watch"),
        ),
      ),
    );
    if (!data.tables.length) tablesList.append(el("li", { class: "help" }, "No table yet: the set's host makes them."));
  };
  showTables(first);
  const token = setHostToken(setId);
  const hostPart = token ? await tableForm(first.set, token) : el("div", { hidden: true });
  // A club's duplicate evening: a link back to the club's page at that evening.
  const club = clubBackLink(first.set.club, "dup-club");
  clear(root).append(
    el("h1", { class: "page-title" }, title),
    ...(club ? [el("p", { class: "dup-club-line" }, club)] : []),
    el(
      "section",
      { class: "panel", "aria-labelledby": "dup-set-title" },
      el("h2", { id: "dup-set-title" }, "The set"),
      el(
        "p",
        {},
        `${first.set.game_name}, ${first.set.players} players, ${first.set.hands} hands: the same deals in the same seats at every table.`,
      ),
      tablesList,
    ),
    hostPart,
    standingsPanel((order) => `${base}?order=${order}`, () => `Standings of ${title}`, stop.signal, {
      seen: showTables,
    }),
  );
  return () => stop.abort();
}

/** Today's day in UTC, as the server names the daily challenge (YYYY-MM-DD). */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * The daily challenge: a game's deals of the day, the button that makes one's table of
 * them, and the standings of everyone who played them.
 * @param {HTMLElement} root
 * @param {{game: string | null}} args
 */
export async function mountDaily(root, { game }) {
  duplicateStyles();
  const stop = new AbortController();
  /** @type {DailyGame[]} */
  const games = await api("/duplicate/daily", { signal: stop.signal });
  const chosen = games.find((g) => g.game === game) || games[0];
  if (!chosen) throw new Error("No game has a daily challenge on this server.");
  const picker = el(
    "select",
    {
      id: "daily-game",
      onchange: (/** @type {Event} */ e) => {
        location.hash = `#/daily/${encodeURIComponent(/** @type {HTMLSelectElement} */ (e.target).value)}`;
      },
    },
    games.map((g) => el("option", { value: g.game, selected: g.game === chosen.game }, g.name)),
  );
  const nameInput = el("input", {
    id: "daily-name",
    type: "text",
    maxlength: "40",
    autocomplete: "nickname",
    value: savedName() || "",
    placeholder: "Ann",
  });
  const error = el("p", { class: "form-error", role: "alert", id: "daily-error" });
  const playButton = el("button", { type: "submit", class: "primary", id: "daily-play" }, "Play today's challenge");

  /** @type {SetStandings | null} today's standings as last seen (the tables this browser holds a seat at) */
  let seenToday = null;
  const played = el("p", { class: "help", id: "daily-played" });
  /** @param {SetStandings} data */
  function showPlayed(data) {
    seenToday = data;
    const held = heldSeat(data);
    clear(played);
    if (held) {
      played.append(
        "You have played today's challenge in this browser (once a day): ",
        el("a", { href: `#/table/${encodeURIComponent(held.table)}` }, "your table"),
        ".",
      );
    }
  }

  /** @param {SubmitEvent} event */
  async function play(event) {
    event.preventDefault();
    error.textContent = "";
    const name = nameInput.value.trim();
    if (name) saveName(name);
    playButton.disabled = true;
    try {
      const held = heldSeat(seenToday);
      const made = await api(`/duplicate/daily/${encodeURIComponent(chosen.game)}/play`, {
        method: "POST",
        body: { name },
        token: held ? held.token : null, // the server refuses a second table to this browser
      });
      const id = made.table.id;
      saveHost(id, made.host_token);
      saveInvite(id, made.invite);
      if (made.seat_token !== null && made.seat !== null) saveSeat(id, made.seat, made.seat_token);
      location.hash = `#/table/${encodeURIComponent(id)}`;
    } catch (problem) {
      playButton.disabled = false;
      error.textContent = `Your table could not be made: ${errorText(problem)}`;
    }
  }

  const day = today();
  clear(root).append(
    el("h1", { class: "page-title" }, "Daily challenge"),
    el(
      "section",
      { class: "panel", "aria-labelledby": "daily-title" },
      el("h2", { id: "daily-title" }, `${chosen.name}, ${day}`),
      el(
        "p",
        {},
        `Today's ${chosen.hands} hands of ${chosen.name} at ${chosen.players} players are the same for everyone, and so are the bots in the other seats. `,
        "Play them at a table of your own, in the first seat: each hand is compared with everyone who held your cards. Nothing is taken back, and the coach keeps quiet.",
      ),
      el(
        "form",
        { class: "dup-play", onsubmit: (/** @type {SubmitEvent} */ e) => play(e) },
        el("p", { class: "field" }, el("label", { for: "daily-game" }, "Game"), picker),
        el("p", { class: "field" }, el("label", { for: "daily-name" }, "Your name"), nameInput),
        el("div", { class: "actions" }, playButton),
        played,
        error,
      ),
    ),
    standingsPanel(
      (order) => `/duplicate/daily/${encodeURIComponent(chosen.game)}?order=${order}`,
      (data) => `Standings of the ${chosen.name} challenge, ${data.set.day || day}`,
      stop.signal,
      { bots: false, seen: showPlayed },
    ),
  );
  return () => stop.abort();
}

/**
 * The set's host makes a table of it: the first seat theirs, each other seat a person's
 * (invited with the table's link) or a bot's.
 * @param {SetInfo} set
 * @param {string} token the set's host token
 */
async function tableForm(set, token) {
  /** @type {{id: string, label: string}[]} */
  const bots = await api("/api/bots");
  const nameInput = el("input", { id: "dup-host-name", type: "text", maxlength: "40", value: savedName() || "", placeholder: "Ann" });
  const seats = Array.from({ length: set.players - 1 }, (_, index) =>
    el(
      "select",
      { id: `dup-seat-${index + 2}` },
      el("option", { value: "human" }, "A person (invited)"),
      bots.map((b) => el("option", { value: b.id, selected: b.id === "easy" }, `Bot: ${b.label}`)),
    ),
  );
  const error = el("p", { class: "form-error", role: "alert" });
  const button = el("button", { type: "submit", class: "primary", id: "dup-make-table" }, "Make a table of the set");

  /** @param {SubmitEvent} event */
  async function make(event) {
    event.preventDefault();
    error.textContent = "";
    const name = nameInput.value.trim();
    if (name) saveName(name);
    const kinds = ["human", ...seats.map((select) => select.value)];
    button.disabled = true;
    try {
      const made = await api(`/duplicate/${encodeURIComponent(set.id)}/tables`, {
        method: "POST",
        body: { seats: kinds, host_seat: 0, name },
        token,
      });
      const id = made.table.id;
      saveHost(id, made.host_token);
      saveInvite(id, made.invite);
      if (made.seat_token !== null && made.seat !== null) saveSeat(id, made.seat, made.seat_token);
      const invited = kinds.slice(1).includes("human");
      location.hash = invited ? `#/invite/${encodeURIComponent(id)}` : `#/table/${encodeURIComponent(id)}`;
    } catch (problem) {
      button.disabled = false;
      error.textContent = `The table could not be made: ${errorText(problem)}`;
    }
  }

  return el(
    "section",
    { class: "panel", "aria-labelledby": "dup-host-title" },
    el("h2", { id: "dup-host-title" }, "A table of the set"),
    el(
      "p",
      { class: "help" },
      "You made this set: make its tables, now or on another day. You sit in the first seat; a bot in the same seat plays the same at every table.",
    ),
    el(
      "form",
      { class: "dup-play", onsubmit: (/** @type {SubmitEvent} */ e) => make(e) },
      el("p", { class: "field" }, el("label", { for: "dup-host-name" }, "Your name (seat 1)"), nameInput),
      seats.map((select, index) => el("p", { class: "field" }, el("label", { for: select.id }, `Seat ${index + 2}`), select)),
      el("div", { class: "actions" }, button),
      error,
    ),
  );
}

/**
 * A new duplicate set: a game, its players and a name; this browser keeps the set's
 * host token and opens the set's page, where its tables are made.
 * @param {HTMLElement} root
 */
export async function mountNewSet(root) {
  duplicateStyles();
  /** @type {DailyGame[]} */
  const games = await api("/duplicate/daily");
  const picker = el(
    "select",
    { id: "dup-new-game" },
    games.map((g) => el("option", { value: g.game }, g.name)),
  );
  const players = el("input", { id: "dup-new-players", type: "number", min: "2", max: "16", value: "4" });
  const name = el("input", { id: "dup-new-name", type: "text", maxlength: "60", placeholder: "Thursday club" });
  const error = el("p", { class: "form-error", role: "alert" });
  const button = el("button", { type: "submit", class: "primary", id: "dup-new-make" }, "Deal the set");

  /** @param {SubmitEvent} event */
  async function make(event) {
    event.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      const made = await api("/duplicate", {
        method: "POST",
        body: { game: picker.value, players: Number(players.value), name: name.value.trim() || null },
      });
      writeText(`dupset.${made.set.id}`, made.host_token);
      location.hash = `#/duplicate/${encodeURIComponent(made.set.id)}`;
    } catch (problem) {
      button.disabled = false;
      error.textContent = `The set could not be made: ${errorText(problem)}`;
    }
  }

  clear(root).append(
    el("h1", { class: "page-title" }, "A duplicate evening"),
    el(
      "section",
      { class: "panel", "aria-labelledby": "dup-new-title" },
      el("h2", { id: "dup-new-title" }, "New set of deals"),
      el(
        "p",
        {},
        "The deals are fixed now, for every hand of the game. Each table of the set plays them in the same seats, tonight or any day after; each hand is then compared with everyone who held the same cards.",
      ),
      el(
        "form",
        { class: "dup-play", onsubmit: (/** @type {SubmitEvent} */ e) => make(e) },
        el("p", { class: "field" }, el("label", { for: "dup-new-game" }, "Game"), picker),
        el("p", { class: "field" }, el("label", { for: "dup-new-players" }, "Players at each table"), players),
        el("p", { class: "field" }, el("label", { for: "dup-new-name" }, "Name"), name),
        el("div", { class: "actions" }, button),
        error,
      ),
    ),
  );
}
