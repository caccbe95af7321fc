// @ts-check
// The players around the oval felt: where each seat sits (your seat at the bottom, the
// others clockwise from your left), and each seat's plate: an initial in a disc of the
// seat's colour, the name (a bot's level as a small tag), the dealer button, the glowing
// ring of the seat to act, the face-down cards it still holds, its bid, tricks and score
// as the server's seat rows (`present.seats`) give them.

import { cardSvg } from "./cards.js";
import { el as h } from "./dom.js";

/** @typedef {Record<string, any>} Json */

/**
 * @typedef {object} TableCtx
 * @property {Json | null} table
 * @property {number | null} seat
 * @property {Json | null} view
 * @property {Json | null} present
 * @property {Json | null} showTrick
 * @property {boolean} fourColour
 * @property {(action: string) => void} onAct
 * @property {(text: string) => void} onNote
 */

/** The seats' colours (white initials on each pass WCAG AA). */
export const SEAT_COLOURS = ["#b3261e", "#1f5fbf", "#7b3fa0", "#9a4d00", "#1b6e3c", "#5046a8", "#a22a67", "#0f6b66"];

/** @type {Record<string, string>} */
const STATE_TEXT = {
  connected: "connected",
  away: "away",
  replaced: "a bot plays for them",
  bot: "bot",
  free: "empty seat",
};

/**
 * A seat's name as the server gives it (the table's seats, else the seat rows of the
 * view's presentation): the same names as the narration and the score sheet.
 * @param {Json | null} table
 * @param {number} seat
 * @param {Json | null} [present]
 * @returns {string}
 */
export function seatName(table, seat, present = null) {
  return table?.seats?.[seat]?.name || present?.seats?.[seat]?.name || present?.scorecard?.names?.[seat] || "";
}

/**
 * "connected", "away", "a bot plays for them", "bot (easy)", "empty seat".
 * @param {Json | null | undefined} info
 * @returns {string}
 */
export function seatStateText(info) {
  if (!info) return "";
  if (info.state === "bot") return info.bot ? `bot (${info.bot})` : "bot";
  return STATE_TEXT[info.state] ?? info.state;
}

/**
 * Where seat `seat` sits around the table seen from `mySeat` (a spectator sees seat 0 at
 * the bottom): the angle in degrees, 90 at the bottom, the others clockwise from the
 * bottom seat's left.
 * @param {number} seat
 * @param {number} players
 * @param {number | null} mySeat
 * @returns {number}
 */
export function seatAngle(seat, players, mySeat) {
  const bottom = mySeat ?? 0;
  const k = (((seat - bottom) % players) + players) % players;
  return 90 + (k * 360) / Math.max(players, 1);
}

/**
 * The point at `angle` on an ellipse of radii `rx`, `ry` (percent of the felt) around the
 * felt's centre, as CSS left/top percentages.
 * @param {number} angle
 * @param {number} rx
 * @param {number} ry
 * @returns {{x: number, y: number}}
 */
export function onEllipse(angle, rx, ry) {
  const radians = (angle * Math.PI) / 180;
  return { x: 50 + rx * Math.cos(radians), y: 50 + ry * Math.sin(radians) };
}

/**
 * The first letter of a name, for its disc.
 * @param {string} name
 */
function initial(name) {
  const letter = [...name.trim()][0] ?? "?";
  return letter.toUpperCase();
}

/**
 * @param {string} label
 * @param {string | number} value
 */
function stat(label, value) {
  return h("span", { class: "tt-stat" }, h("span", { class: "tt-stat-label" }, label), " ", h("b", {}, String(value)));
}

/**
 * The face-down cards a seat still holds, drawn as a small fan with their number.
 * @param {number} count
 */
function backs(count) {
  const box = h("span", { class: "tt-backs", title: `${count} card${count === 1 ? "" : "s"} in hand`, "aria-label": `${count} card${count === 1 ? "" : "s"} in hand`, role: "img" });
  const shown = Math.min(count, 6);
  for (let i = 0; i < shown; i += 1) {
    const back = h("span", { class: "tt-back", style: `--k: ${(i - (shown - 1) / 2) * 8}` }, cardSvg(null, { back: true }));
    box.append(back);
  }
  box.append(h("span", { class: "tt-back-count" }, String(count)));
  return box;
}

/**
 * One seat's plate.
 * @param {TableCtx} ctx
 * @param {number} seat
 * @returns {HTMLElement}
 */
