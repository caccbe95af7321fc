// @ts-check
// The scorekeeper: the score sheet of a game played with real cards, kept on the
// server (/sheets, docs/scorekeeper.md). The keeper enters each hand with big buttons;
// the server checks every entry with the game's rules and scores it. Entries wait in
// localStorage while the connection is down and are sent again (each with its own id,
// so a retried entry is applied once). The other players follow the sheet read-only
// with its view link (#/score/ID?view=KEY), which polls the server; another phone keeps
// it too with the edit link the keeper gives out (#/score/ID?edit=KEY). What may be
// entered (the bids a bidder may make, a game's own steps with their choices) is the
// server's word: no rule is written here, and no game is named.
//
//   mountScorekeeper(root, {sheetId, view})  ->  unmount()
//   #/score              start a sheet (or import one, or reopen one kept here):
//                        scorekeeper-start.js
//   #/score/ID           keep the sheet (this browser holds its edit token or edit key)
//   #/score/ID?edit=KEY  keep the sheet with an edit link (the key is kept, and taken
//                        out of the address)
//   #/score/ID?view=KEY  follow the sheet, read-only

import { ApiError, api } from "./api.js";
import { SUITS as CARD_SUITS } from "./cards.js";
import { append, clear, copyText, el, toast } from "./dom.js";
import { cacheKeyOf, errorWords, keepSheet, keptSheet, mountStart, newId, queueKeyOf } from "./scorekeeper-start.js";
import { qrSvg } from "./scorekeeper-qr.js";
import { readJson, writeJson } from "./storage.js";

/**
 * The bids a bidder may make, as the server offers them.
 * @typedef {{seat: number, bids: number[], forbidden: {bid: number, reason: string}[]}} BidOffer
 */
/**
 * A Caller Clag call.
 * @typedef {{size: number, kind: string, modifiers: string[]}} Call
 */
/**
 * A hand as entered (the server's `entry`, and the body of an entry sent): the fields of
 * every game, then the fields of the game's own steps (named by the steps).
 * @typedef {{bids: (number | null)[], tricks: number[], trick_winners: number[], trump: string | null,
 *   call: Call | null, [field: string]: any}} Entry
 */
/**
 * One of a game's own steps of entering a hand, as the server describes it: "choice" (one
 * of `choices`), "seat_text" (a text and the seat that made it, or `skip`: nothing was
 * played), "seat_words" (each seat's words, with the `count` step's number of the seats
 * whose words include one of `counted_when`), "seat_number" (each seat's number).
 * @typedef {{name: string, kind: "choice" | "seat_text" | "seat_words" | "seat_number", label: string,
 *   question: string, choices: string[], low: number, high: number, hint: string,
 *   seat_field: string | null, seat_question: string, skip: string | null, count: Step | null,
 *   counted_when: string[], checked: boolean}} Step
 */
/**
 * A row of the sheet.
 * @typedef {{hand: number, dealer: number, hand_size: number, trump: string | null, special: string | null,
 *   bids: number[] | null, tricks: number[], scores: number[], totals: number[], outcomes: string[] | null,
 *   entry: Entry}} Row
 */
/**
 * The next hand, as the server tells it (or this page guesses it while hands wait).
 * @typedef {{hand: number, dealer: number, hand_size?: number | null, special?: string | null,
 *   trump_rule?: string, bid_order?: number[], bids_first?: string, opening?: string, misere?: boolean,
 *   call_sizes?: number[], trick_points?: boolean, notes?: string[], enter?: string[],
 *   bid_offer?: BidOffer | null, steps?: Step[], guessed?: boolean}} Next
 */
/**
 * The sheet, as the server shows it.
 * @typedef {{id: string, version: number, game: string, name: string, players: string[],
 *   can_edit: boolean, owner?: boolean, edit_link?: boolean, view_key: string | null,
 *   has_bids: boolean, steps: Step[], fills_last_tricks: boolean, rows: Row[], totals: number[],
 *   counts: Record<string, number>[], chips: {stacks: number[], pot: number} | null,
 *   over: boolean, result: string, next: Next | null}} Sheet
 */
/**
 * A hand being entered, step by step.
 * @typedef {{kind: "add" | "fix", hand: number, next: Next, dealer: number, retry: boolean,
 *   steps: string[], step: number, cursor: number, dirty: boolean, busy: boolean, jump: boolean,
 *   asked: boolean, entered: number, filled: number | null, offer: BidOffer | null,
 *   size: number | null, order: number[], call: Call | null, bids: (number | null)[],
 *   tricks: number[], trump: string | null, fields: Record<string, any>, winners: number[]}} Draft
 */
/**
 * A refusal shown above the entry.
 * @typedef {{title: string, detail: string, rule?: string | null}} Problem
 */
/**
 * A change a correction made.
 * @typedef {{hand: number, seat: number, player: string, what: string, old: number, new: number}} Change
 */
/**
 * The page's state while it keeps (or follows) a sheet.
 * @typedef {{sheet: Sheet | null, editKey: string | null, locked: boolean,
 *   queue: {items: Item[], paused: boolean}, status: string, problem: Problem | null,
 *   notice: string, changes: Change[], draft: Draft | null, undoArmed: boolean,
 *   syncing: boolean, retry: number, timers: Set<ReturnType<typeof setTimeout>>, alive: boolean}} State
 */
/**
 * An entry waiting to be sent.
 * @typedef {{kind: "add" | "fix" | "undo", hand: number, body: any, front?: boolean}} Item
 */

const POLL_MS = 3000;
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
/** The suits as the sheet names them, with their symbols (cards.js). */
const SUITS = Object.values(CARD_SUITS).map((suit) => [suit.name, suit.symbol]);
/** The fields of every game's entry; the others are the fields of the game's own steps. */
const ENTRY_FIELDS = ["bids", "tricks", "trick_winners", "trump", "call"];
const COLOURS = ["#1f5fbf", "#c4161c", "#157a2c", "#8a4fbf", "#c77800", "#0f8a8a", "#6b6b6b", "#b5367a"];

function ensureStyles() {
  if (document.querySelector("link[data-tricktaker-scorekeeper]")) return;
  const href = new URL("./scorekeeper.css", import.meta.url).href;
  document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-scorekeeper": "" }));
}

/** @param {number} n */
const signed = (n) => (n > 0 ? `+${n}` : String(n));
/** @param {string | null | undefined} name */
const suitWord = (name) => {
  const found = SUITS.find(([word]) => word === name);
  return found ? `${found[1]} ${name}` : name || "";
};

/**
 * The read-only link of a sheet.
 * @param {string} id
 * @param {string} key
 */
export function viewLink(id, key) {
  return `${location.origin}${location.pathname}#/score/${encodeURIComponent(id)}?view=${encodeURIComponent(key)}`;
}

/**
 * The edit link of a sheet: whoever opens it keeps the sheet too.
 * @param {string} id
 * @param {string} key
 */
export function editLink(id, key) {
  return `${location.origin}${location.pathname}#/score/${encodeURIComponent(id)}?edit=${encodeURIComponent(key)}`;
}

