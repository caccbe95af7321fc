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
//
// This module keeps the sheet (its state, the queue of entries, the polling, the page's
// frame); scorekeeper-entry.js enters a hand, scorekeeper-view.js draws the sheet and
// its share panel, scorekeeper-draft.js holds the types and a hand's draft.

import { ApiError, api } from "./api.js";
import { clear, el } from "./dom.js";
import { describeChanges, draftFrom, ruleOf } from "./scorekeeper-draft.js";
import { entryParts } from "./scorekeeper-entry.js";
import { cacheKeyOf, keepSheet, keptSheet, mountStart, queueKeyOf } from "./scorekeeper-start.js";
import { sheetParts } from "./scorekeeper-view.js";
import { readJson, writeJson } from "./storage.js";

export { editLink, viewLink } from "./scorekeeper-view.js";

/** @typedef {import("./scorekeeper-draft.js").Sheet} Sheet */
/** @typedef {import("./scorekeeper-draft.js").Draft} Draft */
/** @typedef {import("./scorekeeper-draft.js").Next} Next */
/** @typedef {import("./scorekeeper-draft.js").BidOffer} BidOffer */
/** @typedef {import("./scorekeeper-draft.js").Step} Step */
/** @typedef {import("./scorekeeper-draft.js").Row} Row */
/** @typedef {import("./scorekeeper-draft.js").Entry} Entry */
/** @typedef {import("./scorekeeper-draft.js").Call} Call */
/** @typedef {import("./scorekeeper-draft.js").Problem} Problem */
/** @typedef {import("./scorekeeper-draft.js").Change} Change */
/** @typedef {import("./scorekeeper-draft.js").State} State */
/** @typedef {import("./scorekeeper-draft.js").Item} Item */

const POLL_MS = 3000;
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
function ensureStyles() {
  if (document.querySelector("link[data-tricktaker-scorekeeper]")) return;
  const href = new URL("./scorekeeper.css", import.meta.url).href;
  document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-scorekeeper": "" }));
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

  // ------------------------------------------------- the entry and the sheet

  const { entryPanel } = entryParts({ S, root, path, get token() { return token; }, render, enqueue, nextHand, nextLine });
  const { sheetTable, chartBox, sharePanel } = sheetParts({
    S, root, sheetId, path, kept, render,
    get readOnly() { return readOnly; },
    get token() { return token; },
    get key() { return key; },
  });

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
