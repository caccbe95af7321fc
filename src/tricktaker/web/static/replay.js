// @ts-check
// Replays: a finished game stepped through event by event, trick by trick and hand by
// hand, with every hand shown. The frames are made by the server's engine, a hand at a
// time (docs/protocol.md, Replays): opening a replay fetches its outline (each hand's
// place among the frames) and its first hand; each other hand's frames are fetched when
// the page steps into it (and the hands either side of it beforehand), the score sheet
// once a hand is over. A hand's frames come as the first whole and each other as its
// change from the frame before (applyChange), so a long game opens as fast as a short one.
//
//   #/replay            open a record file, or a finished table
//   #/replay?r=RID      a record file opened before (kept by the server while it runs)
//   #/replay/ID?game=N  game N (default: the last) of table ID, with its record to download
//
// Each has its Review: the coach's review of a seat's decisions (review.js).

import { getJSON, getReplay, knownTables, recordUrl, tableReplay, uploadReplay } from "./api.js";
import { cardName, cardSvg, cardText, fourColourChosen } from "./cards.js";
import { append, clear, el, suitText } from "./dom.js";
import { mountReview } from "./review.js";
import { renderScorecard } from "./scorecard.js";

/** @typedef {import("./scorecard.js").Scorecard} Scorecard */
/** @typedef {[number, string]} Played a seat and the card it played */
/** @typedef {{label: string, text: string}} Line */

/**
 * The table after one event (tricktaker.web.replays.frame): every seat's cards in the
 * order a player holds them (`trumps`: how many of them are trumps, first).
 * @typedef {object} Frame
 * @property {number} step
 * @property {number | null} actor
 * @property {string | null} chance
 * @property {string} action
 * @property {string} phase
 * @property {number | null} hand_number
 * @property {number | null} hands_in_game
 * @property {number} hand_size
 * @property {number} dealer
 * @property {string | null} special
 * @property {string | null} trump
 * @property {string | null} turn_up
 * @property {string[][]} hands
 * @property {number[]} trumps
 * @property {(number | null)[]} bids
 * @property {number[]} tricks_won
 * @property {Played[]} current_trick
 * @property {{cards: Played[], winner: number} | null} trick the trick this event completed
 * @property {number[]} scores
 * @property {number[]} to_act
 * @property {Record<string, unknown>} extra
 * @property {Line[]} lines
 * @property {Line[][]} seat_lines
 * @property {string[]} narration
 */

/**
 * A hand's place among the frames: `frame` the one before its first event, `end` the one
 * of its last (null if the record stops in it), `tricks` where each trick is complete.
 * @typedef {{number: number, frame: number, end: number | null, tricks: number[]}} HandMark
 */

/**
 * One hand's frames as the server sends them: the first whole, each other a change.
 * @typedef {{hand: number, first: number, last: number, frames: Record<string, any>[]}} HandFrames
 */

/**
 * What opens a replay (POST /api/replays, GET /api/replays/{id}, GET /api/tables/{id}/replay).
 * @typedef {object} Outline
 * @property {string} id
 * @property {string} game
 * @property {string} name
 * @property {number} players
 * @property {string[]} names
 * @property {number} seed
 * @property {Record<string, unknown>} options
 * @property {boolean} cooperative
 * @property {boolean} finished
 * @property {number[]} final_scores
 * @property {number[]} winners
 * @property {number} steps
 * @property {number} [undos]
 * @property {HandMark[]} hands
 * @property {HandFrames} first_hand
 */

/** How many hands' frames the page keeps (the most recently used). */
const KEPT_HANDS = 12;

/**
 * The frame that `change` makes of `before`: its keys replace the frame's, and `seats`
 * replaces only the seats it names in the per-seat lists (tricktaker.web.replays.apply_change).
 * @param {Record<string, any>} before
 * @param {Record<string, any>} change
 * @returns {Record<string, any>}
 */