/**
 * Opened with an edit link: keep its key in this browser (unless this browser started
 * the sheet: it keeps its own token) and take the key out of the address bar.
 * @param {string} sheetId
 */
function takeEditLink(sheetId) {
  const query = location.hash.split("?")[1] || "";
  const key = new URLSearchParams(query).get("edit");
  if (!key) return;
  const kept = keptSheet(sheetId);
  if (!kept || kept.via === "link") keepSheet(sheetId, { ...(kept || {}), token: key, via: "link", created: Date.now() });
  history.replaceState(history.state, "", `${location.pathname}${location.search}#/score/${encodeURIComponent(sheetId)}`);
}

// ------------------------------------------------------------------ mount

/**
 * Mount the scorekeeper on `root`; returns the function that unmounts it.
 * @param {HTMLElement} root
 * @param {{sheetId?: string | null, view?: string | null}} [where]
 * @returns {() => void}
 */
export function mountScorekeeper(root, { sheetId = null, view = null } = {}) {
  ensureStyles();
  root.classList.add("sk-root");
  if (sheetId) takeEditLink(sheetId);
  const stop = sheetId ? mountSheet(root, sheetId, view) : mountStart(root);
  return () => {
    stop();
    root.classList.remove("sk-root");
  };
}

// ------------------------------------------------------------- keep a sheet

/**
 * Keep the sheet (this browser holds its edit token or edit key) or follow it read-only.
 * @param {HTMLElement} root
 * @param {string} sheetId
 * @param {string | null} viewKey
 * @returns {() => void}
 */