export function renderSeat(ctx, seat) {
  const { view, table, present } = ctx;
  const info = table?.seats?.[seat];
  const me = seat === ctx.seat;
  const toAct = Boolean(view?.to_act?.includes(seat)) && view?.phase !== "game_over";
  const plain = seatName(table, seat, present);
  const name = plain + (me ? " (you)" : "");
  const row = present?.seats?.[seat];
  const dealer = view && view.dealer === seat;
  const state = info?.state ?? "none";
  const count = row?.cards ?? view?.cards_in_hand?.[seat] ?? null;
  const label = [name, info?.state === "bot" && info.bot ? `bot, ${info.bot}` : "", dealer ? "dealer" : "", toAct ? "to act" : ""]
    .filter(Boolean)
    .join(", ");
  const box = h("section", {
    class: `tt-seat${toAct ? " to-act" : ""}${me ? " me" : ""} state-${state}`,
    "aria-label": label,
    dataset: { seat: String(seat) },
    style: `--seat-colour: ${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`,
  });
  const avatar = h("span", { class: "tt-avatar", "aria-hidden": "true" }, initial(plain));
  if (dealer) avatar.append(h("span", { class: "tt-chip tt-dealer", title: "dealer" }, "D"));
  box.append(avatar);
  const head = h("div", { class: "tt-seat-head" }, h("span", { class: "tt-seat-name" }, name));
  if (state === "bot" && info?.bot) head.append(h("span", { class: "tt-tag", title: `a bot, level ${info.bot}` }, info.bot));
  const body = h("div", { class: "tt-seat-body" }, head);
  if (state === "away" || state === "replaced" || state === "free") {
    body.append(h("div", { class: `tt-status state-${state}` }, seatStateText(info)));
  }
  if (view && row) {
    const stats = h("div", { class: "tt-stats" });
    const bidsUsed = view.bids?.some((/** @type {unknown} */ b) => b !== null) || view.bid_made?.some(Boolean) || view.phase === "bidding";
    if (row.quota !== null && row.quota !== undefined) stats.append(stat("Quota", row.quota));
    else if (bidsUsed && row.active !== false) stats.append(stat("Bid", row.bid_text ?? row.bid ?? "\u2013"));
    if (row.active !== false) stats.append(stat("Won", row.tricks ?? 0));
    if (row.stack !== null && row.stack !== undefined) stats.append(stat("Chips", row.stack));
    else stats.append(stat("Score", row.score ?? 0));
    body.append(stats);
    const notes = [];
    if (row.status_text && row.status !== "undecided") notes.push(row.status_text);
    if (row.partners) notes.push(`partner ${row.partners}`);
    if (row.active === false || (view.active && view.active[seat] === false)) notes.push("sits out");
    if (notes.length) body.append(h("div", { class: "tt-seat-note" }, notes.join(" \u00b7 ")));
  }
  box.append(body);
  if (!me && typeof count === "number" && count > 0 && view?.phase !== "game_over") box.append(backs(count));
  return box;
}

/**
 * The seats before the game: who is there, and for the host, a bot for each free seat,
 * the invite link and the start.
 * @param {{table: Json, seat: number | null, tableId: string, host: boolean, hostCall: (method: string, path: string, body?: Json) => unknown}} spec
 * @returns {HTMLElement[]}
 */
export function waitingParts({ table, seat, tableId, host, hostCall }) {
  const list = h("ul", { class: "tt-seat-list" });
  (table.seats ?? []).forEach((/** @type {Json} */ info, /** @type {number} */ i) => {
    const name = seatName(table, i);
    const item = h("li", {}, name ? `${name}${i === seat ? " (you)" : ""}: ${seatStateText(info)}` : seatStateText(info));
    if (host && info.state === "free") {
      item.append(" ", h("button", { type: "button", class: "tt-act", onclick: () => hostCall("PUT", `/seats/${i}/bot`, { bot: "easy" }) }, "Seat a bot"));
    }
    list.append(item);
  });
  /** @type {HTMLElement[]} */
  const parts = [h("h2", {}, "Waiting for the players"), list];
  if (host) {
    // The invite page shows the link to send (when this browser made the table) and the seats.
    parts.push(h("p", {}, h("a", { href: `#/invite/${encodeURIComponent(tableId)}`, class: "tt-invite" }, "The invite link to send")));
    parts.push(h("button", { type: "button", class: "tt-act tt-start", onclick: () => hostCall("POST", "/start") }, "Start the game"));
  } else if (table.club) {
    const club = `#/club/${encodeURIComponent(table.club.id)}?evening=${encodeURIComponent(table.club.evening.id)}`;
    parts.push(h("p", {}, "The club's organisers start the game from ", h("a", { href: club }, "the club's page"), "."));
  } else {
    parts.push(h("p", {}, "The host starts the game when every seat is taken."));
  }
  return parts;
}