export function applyChange(before, change) {
  /** @type {Record<string, any>} */
  const after = { ...before };
  for (const [key, value] of Object.entries(change)) if (key !== "seats") after[key] = value;
  for (const [key, seats] of Object.entries(change.seats || {})) {
    const values = [...before[key]];
    for (const [seat, value] of Object.entries(/** @type {Record<string, unknown>} */ (seats))) {
      values[Number(seat)] = value;
    }
    after[key] = values;
  }
  return after;
}

/**
 * A hand's frames whole.
 * @param {HandFrames} answer
 * @returns {Frame[]}
 */
function wholeFrames(answer) {
  /** @type {Frame[]} */
  const frames = [];
  /** @type {Record<string, any> | null} */
  let previous = null;
  for (const item of answer.frames) {
    previous = previous === null ? { ...item } : applyChange(previous, item);
    frames.push(/** @type {Frame} */ (previous));
  }
  return frames;
}

/**
 * The game's score sheet as it stood after its first `count` hands: the rows so far and
 * the totals, stacks and Set/Over/Perfect counts of the last of them (the sheet itself
 * is computed by the server's presentation layer; this only cuts it short).
 * @param {Scorecard} card
 * @param {number} count
 * @returns {Scorecard}
 */
export function sheetAfter(card, count) {
  const rows = card.rows.slice(0, count);
  const last = rows[rows.length - 1];
  /** @type {Scorecard} */
  const cut = { ...card, rows, series: (card.series || []).slice(0, count) };
  if (Array.isArray(card.team_series)) cut.team_series = card.team_series.slice(0, count);
  if (last && last.seats) {
    cut.totals = last.seats.map((s) => s.total ?? 0);
    if (Array.isArray(card.team_totals) && last.teams && last.teams.length) {
      cut.team_totals = last.teams.map((t) => t.total ?? 0);
    }
    if (card.stacks) cut.stacks = last.seats.map((s) => s.stack ?? 0);
  }
  if (Array.isArray(card.counts)) {
    cut.counts = card.names.map((_, seat) => {
      /** @type {{S: number, O: number, P: number}} */
      const tally = { S: 0, O: 0, P: 0 };
      for (const row of rows) {
        const outcome = row.seats && row.seats[seat] && row.seats[seat].outcome;
        if (outcome === "S" || outcome === "O" || outcome === "P") tally[outcome] += 1;
      }
      return tally;
    });
  }
  return cut;
}

/** The score sheet's styles (table.css), added to the page once. */
function sheetStyles() {
  if (!document.querySelector("link[data-tricktaker-table]")) {
    const href = new URL("./table.css", import.meta.url).href;
    document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-table": "" }));
  }
}

/**
 * The replay page.
 * @param {HTMLElement} root
 * @param {{tableId?: string | null, game?: number | null, replayId?: string | null, review?: number | null}} [where] `review`: open the coach's review of that seat at once
 * @returns {Promise<() => void>} what unmounts it
 */
export async function mountReplay(root, { tableId = null, game = null, replayId = null, review = null } = {}) {
  if (!tableId && !replayId) return mountPicker(root);
  append(root, el("h1", { class: "page-title" }, "Replay"));
  const status = el("p", { class: "loading", role: "status" }, "Replaying the game…");
  root.append(status);
  /** @type {Outline} */
  let replay;
  try {
    replay = tableId ? await tableReplay(tableId, game) : await getReplay(/** @type {string} */ (replayId));
  } catch (error) {
    status.replaceWith(
      el(
        "section",
        { class: "panel", role: "alert" },
        el("p", {}, `This game cannot be replayed: ${error instanceof Error ? error.message : String(error)}`),
        el("p", {}, el("a", { href: "#/replay" }, "Open another game")),
      ),
    );
    return () => {};
  }
  status.remove();
  sheetStyles();
  return viewer(root, replay, { tableId, game, review });
}

// -------------------------------------------------------------------- the picker

/**
 * @param {HTMLElement} root
 * @returns {() => void}
 */