function mountSheet(root, sheetId, viewKey) {
  const kept = keptSheet(sheetId);
  let readOnly = Boolean(viewKey) || !kept;
  let token = readOnly || !kept ? null : kept.token;
  let key = viewKey || (kept && kept.view) || null;
  /** @type {State} */
  const S = {
    sheet: readJson(cacheKeyOf(sheetId), null),
    editKey: (kept && kept.editKey) || null,
    locked: false,
    queue: readJson(queueKeyOf(sheetId), { items: [], paused: false }),
    status: "saved",
    problem: null,
    notice: "",
    changes: [],
    draft: null,
    undoArmed: false,
    syncing: false,
    retry: 0,
    timers: new Set(),
    alive: true,
  };
  if (!readOnly) S.status = S.queue.items.length ? "saving" : "saved";

  if (!key && !token) {
    root.append(
      el(
        "section",
        { class: "panel", role: "alert" },
        el("h1", {}, "This sheet is not kept in this browser"),
        el("p", {}, "Open the read-only link or the edit link the scorekeeper shares, or this sheet in the browser that started it."),
        el("p", {}, el("a", { href: "#/score" }, "Start a sheet")),
      ),
    );
    return () => {};
  }

  /**
   * @param {() => void} fn
   * @param {number} ms
   */
  const later = (fn, ms) => {
    const timer = setTimeout(() => {
      S.timers.delete(timer);
      if (S.alive) fn();
    }, ms);
    S.timers.add(timer);
  };
  const path = `/sheets/${encodeURIComponent(sheetId)}`;
  let readPath = token ? path : `${path}?view=${encodeURIComponent(key || "")}`;

  /**
   * The server refused this browser's edit key (the keeper replaced or revoked the edit
   * link): it may no longer change the sheet, and from now on it follows the sheet
   * read-only with the view key it learnt (answers whether it can).
   * @param {string} detail the server's words
   */
  function shutOut(detail) {
    S.locked = true;
    const follows = Boolean(key);
    S.problem = { title: "This browser can no longer change the sheet", detail: follows ? `${detail} This page now follows the sheet, read-only.` : detail };
    if (!follows) return false;
    readOnly = true;
    token = null;
    readPath = `${path}?view=${encodeURIComponent(key || "")}`;
    S.draft = null;
    S.status = "following";
    return true;
  }

  function saveQueue() {
    writeJson(queueKeyOf(sheetId), S.queue.items.length || S.queue.paused ? S.queue : null);
  }
  /** @param {Sheet | null | undefined} sheet */
  function setSheet(sheet) {
    if (!sheet) return;
    S.sheet = sheet;
    writeJson(cacheKeyOf(sheetId), sheet);
    if (!key && sheet.view_key) key = sheet.view_key; // kept with an edit link: learnt here
    const mine = keptSheet(sheetId);
    if (mine && !readOnly && (!mine.name || !mine.view)) {
      keepSheet(sheetId, { ...mine, view: sheet.view_key || mine.view, game: sheet.game, name: sheet.name, players: sheet.players });
    }
  }

  async function refresh() {
    if (!S.alive) return;
    if (!S.syncing && !(S.queue.items.length && !S.queue.paused)) {
      try {
        const sheet = await api(readPath, { token });
        // An answer older than what a save brought back meanwhile is dropped.
        const stale = S.sheet && S.sheet.rows && (sheet.version < S.sheet.version || S.syncing);
        const changed = !stale && (!S.sheet || sheet.version !== S.sheet.version || !S.sheet.rows);
        if (!stale) setSheet(sheet);
        if (S.status === "offline" || S.status === "lost") S.status = readOnly ? "following" : "saved";
        if (changed) render();
        else drawStatus();
      } catch (exc) {
        if (exc instanceof ApiError && exc.status > 0 && exc.status < 500 && exc.status !== 429) {
          const refusedKey = !readOnly && (exc.status === 401 || exc.status === 403);
          // An edit link replaced or revoked: follow the sheet from now on, read-only.
          const follows = refusedKey && shutOut(exc.detail);
          if (!refusedKey) S.problem = { title: exc.title, detail: exc.detail };
          render();
          if (follows) later(refresh, 0);
          return; // a refused key or sheet: stop polling with it
        }
        S.status = readOnly ? "lost" : "offline";
        drawStatus();
      }
    }
    later(refresh, POLL_MS);
  }

  // ------------------------------------------------------------ the queue

  /** @param {Item} item */
  function send(item) {
    if (item.kind === "add") return api(`${path}/hands`, { method: "POST", body: item.body, token });
    if (item.kind === "fix") return api(`${path}/hands/${item.hand}`, { method: "PUT", body: item.body, token });
    return api(`${path}/undo`, { method: "POST", body: item.body, token });
  }

  async function sync() {
    if (readOnly || S.syncing || !S.alive) return;
    S.syncing = true;
    let changed = false; // re-draw only when the sheet or the queue moved (not on a failed retry)
    try {
      while (S.queue.items.length && !S.queue.paused) {
        S.status = "saving";
        drawStatus();
        const item = S.queue.items[0];
        let answer;
        try {
          answer = await send(item);
        } catch (exc) {
          if (!(exc instanceof ApiError) || exc.status === 0 || exc.status >= 500 || exc.status === 429) {
            S.status = "offline";
            const wait = RETRY_MS[Math.min(S.retry, RETRY_MS.length - 1)];
            S.retry += 1;
            later(sync, wait);
            return;
          }
          S.queue.items.shift();
          S.queue.paused = S.queue.items.length > 0;
          saveQueue();
          refused(item, exc);
          changed = true;
          return;
        }
        S.retry = 0;
        S.queue.items.shift();
        saveQueue();
        setSheet(answer.sheet);
        changed = true;
        if (item.kind === "fix") {
          S.changes = answer.changes || [];
          S.notice = describeChanges(item.hand, S.changes);
        } else if (item.kind === "undo") {
          S.notice = `Hand ${answer.hand} was taken back.`;
        } else {
          S.notice = "";
        }
      }
      if (!S.queue.items.length) S.status = "saved";
    } finally {
      S.syncing = false;
      if (S.alive && changed) render();
      else if (S.alive) drawStatus();
    }
  }

  /**
   * @param {Item} item
   * @param {ApiError} exc
   */
  function refused(item, exc) {
    if ((exc.status === 401 || exc.status === 403) && shutOut(exc.detail)) return;
    S.problem = {
      title: item.kind === "undo" ? "Not taken back" : `Hand ${item.hand} was not saved`,
      detail: exc.detail,
      rule: ruleOf(exc),
    };
    S.status = S.queue.items.length ? "waiting" : "saved";
    if (item.kind !== "undo" && S.sheet) S.draft = draftFrom(item.kind, item.hand, item.body, S.sheet, true);
  }

  /** @param {Item} item */
  function enqueue(item) {
    if (item.front) S.queue.items.unshift(item);
    else S.queue.items.push(item);
    delete item.front;
    S.queue.paused = false;
    saveQueue();
    S.problem = null;
    S.retry = 0;
    sync();
    render();
  }

  /**
   * The next hand as far as this page knows it (hands waiting to be saved move it on).
   * @returns {Next | null}
   */
  function nextHand() {
    const sheet = S.sheet;
    if (!sheet || !sheet.next) return null;
    // While the queue waits for a refused hand to be entered again, that hand comes next.
    const adds = S.queue.items.filter((i) => i.kind === "add").length;
    const waiting = S.queue.paused ? 0 : adds - S.queue.items.filter((i) => i.kind === "undo").length;
    if (waiting <= 0) return { ...sheet.next, guessed: false };
    const n = sheet.players.length;
    const dealer = (sheet.next.dealer + waiting) % n;
    return {
      ...sheet.next,
      hand: sheet.next.hand + waiting,
      dealer,
      hand_size: null,
      bid_order: sheet.players.map((_, i) => (dealer + 1 + i) % n),
      bids_first: sheet.players[(dealer + 1) % n],
      opening: sheet.has_bids ? `${sheet.players[(dealer + 1) % n]} bids first` : "",
      notes: [],
      bid_offer: null,
      guessed: true,
      enter: (sheet.next.enter || []).filter((step) => step !== "trick_winners"),
    };
  }

  // ---------------------------------------------------------- rendering

  const statusBox = el("p", { class: "sk-status", role: "status", "aria-live": "polite" });
  function drawStatus() {
    const waiting = S.queue.items.length;
    /** @type {Record<string, string>} */
    const words = {
      saved: "saved",
      saving: "saving…",
      offline: `offline: ${waiting} waiting, retrying`,
      waiting: `${waiting} waiting: correct the refused hand`,
      following: "following the sheet",
      lost: "connection lost: retrying",
    };
    statusBox.dataset.state = S.status;
    statusBox.textContent = readOnly ? words[S.status] || "following the sheet" : words[S.status] || S.status;
  }

  function render() {
    if (!S.alive) return;
    const place = focusPlace();
    clear(root);
    drawStatus();
    const sheet = S.sheet;
    const head = el(
      "header",
      { class: "sk-head" },
      el("h1", { class: "page-title" }, sheet ? `${sheet.name}: score sheet` : "Score sheet"),
      statusBox,
    );
    root.append(head);
    if (readOnly) root.append(el("p", { class: "help sk-noprint" }, "Read-only: this page follows the scorekeeper's sheet."));
    if (S.problem) {
      root.append(
        el(
          "div",
          { class: "sk-problem", role: "alert" },
          el("strong", {}, S.problem.title || "Refused"),
          el("p", { class: "sk-rule-text" }, S.problem.detail || ""),
          S.problem.rule ? el("p", { class: "sk-rule" }, `Rule: ${S.problem.rule}`) : null,
        ),
      );
    }
    if (S.notice) root.append(el("p", { class: "sk-notice", role: "status" }, S.notice));
    if (!sheet) {
      root.append(el("p", { class: "loading" }, "Loading the sheet…"));
      return;
    }
    if (!readOnly && !S.locked) root.append(entryPanel(sheet));
    else if (sheet.next) root.append(nextLine(sheet, sheet.next));
    root.append(sheetTable(sheet), resultLine(sheet), chartBox(sheet));
    root.append(sharePanel(sheet));
    refocus(place);
  }

  /** Where the keyboard's focus was before the page is drawn again: "entry", "share" or null. */
  function focusPlace() {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !root.contains(active)) return null;
    if (active.closest(".sk-entry") || active.classList.contains("sk-fix")) return "entry";
    if (active.closest(".sk-edit-link")) return "share";
    return null;
  }

  /**
   * Put the focus back where the keyboard was (the page was drawn anew): on the entry's
   * next question (the value chosen before, else its first control; the review's Save),
   * or on the edit link's buttons.
   * @param {string | null} place
   */
  function refocus(place) {
    const selectors = {
      entry: [".sk-step[data-step='review'] .sk-save", ".sk-step [aria-pressed='true']:not(:disabled)", ".sk-step button:not(:disabled), .sk-step input", ".sk-entry button"],
      share: [".sk-edit-link-text", ".sk-make-link"],
    };
    for (const selector of place === "entry" || place === "share" ? selectors[place] : []) {
      const target = root.querySelector(selector);
      if (target instanceof HTMLElement) {
        target.focus();
        return;
      }
    }
  }

  /**
   * @param {Sheet} sheet
   * @param {Next} nxt
   */
  function nextLine(sheet, nxt) {
    const parts = [`Hand ${nxt.hand}`];
    if (nxt.hand_size !== null && nxt.hand_size !== undefined) parts.push(`${nxt.hand_size} card${nxt.hand_size === 1 ? "" : "s"}`);
    parts.push(`${sheet.players[nxt.dealer]} deals${nxt.guessed ? " (if the waiting hands are right)" : ""}`);
    // Who starts, in the game's words (the server's); a guessed hand says who bids first.
    if (nxt.opening) parts.push(nxt.opening);
    else if (sheet.has_bids && nxt.opening === undefined) parts.push(`${nxt.bids_first} bids first`);
    return el(
      "div",
      { class: "sk-next" },
      el("p", { class: "sk-next-head" }, parts.join(" · ")),
      el("p", { class: "sk-trump-rule" }, `Trump: ${nxt.trump_rule}`),
      nxt.special ? el("p", {}, `Special hand: ${nxt.special}`) : null,
      nxt.notes && nxt.notes.length ? el("ul", { class: "sk-notes" }, nxt.notes.map((n) => el("li", {}, n))) : null,
    );
  }

  /** @param {Sheet} sheet */
  function resultLine(sheet) {
    return el("p", { class: sheet.over ? "sk-result over" : "sk-result" }, sheet.result);
  }

  // ----------------------------------------------------------- the entry

  /** @param {Sheet} sheet */
  function entryPanel(sheet) {
    const box = el("section", { class: "panel sk-entry sk-noprint", "aria-label": "Enter a hand" });
    if (S.draft && S.draft.kind === "add" && !S.draft.dirty) S.draft = null; // follow the sheet
    if (!S.draft) {
      const nxt = nextHand();
      if (!nxt) {
        box.append(el("p", {}, sheet.over ? "The game is over." : ""));
        if (sheet.rows.length) box.append(undoButton(sheet));
        return box;
      }
      S.draft = draftFrom("add", nxt.hand, null, sheet, false, nxt);
    }
    const d = S.draft;
    fillLastTricks(sheet, d);
    if (d.kind === "add") box.append(nextLine(sheet, d.next));
    else box.append(el("h2", {}, `Correct hand ${d.hand}`), el("p", { class: "help" }, `${d.size} card${d.size === 1 ? "" : "s"} · ${sheet.players[d.dealer]} dealt`));
    box.append(stepView(sheet, d));
    const tools = el("div", { class: "row sk-entry-tools" });
    if (d.step > 0 && !(d.kind === "fix" && d.steps[d.step] === "review")) tools.append(el("button", { type: "button", class: "small", onclick: () => { d.step -= 1; d.cursor = 0; render(); } }, "Back"));
    if (d.kind === "fix" || d.dirty) tools.append(el("button", { type: "button", class: "small", onclick: () => { S.draft = null; S.problem = null; render(); } }, d.kind === "fix" ? "Cancel the correction" : "Start the hand again"));
    if (d.kind === "add" && sheet.rows.length && !d.dirty) tools.append(undoButton(sheet));
    box.append(tools);
    return box;
  }

  /** @param {Sheet} sheet */
  function undoButton(sheet) {
    const last = sheet.rows.length + S.queue.items.filter((i) => i.kind === "add").length;
    return el(
      "button",
      {
        type: "button",
        class: "small sk-undo",
        onclick: () => {
          if (!S.undoArmed) {
            S.undoArmed = true;
            render();
            return;
          }
          S.undoArmed = false;
          S.draft = null;
          enqueue({ kind: "undo", hand: last, body: { id: newId(), hand: last } });
        },
      },
      S.undoArmed ? `Tap again to take back hand ${last}` : "Undo the last hand",
    );
  }

  /**
   * @param {Sheet} sheet
   * @param {Draft} d
   */
  function stepView(sheet, d) {
    const step = d.steps[d.step];
    const n = sheet.players.length;
    const view = el("div", { class: "sk-step", dataset: { step } });
    const advance = () => {
      d.dirty = true;
      d.step = d.jump ? d.steps.indexOf("review") : d.step + 1; // a change from the review goes back to it
      d.jump = false;
      d.cursor = 0;
      render();
    };
    if (step === "size") {
      append(view, el("h3", {}, "How many cards in this hand?"), numberButtons(1, Math.floor(52 / n), d.size, (v) => { d.size = v; advance(); }, "cards"));
    } else if (step === "call") {
      const sizes = d.next.call_sizes || [];
      const kind = el("input", { type: "text", id: "sk-call-kind", value: (d.call && d.call.kind) || "normal" });
      const mods = el("input", { type: "text", id: "sk-call-mods", value: d.call ? d.call.modifiers.join(", ") : "", placeholder: "e.g. blind_bid, nuloss" });
      append(view, 
        el("h3", {}, `${sheet.players[d.dealer]} calls the hand`),
        el("div", { class: "field" }, el("label", { for: "sk-call-kind" }, "Kind"), kind),
        el("div", { class: "field" }, el("label", { for: "sk-call-mods" }, "Modifiers"), mods),
        el("p", {}, "Cards:"),
        numberButtons(sizes[0] || 1, sizes[sizes.length - 1] || 13, d.call && d.call.size, async (v) => {
          const call = { size: v, kind: kind.value.trim() || "normal", modifiers: mods.value.split(",").map((m) => m.trim()).filter(Boolean) };
          const answer = await check({ bids: [], call });
          if (answer === false) return;
          d.call = call;
          d.size = v;
          if (answer && answer.next) {
            d.next = { ...d.next, ...answer.next };
            if (answer.next.misere) d.steps = d.steps.filter((x) => x !== "bids");
            if (answer.next.trick_points && !d.steps.includes("trick_winners")) d.steps.splice(d.steps.length - 1, 0, "trick_winners");
          }
          advance();
        }, "cards"),
      );
    } else if (step === "bids") {
      const order = d.order;
      const seat = order[d.cursor];
      /** The bids of the seats before `upto` in bidding order (null: not yet). */
      const madeBefore = (/** @type {(number | null)[]} */ bids, /** @type {number} */ upto) => sheet.players.map((_, s) => (order.indexOf(s) < upto ? bids[s] ?? null : null));
      const offer = d.offer && d.offer.seat === seat ? d.offer : null;
      if (!offer && !d.asked) {
        // The server says which bids this player may make (a correction, a bid taken back).
        d.asked = true;
        check({ hand: d.hand, bids: madeBefore(d.bids, d.cursor), call: d.call, trump: d.trump }).then((answer) => {
          if (answer && answer.bid_offer && S.draft === d) {
            d.offer = answer.bid_offer;
            render();
          }
        });
      }
      append(view,
        el("h3", {}, `${sheet.players[seat]} bids`),
        el("p", { class: "help" }, order.map((s, i) => `${sheet.players[s]}: ${i < d.cursor || d.kind === "fix" ? d.bids[s] ?? "…" : "…"}`).join(" · ")),
        bidButtons(offer, d, d.kind === "fix" || d.cursor < d.entered ? d.bids[seat] : null, async (v) => {
          if (d.busy) return; // a second tap while the bid is being checked
          const bids = d.bids.slice();
          bids[seat] = v;
          d.busy = true;
          const answer = await check({ hand: d.hand, bids: madeBefore(bids, d.cursor + 1), call: d.call, trump: d.trump });
          d.busy = false;
          if (answer === false) return;
          S.problem = null;
          d.bids = bids;
          d.dirty = true;
          d.offer = (answer && answer.bid_offer) || null;
          d.asked = Boolean(answer);
          d.entered = Math.max(d.entered, d.cursor + 1);
          if (d.cursor + 1 < order.length) {
            d.cursor += 1;
            render();
          } else advance();
        }),
      );
    } else if (gameStep(sheet, d, step)) {
      append(view, gameStepView(sheet, d, /** @type {Step} */ (gameStep(sheet, d, step)), advance));
    } else if (step === "trump") {
      append(view, 
        el("h3", {}, "Trump"),
        el(
          "div",
          { class: "sk-buttons" },
          SUITS.map(([word, symbol]) => el("button", { type: "button", class: `sk-big sk-suit sk-${word}`, "aria-pressed": String(d.trump === word), onclick: () => { d.trump = word; advance(); } }, `${symbol} ${word}`)),
          el("button", { type: "button", class: "sk-big", "aria-pressed": String(d.trump === "no trump"), onclick: () => { d.trump = "no trump"; advance(); } }, "no trump"),
          el("button", { type: "button", class: "sk-big", onclick: () => { d.trump = null; advance(); } }, "not entered"),
        ),
      );
    } else if (step === "tricks") {
      const order = d.order;
      const seat = order[d.cursor];
      const taken = order.slice(0, d.cursor).reduce((sum, s) => sum + (d.tricks[s] || 0), 0);
      append(view,
        el("h3", {}, `${sheet.players[seat]} took`),
        el("p", { class: "help" }, `${taken} of ${d.size} tricks so far · ` + order.map((s, i) => `${sheet.players[s]}: ${i < d.cursor ? d.tricks[s] : "…"}`).join(" · ")),
        numberButtons(0, d.size ?? 0, d.kind === "fix" ? d.tricks[seat] : null, (v) => {
          d.tricks[seat] = v;
          d.dirty = true;
          if (d.filled === seat) d.filled = null;
          if (d.cursor + 1 < order.length) {
            d.cursor += 1;
            render();
          } else advance();
        }, "tricks"),
      );
    } else if (step === "trick_winners") {
      const k = d.winners.length;
      if (k >= (d.size ?? 0)) {
        advance();
        return view;
      }
      append(view, 
        el("h3", {}, `Who won trick ${k + 1} of ${d.size}?`),
        el("div", { class: "sk-buttons" }, sheet.players.map((name, s) => el("button", { type: "button", class: "sk-big", onclick: () => { d.winners.push(s); if (d.winners.length >= (d.size ?? 0)) advance(); else render(); } }, name))),
      );
    } else {
      const change = (/** @type {string} */ target) => {
        d.step = d.steps.indexOf(target);
        d.cursor = 0;
        d.jump = true;
        d.asked = false;
        if (target === "trick_winners") d.winners = [];
        render();
      };
      append(view, el("h3", {}, d.kind === "fix" ? `Hand ${d.hand} as entered: change what was wrong` : "Check and save"), el("ul", { class: "sk-review" }, reviewLines(sheet, d).map(([line, target, filled]) =>
        el("li", { class: filled ? "sk-filled" : null },
          el("span", {}, line),
          target && d.steps.includes(target) ? el("button", { type: "button", class: "small sk-change", "aria-label": `Change: ${line}`, onclick: () => change(target) }, "Change") : null,
        ))));
      append(view, el("button", { type: "button", class: "primary sk-big sk-save", onclick: () => save(sheet, d) }, d.kind === "fix" ? `Save the correction of hand ${d.hand}` : `Save hand ${d.hand}`));
    }
    return view;
  }

  /**
   * The game's own steps of a hand (the server's: the next hand's, else the sheet's).
   * @param {Sheet} sheet
   * @param {Draft} d
   * @returns {Step[]}
   */
  function gameSteps(sheet, d) {
    return (d.next.steps && d.next.steps.length ? d.next.steps : sheet.steps) || [];
  }

  /**
   * The game's own step called `name`, if it is one.
   * @param {Sheet} sheet
   * @param {Draft} d
   * @param {string} name
   * @returns {Step | undefined}
   */
  function gameStep(sheet, d, name) {
    return gameSteps(sheet, d).find((step) => step.name === name);
  }

  /**
   * One of the game's own steps, drawn from its kind as the server describes it.
   * @param {Sheet} sheet
   * @param {Draft} d
   * @param {Step} step
   * @param {() => void} advance
   * @returns {(Element | null)[]}
   */
  function gameStepView(sheet, d, step, advance) {
    const names = sheet.players;
    const value = d.fields[step.name];
    /** @param {string} id */
    const typed = (id) => /** @type {HTMLInputElement | null} */ (root.querySelector(`#${id}`))?.value || "";
    /**
     * Each seat's number, as inputs from `counted.low` to `counted.high`.
     * @param {Step} counted
     * @param {(name: string) => string} label
     */
    const numberInputs = (counted, label) =>
      names.map((name, s) =>
        el("div", { class: "field" }, el("label", { for: `sk-${counted.name}-${s}` }, label(name)), el("input", { type: "number", min: String(counted.low), max: String(counted.high), id: `sk-${counted.name}-${s}`, value: String((d.fields[counted.name] || [])[s] ?? counted.low) })),
      );
    /** @param {Step} counted */
    const readNumbers = (counted) => names.map((_, s) => Number(typed(`sk-${counted.name}-${s}`)) || 0);
    if (step.kind === "choice") {
      // The choices the rules offer (the server's list); a corrected hand's own is kept in it.
      const choices = [...step.choices];
      if (value && !choices.includes(value)) choices.push(value);
      return [el("h3", {}, step.question), el("div", { class: "sk-buttons" }, choices.map((c) => el("button", { type: "button", class: "sk-big sk-word", "aria-pressed": String(value === c), onclick: () => { d.fields[step.name] = c; advance(); } }, c.replaceAll("_", " "))))];
    }
    if (step.kind === "seat_text") {
      const seatField = step.seat_field || `${step.name}_seat`;
      const text = el("input", { type: "text", id: `sk-${step.name}`, value: value || "", placeholder: step.hint, maxlength: "10" });
      return [
        el("h3", {}, step.question),
        el("div", { class: "field" }, el("label", { for: `sk-${step.name}` }, step.label), text),
        el(
          "div",
          { class: "sk-buttons" },
          names.map((name, s) => el("button", { type: "button", class: "sk-big", "aria-pressed": String(d.fields[seatField] === s), onclick: () => { d.fields[step.name] = text.value.trim() || null; d.fields[seatField] = s; advance(); } }, name)),
          step.skip ? el("button", { type: "button", class: "sk-big sk-word", onclick: () => { d.fields[step.name] = null; d.fields[seatField] = null; d.tricks = new Array(names.length).fill(0); d.step = d.steps.indexOf("review"); d.dirty = true; render(); } }, step.skip) : null,
        ),
      ];
    }
    const count = step.count;
    const next = el("button", {
      type: "button",
      class: "primary sk-big",
      onclick: () => {
        if (step.kind === "seat_number") d.fields[step.name] = readNumbers(step);
        else d.fields[step.name] = names.map((_, s) => typed(`sk-${step.name}-${s}`).split(",").map((x) => x.trim()).filter(Boolean));
        if (count) d.fields[count.name] = readNumbers(count);
        advance();
      },
    }, "Next");
    if (step.kind === "seat_number") return [el("h3", {}, step.question), ...numberInputs(step, (name) => name), next];
    const hint = step.choices.length ? `${step.choices.join(" / ")} (several: with commas)` : "";
    const inputs = names.map((name, s) =>
      el("div", { class: "field" }, el("label", { for: `sk-${step.name}-${s}` }, name), el("input", { type: "text", id: `sk-${step.name}-${s}`, value: ((value || [])[s] || []).join(", "), placeholder: hint })),
    );
    return [el("h3", {}, step.question), ...inputs, ...(count ? numberInputs(count, (name) => `${name}: ${count.label}`) : []), next];
  }

  /**
   * The review's line of one of the game's own steps.
   * @param {Sheet} sheet
   * @param {Draft} d
   * @param {Step} step
   * @returns {string}
   */
  function reviewLine(sheet, d, step) {
    const names = sheet.players;
    const value = d.fields[step.name];
    const title = `${step.name.charAt(0).toUpperCase()}${step.name.slice(1).replaceAll("_", " ")}`;
    if (step.kind === "seat_text") {
      const seat = d.fields[step.seat_field || `${step.name}_seat`];
      return value && typeof seat === "number" ? `${step.label}: ${names[seat]} ${value}` : step.skip || `${step.label}: none`;
    }
    if (step.kind === "choice") return `${step.label}: ${String(value || "").replaceAll("_", " ")}`;
    if (step.kind === "seat_number") return `${title}: ${names.map((name, s) => `${name} ${(value || [])[s] ?? step.low}`).join(", ")}`;
    const count = step.count;
    const counts = count ? d.fields[count.name] || [] : [];
    return `${title}: ${names.map((name, s) => `${name} ${((value || [])[s] || []).join(", ") || "…"}${count ? ` (${count.label} ${counts[s] ?? 0})` : ""}`).join("; ")}`;
  }

  /**
   * The bids the server offers this bidder as big buttons, the ones the rules refuse it
   * now shown disabled with the reason; before the server has said (offline), from the
   * lowest bid it offered last up to the hand size (the server checks the hand when it
   * is saved).
   * @param {BidOffer | null} offer
   * @param {Draft} d
   * @param {number | null} chosen
   * @param {(v: number) => void} pick
   */
  function bidButtons(offer, d, chosen, pick) {
    if (!offer) {
      const known = S.sheet && S.sheet.next && S.sheet.next.bid_offer;
      const low = known && known.bids.length ? known.bids[0] : 0;
      return numberButtons(low, d.size ?? 0, chosen, pick, "bid");
    }
    const forbidden = new Map(offer.forbidden.map((f) => [f.bid, f.reason]));
    const values = [...offer.bids, ...forbidden.keys()].sort((a, b) => a - b);
    const box = el("div", { class: "sk-buttons sk-numbers", role: "group", "aria-label": "bid" });
    for (const v of values) {
      const why = forbidden.get(v);
      const button = el("button", { type: "button", class: why ? "sk-big sk-num sk-forbidden" : "sk-big sk-num", "aria-pressed": String(chosen === v), disabled: Boolean(why), title: why || null, dataset: { value: String(v) } }, String(v));
      if (!why) button.addEventListener("click", () => pick(v));
      box.append(button);
    }
    return el("div", { class: "sk-bids" }, box, offer.forbidden.map((f) => el("p", { class: "sk-forbidden-why" }, `Not ${f.bid}: ${f.reason}`)));
  }

  /**
   * @param {number} low
   * @param {number} high
   * @param {number | null | undefined} chosen
   * @param {(v: number) => void} pick
   * @param {string} what
   */
  function numberButtons(low, high, chosen, pick, what) {
    const box = el("div", { class: "sk-buttons sk-numbers", role: "group", "aria-label": what });
    for (let v = low; v <= high; v += 1) {
      const button = el("button", { type: "button", class: "sk-big sk-num", "aria-pressed": String(chosen === v), dataset: { value: String(v) } }, String(v));
      button.addEventListener("click", () => pick(v));
      box.append(button);
    }
    return box;
  }

  /**
   * Check bids (or a call) with the server: the answer, false if refused, null if offline.
   * @param {Record<string, unknown>} body
   * @returns {Promise<{next?: Next | null, bid_offer?: BidOffer | null} | false | null>}
   */
  async function check(body) {
    try {
      const answer = await api(`${path}/check`, { method: "POST", body, token });
      S.problem = null;
      return answer;
    } catch (exc) {
      if (exc instanceof ApiError && exc.status >= 400 && exc.status < 500 && exc.status !== 429) {
        S.problem = { title: "Not allowed", detail: exc.detail, rule: ruleOf(exc) };
        render();
        return false;
      }
      return null; // offline: the server checks the hand when it is saved
    }
  }

  /**
   * The review's lines: [text, the step that changes it, whether a value was filled in].
   * @param {Sheet} sheet
   * @param {Draft} d
   * @returns {[string, string | null, boolean][]}
   */
  function reviewLines(sheet, d) {
    /** @type {[string, string | null, boolean][]} */
    const lines = [];
    const names = sheet.players;
    if (d.call) lines.push([`Call: ${d.call.size} cards, ${d.call.kind}${d.call.modifiers.map((m) => ` + ${m}`).join("")}`, "call", false]);
    for (const step of gameSteps(sheet, d)) {
      if (d.steps.includes(step.name)) lines.push([reviewLine(sheet, d, step), step.name, false]);
    }
    if (d.steps.includes("bids")) lines.push([`Bids: ${names.map((name, s) => `${name} ${d.bids[s] ?? 0}`).join(", ")}`, "bids", false]);
    if (d.steps.includes("trump")) lines.push([`Trump: ${d.trump ? suitWord(d.trump) : "not entered"}`, "trump", false]);
    const filled = d.filled !== null && d.filled !== undefined;
    lines.push([`Tricks: ${names.map((name, s) => `${name} ${d.tricks[s] ?? 0}${s === d.filled ? " (filled in: the only count that adds up)" : ""}`).join(", ")}`, "tricks", filled]);
    if (d.winners.length) lines.push([`Trick winners: ${d.winners.map((s) => names[s]).join(", ")}`, "trick_winners", false]);
    return lines;
  }

  /**
   * @param {Sheet} sheet
   * @param {Draft} d
   */
  function save(sheet, d) {
    const body = {
      id: newId(),
      hand: d.hand,
      bids: d.steps.includes("bids") ? sheet.players.map((_, s) => d.bids[s] ?? null) : [],
      tricks: sheet.players.map((_, s) => d.tricks[s] ?? 0),
      trick_winners: d.winners,
      trump: d.trump,
      call: d.call,
      ...d.fields,
    };
    S.draft = null;
    S.notice = "";
    S.changes = [];
    enqueue({ kind: d.kind, hand: d.hand, body, front: d.retry || S.queue.paused });
  }

  // ----------------------------------------------------------- the sheet

  /** @param {Sheet} sheet */
  function sheetTable(sheet) {
    const names = sheet.players;
    const changed = new Set(S.changes.map((c) => `${c.hand}:${c.seat}`));
    const table = el("table", { class: "sk-sheet" });
    table.append(
      el("caption", {}, `${sheet.name}: ${names.join(", ")}`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "sk-hand" }, "Hand"), el("th", { scope: "col" }, "Deal"), names.map((name) => el("th", { scope: "col" }, name)))),
    );
    const body = el("tbody");
    for (const row of sheet.rows) {
      const deal = [`${row.hand_size} · ${names[row.dealer]}`, row.trump ? suitWord(row.trump) : "", row.special || ""].filter(Boolean).join(" · ");
      body.append(
        el(
          "tr",
          { dataset: { hand: String(row.hand) } },
          el("th", { scope: "row", class: "sk-hand" }, String(row.hand), readOnly ? null : el("button", { type: "button", class: "small sk-fix sk-noprint", "aria-label": `Correct hand ${row.hand}`, onclick: () => { S.draft = draftFrom("fix", row.hand, row.entry, sheet, false); S.problem = null; render(); const box = root.querySelector(".sk-entry"); if (box) box.scrollIntoView({ block: "start" }); } }, "Correct")),
          el("td", { class: "sk-deal" }, deal),
          names.map((_, s) => {
            const outcome = row.outcomes ? row.outcomes[s] : null;
            const classes = ["sk-cell", outcome ? `sk-${outcome}` : "", changed.has(`${row.hand}:${s}`) ? "sk-changed" : ""].filter(Boolean).join(" ");
            const bidTricks = row.bids ? `${row.bids[s]}/${row.tricks[s]}` : `${row.tricks[s]} tr`;
            return el("td", { class: classes }, el("span", { class: "sk-bt" }, bidTricks), " ", el("span", { class: "sk-score" }, signed(row.scores[s])), " ", el("strong", { class: "sk-total" }, String(row.totals[s])));
          }),
        ),
      );
    }
    for (const item of S.queue.items.filter((i) => i.kind !== "undo")) {
      body.append(el("tr", { class: "sk-waiting" }, el("th", { scope: "row" }, String(item.hand)), el("td", { colspan: String(names.length + 1) }, `${item.kind === "fix" ? "correction " : ""}waiting to be saved: tricks ${item.body.tricks.join(", ")}`)));
    }
    const foot = el("tfoot");
    foot.append(el("tr", { class: "sk-totals" }, el("th", { scope: "row", colspan: "2", class: "sk-hand" }, "Totals"), sheet.totals.map((t) => el("td", {}, el("strong", {}, String(t))))));
    if (sheet.has_bids) {
      for (const [letter, word] of [["S", "Set"], ["O", "Over"], ["P", "Perfect"]]) {
        foot.append(el("tr", { class: `sk-count sk-count-${letter}` }, el("th", { scope: "row", colspan: "2", class: "sk-hand" }, word), sheet.counts.map((c) => el("td", {}, String(c[letter])))));
      }
    }
    if (sheet.chips) foot.append(el("tr", {}, el("th", { scope: "row", colspan: "2", class: "sk-hand" }, `Stacks (pot ${sheet.chips.pot})`), sheet.chips.stacks.map((c) => el("td", {}, String(c)))));
    table.append(body, foot);
    // A wide sheet scrolls sideways: the keyboard reaches the box too (a named region).
    return el("div", { class: "sk-scroll", tabindex: "0", role: "region", "aria-label": `Score sheet: ${names.join(", ")}` }, table);
  }

  /** @param {Sheet} sheet */
  function chartBox(sheet) {
    const box = el("div", { class: "sk-chart sk-noprint" });
    if (!sheet.rows.length) return box;
    const series = sheet.rows.map((r) => r.totals);
    import("./scorecard.js")
      .then((mod) => box.append(mod.totalsChart(series, sheet.players)))
      .catch(() => box.append(ownChart(series, sheet.players)));
    return box;
  }

  /**
   * @param {Sheet} sheet
   */
  function sharePanel(sheet) {
    const box = el("section", { class: "panel sk-share sk-noprint" });
    if (!readOnly && key) {
      const link = viewLink(sheetId, key);
      box.append(
        el("h2", {}, "Let the others follow"),
        el("p", { class: "help" }, "This link shows the sheet read-only and follows it as hands are entered."),
        el("div", { class: "row" }, el("input", { type: "text", readonly: true, value: link, class: "sk-view-link", "aria-label": "Read-only link" }), el("button", { type: "button", onclick: async () => toast((await copyText(link)) ? "Link copied." : "Copy the link by hand.") }, "Copy")),
      );
    }
    if (!readOnly && sheet.owner) box.append(editLinkPanel(sheet));
    else if (!readOnly && kept && kept.via === "link") box.append(el("p", { class: "help" }, "You keep this sheet with an edit link: the keeper may replace or revoke it."));
    /**
     * @param {string} fmt
     * @param {string} label
     */
    const exportLink = (fmt, label) => el("a", { class: "button", href: `${path}/export.${fmt}?view=${encodeURIComponent(key || "")}`, download: `${sheet.game}-${sheetId}.${fmt}` }, label);
    box.append(
      el("h2", {}, "Export and print"),
      el("div", { class: "row" }, exportLink("csv", "Export CSV"), exportLink("json", "Export JSON"), exportLink("md", "Export Markdown"), el("button", { type: "button", onclick: () => window.print() }, "Print")),
      el("p", {}, el("a", { href: "#/score" }, "Start or import another sheet")),
    );
    return box;
  }

  /**
   * The keeper's edit link: made, shown with its QR code, made anew or revoked.
   * @param {Sheet} sheet
   */
  function editLinkPanel(sheet) {
    const box = el("div", { class: "sk-edit-link" });
    /** @param {boolean} make */
    const change = async (make) => {
      try {
        const answer = await api(`${path}/edit-link`, { method: make ? "POST" : "DELETE", token });
        S.editKey = make ? answer.edit_key : null;
        const mine = keptSheet(sheetId);
        if (mine) keepSheet(sheetId, { ...mine, editKey: S.editKey });
        if (S.sheet) S.sheet = { ...S.sheet, edit_link: make };
        toast(make ? "A new edit link is made: any older one no longer edits." : "The edit link is revoked.");
      } catch (exc) {
        toast(`Not done: ${errorWords(exc)}`);
      }
      render();
    };
    box.append(
      el("h2", {}, "Let another phone keep score"),
      el("p", { class: "help" }, "Whoever opens the edit link can enter and correct hands, as you can. Share it only with the person taking over; the others follow with the read-only link."),
    );
    if (S.editKey && sheet.edit_link) {
      const link = editLink(sheetId, S.editKey);
      /** @type {Element} */
      let code;
      try {
        code = qrSvg(link, "QR code of the edit link");
      } catch {
        code = el("p", { class: "help" }, "The link is too long for a QR code: copy it.");
      }
      box.append(
        el("div", { class: "row" }, el("input", { type: "text", readonly: true, value: link, class: "sk-edit-link-text", "aria-label": "Edit link" }), el("button", { type: "button", onclick: async () => toast((await copyText(link)) ? "Edit link copied." : "Copy the link by hand.") }, "Copy")),
        el("figure", { class: "sk-qr-box" }, code, el("figcaption", { class: "help" }, "Scan it with the other phone's camera.")),
      );
    } else if (sheet.edit_link) {
      box.append(el("p", {}, "An edit link is out. Make a new one to show it here: the old one then stops editing."));
    }
    box.append(
      el("div", { class: "row" },
        el("button", { type: "button", class: "sk-make-link", onclick: () => change(true) }, sheet.edit_link ? "Make a new link" : "Make an edit link"),
        sheet.edit_link ? el("button", { type: "button", class: "sk-revoke-link", onclick: () => change(false) }, "Revoke the edit link") : null,
      ),
    );
    return box;
  }

  // ------------------------------------------------------------- life

  render();
  if (readOnly) {
    S.status = "following";
    refresh();
  } else {
    sync();
    later(refresh, S.queue.items.length ? POLL_MS : 0);
  }
  const online = () => {
    S.retry = 0;
    sync();
  };
  window.addEventListener("online", online);
  return () => {
    S.alive = false;
    for (const timer of S.timers) clearTimeout(timer);
    window.removeEventListener("online", online);
  };
}

