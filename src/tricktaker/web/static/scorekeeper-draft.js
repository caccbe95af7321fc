// @ts-check
// The scorekeeper's data and a hand being entered (scorekeeper.js keeps the sheet):
// the types of the sheet the server shows and of a draft, the words a sheet writes
// (suits, signed scores), and the pure functions that make a draft from an entry, fill
// in the last player's tricks, name a refusal's rule and say what a correction changed.
// No rule is written here, and no game is named.

import { SUITS as CARD_SUITS } from "./cards.js";

/** @typedef {import("./api.js").ApiError} ApiError */

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

/** The suits as the sheet names them, with their symbols (cards.js). */
export const SUITS = Object.values(CARD_SUITS).map((suit) => [suit.name, suit.symbol]);
/** The fields of every game's entry; the others are the fields of the game's own steps. */
export const ENTRY_FIELDS = ["bids", "tricks", "trick_winners", "trump", "call"];

/** @param {number} n */
export const signed = (n) => (n > 0 ? `+${n}` : String(n));
/** @param {string | null | undefined} name */
export const suitWord = (name) => {
  const found = SUITS.find(([word]) => word === name);
  return found ? `${found[1]} ${name}` : name || "";
};

/**
 * The rule a refusal names (problem bodies of refused entries carry it).
 * @param {ApiError} exc
 * @returns {string | null}
 */
export function ruleOf(exc) {
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
export function fillLastTricks(sheet, d) {
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
export function draftFrom(kind, hand, entry, sheet, retry, nxt = null) {
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
export function describeChanges(hand, changes) {
  if (!changes.length) return `Hand ${hand} was corrected; no score changed.`;
  const words = changes
    .filter((c) => c.what === "total")
    .slice(0, 8)
    .map((c) => `${c.player} ${c.old} → ${c.new} (hand ${c.hand})`);
  return `Hand ${hand} was corrected. Totals changed: ${words.join("; ")}${changes.length > 8 ? "; …" : ""}.`;
}