function mountPicker(root) {
  const error = el("p", { class: "form-error", role: "alert", id: "record-error" });
  const file = el("input", {
    id: "record-file",
    type: "file",
    accept: ".json,application/json",
    onchange: () => file.files && file.files[0] && open(file.files[0]),
  });
  /** @param {File} picked */
  async function open(picked) {
    error.textContent = "";
    let record;
    try {
      record = JSON.parse(await picked.text());
    } catch {
      error.textContent = `${picked.name} is not a tricktaker record (not JSON).`;
      return;
    }
    try {
      const replay = await uploadReplay(record);
      location.hash = `#/replay?r=${encodeURIComponent(replay.id)}`;
    } catch (failure) {
      const refusal = /** @type {{status?: number, message?: string}} */ (failure);
      error.textContent =
        refusal.status === 413
          ? `${picked.name} is too large to send; replay it with: tricktaker replay FILE --web`
          : `${picked.name} cannot be replayed: ${refusal.message}`;
    }
  }
  const drop = el(
    "div",
    {
      class: "drop-zone",
      /** @param {DragEvent} e */
      ondragover: (e) => {
        e.preventDefault();
        drop.classList.add("over");
      },
      ondragleave: () => drop.classList.remove("over"),
      /** @param {DragEvent} e */
      ondrop: (e) => {
        e.preventDefault();
        drop.classList.remove("over");
        const picked = e.dataTransfer && e.dataTransfer.files[0];
        if (picked) open(picked);
      },
    },
    el("label", { for: "record-file" }, "Open a record file (.json)"),
    file,
    el("p", { class: "help" }, "A record is what ", el("code", {}, "tricktaker play --record DIR"), " writes, or what a finished table offers to download. You may also drop the file here."),
  );
  const tableInput = el("input", { id: "replay-table", type: "text", placeholder: "table id or link", autocomplete: "off" });
  const tableForm = el(
    "form",
    {
      class: "row",
      /** @param {SubmitEvent} e */
      onsubmit: (e) => {
        e.preventDefault();
        const text = tableInput.value.trim();
        const found = /(?:tables?\/|#\/(?:table|replay|join)\/)([A-Za-z0-9_-]+)/.exec(text);
        const id = found ? found[1] : text;
        if (id) location.hash = `#/replay/${encodeURIComponent(id)}`;
      },
    },
    el("label", { for: "replay-table" }, "A finished table"),
    tableInput,
    el("button", { type: "submit" }, "Replay"),
  );
  const mine = knownTables();
  append(root, [
    el("h1", { class: "page-title" }, "Replays"),
    el(
      "section",
      { class: "panel narrow" },
      el("h2", {}, "A record file"),
      drop,
      error,
      el("h2", {}, "A table's game"),
      el("p", { class: "help" }, "A table's game can be replayed once it is over (the replay shows every hand)."),
      tableForm,
      mine.length
        ? el(
            "ul",
            { class: "known-tables", "aria-label": "Tables you played at in this browser" },
            mine.map((/** @type {string} */ id) => el("li", {}, el("a", { href: `#/replay/${encodeURIComponent(id)}` }, `Table ${id}`))),
          )
        : null,
    ),
  ]);
  return () => {};
}

// -------------------------------------------------------------------- the viewer

/**
 * @param {HTMLElement} root
 * @param {Outline} replay
 * @param {{tableId: string | null, game: number | null, review: number | null}} where
 * @returns {() => void}
 */
function viewer(root, replay, { tableId, game, review }) {
  const names = replay.names || Array.from({ length: replay.players }, (_, s) => `Seat ${s + 1}`);
  const fourColour = fourColourChosen();
  const last = replay.steps;
  const marks = replay.hands;
  const trickFrames = marks.flatMap((h) => h.tricks);
  const handFrames = marks.map((h) => h.frame);
  let step = 0;
  let shown = -1;
  let closed = false;

  // -- each hand's frames, fetched once and kept (the most recent KEPT_HANDS)

  /** @type {Map<number, Frame[]>} */
  const ready = new Map();
  /** @type {Map<number, Promise<Frame[]>>} */
  const asked = new Map();

  /**
   * The hand whose frames hold `target`: the last hand that begins before it.
   * @param {number} target
   */
  function handOf(target) {
    let lo = 0;
    let hi = marks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (marks[mid].frame < target) lo = mid;
      else hi = mid - 1;
    }
    return marks[lo].number;
  }

  /**
   * Hand `number`'s frames, fetched if need be.
   * @param {number} number
   * @returns {Promise<Frame[]>}
   */
  function framesOf(number) {
    const have = ready.get(number);
    if (have) {
      ready.delete(number); // most recently used last
      ready.set(number, have);
      return Promise.resolve(have);
    }
    let pending = asked.get(number);
    if (!pending) {
      const answer =
        number === 1 && replay.first_hand
          ? Promise.resolve(replay.first_hand)
          : getJSON(`/api/replays/${encodeURIComponent(replay.id)}/hands/${number}`);
      pending = answer.then((/** @type {HandFrames} */ got) => {
        const frames = wholeFrames(got);
        ready.set(number, frames);
        for (const kept of ready.keys()) {
          if (ready.size <= KEPT_HANDS) break;
          if (kept !== handOf(step)) ready.delete(kept);
        }
        return frames;
      });
      pending.finally(() => asked.delete(number)).catch(() => {});
      asked.set(number, pending);
    }
    return pending;
  }

  /** @param {number} number */
  function prefetch(number) {
    if (number >= 1 && number <= marks.length && !ready.has(number)) framesOf(number).catch(() => {});
  }

  // -- the page

  const statusLine = el("p", { class: "replay-status", id: "replay-status" });
  const eventLine = el("p", { class: "replay-event", id: "replay-event" });
  const said = el("p", { class: "offscreen", id: "replay-said", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const linesBox = el("dl", { class: "replay-lines", id: "replay-lines" });
  const seatsBox = el("div", { class: "replay-seats", id: "replay-seats" });
  const trickBox = el("div", { class: "replay-trick", id: "replay-trick", role: "group", "aria-label": "The trick" });
  const sheetBox = el("div", { class: "replay-sheet", id: "replay-sheet" });
  const range = el("input", {
    type: "range",
    id: "replay-step",
    min: "0",
    max: String(last),
    value: "0",
    "aria-label": "Step of the game",
    oninput: () => slide(Number(range.value)),
  });
  const handSelect = el(
    "select",
    { id: "replay-hand", "aria-label": "Go to hand", onchange: () => go(Number(handSelect.value)) },
    marks.map((h) => el("option", { value: String(h.frame) }, `Hand ${h.number}`)),
  );

  /** @param {number[]} frames */
  const nextOf = (frames) => frames.find((f) => f > step) ?? last;
  /** @param {number[]} frames */
  const prevOf = (frames) => [...frames].reverse().find((f) => f < step) ?? 0;
  /**
   * @param {string} label
   * @param {string} text
   * @param {string} key
   * @param {() => void} action
   * @param {string} id
   */
  const button = (label, text, key, action, id) =>
    el("button", { type: "button", "aria-label": `${label} (${key})`, title: `${label} (${key})`, id, onclick: action }, text);
  const controls = el(
    "div",
    { class: "replay-controls", role: "toolbar", "aria-label": "Replay controls" },
    button("Start", "« Start", "Home", () => go(0), "replay-start"),
    button("Previous hand", "« Hand", "Page Up", () => go(prevOf(handFrames)), "replay-prev-hand"),
    button("Previous trick", "‹ Trick", "Shift+Left", () => go(prevOf(trickFrames)), "replay-prev-trick"),
    button("Step back", "◀", "Left", () => go(step - 1), "replay-back"),
    button("Step forward", "▶", "Right", () => go(step + 1), "replay-forward"),
    button("Next trick", "Trick ›", "Shift+Right", () => go(nextOf(trickFrames)), "replay-next-trick"),
    button("Next hand", "Hand »", "Page Down", () => go(nextOf(handFrames)), "replay-next-hand"),
    button("End", "End »", "End", () => go(last), "replay-end"),
  );

  const options = Object.entries(replay.options || {})
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v === true ? "on" : v === false ? "off" : v}`)
    .join(", ");
  const finalLine = replay.finished
    ? `Final scores: ${names.map((n, s) => `${n} ${replay.final_scores[s]}`).join(", ")}` +
      (replay.winners.length && !replay.cooperative ? ` · won by ${replay.winners.map((s) => names[s]).join(" and ")}` : "")
    : "The record ends before the game is over.";
  const undos = replay.undos || 0;
  const download = tableId
    ? el("a", { class: "button", id: "download-record", href: recordUrl(tableId, game), download: `${replay.game}-${tableId}${game ? `-${game}` : ""}.json` }, "Download the record")
    : null;
  // The coach's review of a seat's decisions (review.js).
  const reviewBox = el("section", { class: "panel review", id: "review", "aria-labelledby": "review-title", hidden: true });
  /** @type {(() => void) | null} */
  let reviewStop = null;
  const openReview = el(
    "button",
    {
      type: "button",
      id: "replay-review",
      "aria-controls": "review",
      onclick: () => {
        if (!reviewStop) {
          reviewStop = mountReview(reviewBox, {
            tableId,
            game,
            replayId: tableId ? null : replay.id,
            names,
            seat: review,
            moveTo: (target) => {
              go(target);
              replayPanel.scrollIntoView({ block: "start" });
            },
          });
        }
        reviewBox.hidden = false;
        reviewBox.scrollIntoView({ block: "start" });
        /** @type {HTMLElement | null} */ (reviewBox.querySelector("#review-seat"))?.focus({ preventScroll: true });
      },
    },
    "Review",
  );

  const replayPanel = el(
    "section",
    { class: "panel replay", "aria-labelledby": "replay-title" },
    el("h2", { id: "replay-title" }, replay.name),
    el("p", { class: "help" }, `${replay.players} players · seed ${replay.seed}${options ? ` · ${options}` : ""}`),
    el("p", { class: "replay-final" }, finalLine),
    undos ? el("p", { class: "help", id: "replay-undos" }, `A practice game: ${undos} action${undos === 1 ? " was" : "s were"} taken back (the replay shows the game as it was finished).`) : null,
    el("div", { class: "row" }, download, openReview, el("a", { class: "button", href: "#/replay" }, "Another game")),
    controls,
    el("div", { class: "row replay-position" }, range, handSelect),
    statusLine,
    eventLine,
    said,
    linesBox,
    el("div", { class: "replay-table" }, trickBox, seatsBox),
    el("p", { class: "help keys" }, "Keys: ← → a step, Shift+← → a trick, Page Up/Down a hand, Home/End."),
  );
  if (review !== null) queueMicrotask(() => openReview.click()); // #/replay/ID?game=N&review=SEAT
  append(root, [
    replayPanel,
    reviewBox,
    el("section", { class: "panel", "aria-labelledby": "sheet-title" }, el("h2", { id: "sheet-title" }, "Score sheet"), sheetBox),
  ]);

  /** @param {string} code */
  function drawCard(code) {
    return cardSvg(code, { fourColour });
  }

  /** @param {Frame} frame */
  function eventText(frame) {
    if (frame.step === 0) return "Before the first deal.";
    if (frame.narration && frame.narration.length) return frame.narration.join(" ");
    if (frame.chance) return frame.chance === "deal" ? "The cards are dealt." : `Chance: ${frame.chance.replace(/_/g, " ")}.`;
    return `${frame.actor === null ? "" : names[frame.actor]}: ${frame.action}`;
  }

  /** The hand shown in the hand picker: the last that has begun. */
  function handAt() {
    let found = marks[0];
    for (const hand of marks) if (hand.frame <= step) found = hand;
    return found;
  }

  /** @param {Frame} frame */
  function render(frame) {
    shown = frame.step;
    const hand = handAt();
    const inGame = frame.phase !== "game_over";
    const parts = [];
    if (inGame && frame.hand_number) {
      parts.push(`Hand ${frame.hand_number}${frame.hands_in_game ? ` of ${frame.hands_in_game}` : ""}`);
      parts.push(`${frame.hand_size} card${frame.hand_size === 1 ? "" : "s"}`);
      parts.push(`dealer ${names[frame.dealer]}`);
      if (frame.trump) parts.push(`trump ${suitText(frame.trump)}${frame.turn_up ? ` (turn-up ${cardText(frame.turn_up)})` : ""}`);
      else if (frame.phase !== "deal" && frame.phase !== "bidding") parts.push("no trump");
      if (frame.special) parts.push(frame.special.replace(/_/g, " "));
    } else if (!inGame) {
      parts.push("Game over");
    }
    parts.push(`step ${frame.step} of ${last}`);
    statusLine.textContent = parts.join(" · ");
    const told = eventText(frame);
    eventLine.textContent = told;
    said.textContent = `Step ${frame.step} of ${last}. ${told}`;
    clear(linesBox);
    for (const line of frame.lines || []) linesBox.append(el("dt", {}, line.label), el("dd", {}, line.text));
    range.value = String(frame.step);
    if (hand) handSelect.value = String(hand.frame);

    // The trick: the one on the table, or the one this step completed.
    clear(trickBox);
    const done = frame.trick;
    const cards = done ? done.cards : frame.current_trick;
    trickBox.append(el("h3", {}, done ? `Trick won by ${names[done.winner]}` : cards.length ? "On the table" : "No cards on the table"));
    const row = el("ol", { class: "trick-cards" });
    for (const [seat, code] of cards) {
      row.append(el("li", { class: done && done.winner === seat ? "winner" : "" }, drawCard(code), el("span", { class: "who" }, names[seat])));
    }
    trickBox.append(row);

    // The seats, every hand shown.
    clear(seatsBox);
    for (let seat = 0; seat < replay.players; seat += 1) seatsBox.append(seatBox(frame, seat));
    renderSheet();
  }

  /**
   * @param {Frame} frame
   * @param {number} seat
   */
  function seatBox(frame, seat) {
    const done = frame.trick;
    const badges = [];
    if (frame.dealer === seat && frame.phase !== "game_over") badges.push(el("span", { class: "badge" }, "dealer"));
    if (frame.to_act.includes(seat)) badges.push(el("span", { class: "badge turn" }, "to act"));
    if (done && done.winner === seat) badges.push(el("span", { class: "badge win" }, "wins the trick"));
    const bid = frame.bids[seat];
    const facts = [];
    if (bid !== null && bid !== undefined) facts.push(`bid ${bid}`);
    facts.push(`tricks ${frame.tricks_won[seat]}`);
    if (!replay.cooperative) facts.push(`score ${frame.scores[seat]}`);
    for (const [key, value] of Object.entries(frame.extra || {})) {
      if (Array.isArray(value) && value.length === replay.players && value.every((v) => typeof v !== "object" || v === null)) {
        facts.push(`${key.replace(/_/g, " ")} ${value[seat] === null ? "-" : value[seat]}`);
      }
    }
    for (const line of (frame.seat_lines && frame.seat_lines[seat]) || []) facts.push(`${line.label}: ${line.text}`);
    const cards = frame.hands[seat] || [];
    const trumps = (frame.trumps && frame.trumps[seat]) || 0;
    const spoken = cards.map((code, k) => `${cardName(code)}${k < trumps ? " (trump)" : ""}`);
    return el(
      "section",
      { class: `replay-seat${frame.to_act.includes(seat) ? " acting" : ""}`, "aria-label": names[seat], dataset: { seat: String(seat) } },
      el("h3", {}, names[seat], " ", badges),
      el("p", { class: "facts" }, facts.join(" · ")),
      el(
        "ul",
        { class: "hand", "aria-label": `${names[seat]}'s cards: ${spoken.length ? spoken.join(", ") : "none"}` },
        cards.map((code, k) =>
          k < trumps
            ? el("li", { class: "trump", title: "trump", style: "border-bottom: 3px solid #e0b400; border-radius: 4px" }, drawCard(code))
            : el("li", {}, drawCard(code)),
        ),
      ),
    );
  }

  // -- the score sheet: fetched once the first hand is over

  /** @type {Promise<Scorecard> | null} */
  let sheet = null;
  let drawn = -1; // how many hands the sheet on the page shows

  function renderSheet() {
    const count = marks.filter((h) => h.end !== null && h.end <= step).length;
    if (count === drawn) return;
    if (!count) {
      drawn = 0;
      clear(sheetBox);
      sheetBox.append(el("p", { class: "help" }, "The sheet fills in as each hand ends."));
      return;
    }
    if (!sheet) {
      sheet = getJSON(`/api/replays/${encodeURIComponent(replay.id)}/scorecard`);
      sheet.catch(() => {
        sheet = null;
      });
    }
    const at = step;
    sheet.then(
      (card) => {
        if (closed || at !== step) return;
        drawn = count;
        clear(sheetBox);
        renderScorecard(sheetBox, sheetAfter(card, count));
      },
      (error) => {
        if (closed || at !== step) return;
        clear(sheetBox);
        sheetBox.append(el("p", { class: "form-error" }, `The score sheet cannot be shown: ${error instanceof Error ? error.message : String(error)}`));
      },
    );
  }

  /**
   * Show frame `target` (clamped to the game): at once if its hand's frames are here,
   * else once they come (a later step wins over an earlier one still coming).
   * @param {number} target
   */
  function go(target) {
    const next = Math.max(0, Math.min(last, Number.isFinite(target) ? Math.trunc(target) : 0));
    if (next === step && shown === next) return;
    step = next;
    const number = handOf(next);
    const have = ready.get(number);
    if (have) {
      render(have[next - have[0].step]);
      prefetch(number + 1);
      prefetch(number - 1);
      return;
    }
    statusLine.textContent = `Hand ${number}: fetching its frames…`;
    framesOf(number).then(
      (frames) => {
        if (closed || step !== next) return;
        render(frames[next - frames[0].step]);
        prefetch(number + 1);
        prefetch(number - 1);
      },
      (error) => {
        if (closed || step !== next) return;
        statusLine.textContent = `Hand ${number} cannot be shown: ${error instanceof Error ? error.message : String(error)}`;
      },
    );
  }

  /** @type {ReturnType<typeof setTimeout> | null} */
  let sliding = null;

  /**
   * The slider dragged: a frame whose hand is here is shown at once; one whose hand is
   * not is fetched only once the slider rests (a drag across the game asks for one
   * hand, not every hand it passes).
   * @param {number} target
   */
  function slide(target) {
    if (sliding !== null) clearTimeout(sliding);
    sliding = null;
    if (ready.has(handOf(target))) {
      go(target);
      return;
    }
    statusLine.textContent = `Hand ${handOf(target)} · step ${target} of ${last}`;
    sliding = setTimeout(() => {
      sliding = null;
      go(Number(range.value));
    }, 150);
  }

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    const target = /** @type {HTMLElement | null} */ (event.target);
    const tag = (target && target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    /** @type {Record<string, () => void>} */
    const keys = {
      ArrowRight: () => go(event.shiftKey ? nextOf(trickFrames) : step + 1),
      ArrowLeft: () => go(event.shiftKey ? prevOf(trickFrames) : step - 1),
      PageDown: () => go(nextOf(handFrames)),
      PageUp: () => go(prevOf(handFrames)),
      Home: () => go(0),
      End: () => go(last),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  document.addEventListener("keydown", onKey);
  go(0);
  return () => {
    closed = true;
    if (sliding !== null) clearTimeout(sliding);
    if (reviewStop) reviewStop();
    document.removeEventListener("keydown", onKey);
  };
}