/**
 * The rule a refusal names (problem bodies of refused entries carry it).
 * @param {ApiError} exc
 * @returns {string | null}
 */
function ruleOf(exc) {
  const body = /** @type {{rule?: unknown} | null | undefined} */ (exc.body);
  return body && typeof body.rule === "string" ? body.rule : null;
}

/**
 * The tricks add up to the hand size: once all but the last player's are entered, the
 * last is the only count that fits. It is filled in (and marked on the review) and the
 * entry moves on. Not where the server says the players out of the hand take none.
 * @param {Sheet} sheet
 * @param {Draft} d
 */
function fillLastTricks(sheet, d) {
  if (d.steps[d.step] !== "tricks" || sheet.fills_last_tricks === false) return;
  const order = d.order;
  if (d.cursor !== order.length - 1) return;
  const size = d.size ?? 0;
  const seat = order[d.cursor];
  const left = size - order.slice(0, d.cursor).reduce((sum, s) => sum + (d.tricks[s] || 0), 0);
  if (left < 0 || left > size) return; // nothing adds up: the player is asked
  d.tricks[seat] = left;
  d.filled = seat;
  d.step = d.jump ? d.steps.indexOf("review") : d.step + 1;
  d.jump = false;
  d.cursor = 0;
}

/**
 * A draft of a hand: what is entered, step by step (add: the next hand; fix: a row, shown
 * as entered, each part changed on its own).
 * @param {"add" | "fix"} kind
 * @param {number} hand
 * @param {Entry | null} entry
 * @param {Sheet} sheet
 * @param {boolean} retry
 * @param {Next | null} [nxt]
 * @returns {Draft}
 */
