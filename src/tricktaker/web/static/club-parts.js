// @ts-check
// The pieces the club pages (club.js, club-join.js) are made of: their styles, dates,
// counts and figures as people read them, the panels of a refusal, and the tables of
// figures that scroll sideways on a phone.

import { ApiError, errorText } from "./api.js";
import { el } from "./dom.js";

/** The page's styles (club.css), added once. */
export function clubStyles() {
  if (!document.querySelector("link[data-tricktaker-club]")) {
    const href = new URL("./club.css", import.meta.url).href;
    document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-club": "" }));
  }
}

/**
 * A day as a person reads it ("2026-11-28" stays a plain date, shown in this language).
 * @param {string | null} stamp
 */
export function dayText(stamp) {
  if (!stamp) return "";
  const date = new Date(stamp.length === 10 ? `${stamp}T12:00:00` : stamp);
  return Number.isNaN(date.getTime()) ? stamp : date.toLocaleDateString(undefined, { dateStyle: "medium" });
}

/**
 * A share as a percentage ("–" for none).
 * @param {number | null} share
 */
export function percent(share) {
  return share === null || share === undefined ? "–" : `${Math.round(share * 100)}%`;
}

/**
 * A count and its noun ("1 evening", "2 evenings").
 * @param {number} count
 * @param {string} noun
 */
export function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The panel that says the page needs a signed-in user. */
export function signInPanel() {
  return el(
    "div",
    { class: "panel narrow" },
    el("h1", { class: "page-title" }, "Clubs"),
    el("p", {}, "A club's page is for its members: log in first, or sign up."),
    el("a", { class: "button primary", href: "#/account" }, "Log in or sign up"),
  );
}

/**
 * A refusal, read out.
 * @param {unknown} error
 */
export function errorPanel(error) {
  const title = error instanceof ApiError && error.status === 403 ? "Members only" : "This page could not be shown";
  return el("div", { class: "panel error-panel", role: "alert" }, el("h1", { class: "page-title" }, title), el("p", {}, errorText(error)));
}

/**
 * A table of figures that scrolls sideways in its box on a phone.
 * @param {string} caption
 * @param {string[]} head
 * @param {(string | number | Node)[][]} rows
 * @param {{rowHead?: number, mine?: (index: number) => boolean}} [how] the column that
 *   names a row (the first by default), and which rows are the viewer's own (marked)
 */
export function figures(caption, head, rows, how = {}) {
  const rowHead = how.rowHead || 0;
  return el(
    "div",
    { class: "club-scroll", tabindex: "0", role: "region", "aria-label": caption },
    el(
      "table",
      { class: "club-table" },
      el("caption", {}, caption),
      el("thead", {}, el("tr", {}, head.map((h, i) => el("th", { scope: "col", class: i === rowHead ? "club-name-col" : null }, h)))),
      el(
        "tbody",
        {},
        rows.map((row, r) =>
          el(
            "tr",
            { class: how.mine && how.mine(r) ? "club-mine" : null },
            row.map((cell, i) => (i === rowHead ? el("th", { scope: "row" }, cell) : el("td", {}, cell))),
          ),
        ),
      ),
    ),
  );
}

/**
 * A matchpoint percentage as the duplicate set's page writes it ("62.5%").
 * @param {number} value
 */
export function percentText(value) {
  return `${value.toFixed(1)}%`;
}

/**
 * A total against the seats' averages, signed as the set's page writes it ("+4.0", "−2.5").
 * @param {number} value
 */
export function signed(value) {
  const text = Math.abs(value).toFixed(1);
  if (text === "0.0") return text;
  return value < 0 ? `\u2212${text}` : `+${text}`;
}

/**
 * Each row's place in a ranking, a tie sharing the place of the first of it (1, 2, 2, 4).
 * @param {any[]} rows in ranked order
 * @param {(row: any) => string} key what two rows tie on
 * @returns {number[]}
 */
export function places(rows, key) {
  return rows.map((row, i) => {
    let first = i;
    while (first > 0 && key(rows[first - 1]) === key(row)) first -= 1;
    return first + 1;
  });
}

/**
 * The club and evening a table or a duplicate set was made for, as its page names them
 * ("Thursday club · evening of Nov 26 · table 2"; a named evening "Thursday club · Week 1,
 * Nov 26"), or "" for none.
 * @param {{name: string, evening: {day: string, name: string | null}, number?: number | null} | null | undefined} place
 *   the table's or the set's `club` (docs/protocol.md, Clubs)
 */
export function clubPlaceText(place) {
  if (!place) return "";
  const date = new Date(`${place.evening.day}T12:00:00`);
  const day = Number.isNaN(date.getTime()) ? place.evening.day : date.toLocaleDateString(undefined, { month: "short", day: "numeric" });
  const evening = place.evening.name ? `${place.evening.name}, ${day}` : `evening of ${day}`;
  const table = place.number ? ` \u00b7 table ${place.number}` : "";
  return `${place.name} \u00b7 ${evening}${table}`;
}

/**
 * The link back to the club's page at that evening, or null for a table or set of no club.
 * @param {{id: string, name: string, evening: {id: string, day: string, name: string | null}, number?: number | null} | null | undefined} place
 * @param {string} className
 */
export function clubBackLink(place, className) {
  if (!place) return null;
  const href = `#/club/${encodeURIComponent(place.id)}?evening=${encodeURIComponent(place.evening.id)}`;
  return el("a", { class: className, href, title: "Back to the club's page" }, clubPlaceText(place));
}