function draftFrom(kind, hand, entry, sheet, retry, nxt = null) {
  const n = sheet.players.length;
  const row = kind === "fix" ? sheet.rows[hand - 1] : null;
  /** @type {Next} */
  const next = nxt
    || (row
      ? { hand, dealer: row.dealer, hand_size: row.hand_size, enter: [], call_sizes: [] }
      : { dealer: 0, ...(sheet.next || {}), hand, guessed: !sheet.next || sheet.next.hand !== hand });
  const dealer = next.dealer ?? 0;
  let steps;
  if (row) {
    steps = [];
    if (row.entry.call) steps.push("call");
    if (sheet.has_bids) steps.push("bids");
    for (const step of sheet.steps || []) steps.push(step.name);
    steps.push("trump", "tricks");
    if (row.entry.trick_winners.length) steps.push("trick_winners");
  } else {
    const counted = (next.steps || sheet.steps || []).map((step) => step.count && step.count.name);
    steps = (next.enter || ["bids", "tricks"]).filter((s) => !counted.includes(s));
    if (next.misere) steps = steps.filter((s) => s !== "bids");
    if (next.hand_size === null && !steps.includes("call")) steps.unshift("size");
  }
  steps.push("review");
  /** @type {Partial<Entry>} */
  const e = entry || {};
  return {
    kind,
    hand,
    next,
    dealer,
    retry,
    steps,
    step: retry || kind === "fix" ? steps.length - 1 : 0,
    cursor: 0,
    dirty: retry,
    busy: false,
    jump: false,
    asked: false,
    entered: 0,
    filled: null,
    offer: kind === "add" && !retry ? next.bid_offer || null : null,
    size: row ? row.hand_size : next.hand_size ?? (e.call ? e.call.size : null),
    order: next.bid_order || Array.from({ length: n }, (_, i) => (dealer + 1 + i) % n),
    call: e.call || null,
    bids: e.bids ? e.bids.slice() : new Array(n).fill(null),
    tricks: e.tricks ? e.tricks.slice() : new Array(n).fill(0),
    trump: e.trump ?? null,
    fields: Object.fromEntries(Object.entries(e).filter(([k]) => !ENTRY_FIELDS.includes(k)).map(([k, v]) => [k, structuredClone(v)])),
    winners: e.trick_winners ? e.trick_winners.slice() : [],
  };
}

/**
 * @param {number} hand
 * @param {Change[]} changes
 */
function describeChanges(hand, changes) {
  if (!changes.length) return `Hand ${hand} was corrected; no score changed.`;
  const words = changes
    .filter((c) => c.what === "total")
    .slice(0, 8)
    .map((c) => `${c.player} ${c.old} → ${c.new} (hand ${c.hand})`);
  return `Hand ${hand} was corrected. Totals changed: ${words.join("; ")}${changes.length > 8 ? "; …" : ""}.`;
}

/**
 * A small line chart of the totals after each hand (used if scorecard.js is missing).
 * @param {number[][]} series
 * @param {string[]} names
 */
function ownChart(series, names) {
  const NS = "http://www.w3.org/2000/svg";
  /**
   * @param {string} tag
   * @param {Record<string, string | number>} attrs
   */
  const svg = (tag, attrs) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const points = [names.map(() => 0), ...series];
  const values = points.flat();
  const low = Math.min(0, ...values);
  const high = Math.max(low + 1, ...values);
  /** @param {number} k */
  const x = (k) => 30 + (k * 320) / Math.max(1, points.length - 1);
  /** @param {number} v */
  const y = (v) => 10 + ((high - v) * 150) / (high - low);
  const chart = svg("svg", { viewBox: "0 0 360 170", role: "img", class: "sk-own-chart" });
  chart.setAttribute("aria-label", `Totals after each hand: ${names.map((n, i) => `${n} ${points[points.length - 1][i]}`).join(", ")}`);
  names.forEach((_, i) => {
    chart.append(svg("polyline", { points: points.map((p, k) => `${x(k).toFixed(1)},${y(p[i]).toFixed(1)}`).join(" "), fill: "none", stroke: COLOURS[i % COLOURS.length], "stroke-width": 2 }));
  });
  const legend = el("ul", { class: "sk-legend" }, names.map((name, i) => el("li", { style: `color:${COLOURS[i % COLOURS.length]}` }, name)));
  return el("figure", {}, chart, legend);
}
