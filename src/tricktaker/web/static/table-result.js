// @ts-check
// How a hand went and how the game ended, as dialogs over the table: the hand result (who
// made their bid, who was set or over, what each gained and the new totals, in the game's
// own unit: points, Pluck's quota, Euchre's team points, Buckup's chips) built from the
// newest row of the server's score sheet (`present.scorecard.rows`, with its summary
// lines), and the final standings (`present.scorecard.standings`) with Rematch, Replay and
// Download the record. Nothing is computed here: every number is the server's.

import { el as h } from "./dom.js";
import { seatName } from "./table-seats.js";

/** @typedef {Record<string, any>} Json */

/**
 * @param {number} n
 * @returns {string}
 */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * @param {string} word
 */
function capital(word) {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/**
 * The table of one finished hand (a score sheet row) in the sheet's layout.
 * @param {Json} card the score sheet
 * @param {Json} row its row for the hand
 * @param {number | null} mySeat
 * @returns {HTMLElement}
 */
export function resultTable(card, row, mySeat) {
  const names = card.names ?? [];
  const layout = card.layout;
  const words = card.outcome_words ?? {};
  const head = (/** @type {string[]} */ cells) => h("thead", {}, h("tr", {}, ...cells.map((c) => h("th", { scope: "col" }, c))));
  const body = h("tbody");
  if (layout === "team" && Array.isArray(row.teams) && row.teams.length) {
    for (const team of row.teams) {
      const mine = mySeat !== null && team.seats?.includes(mySeat);
      body.append(
        h(
          "tr",
          { class: mine ? "mine" : "" },
          h("th", { scope: "row" }, team.name),
          h("td", { class: "num" }, String(team.tricks ?? "")),
          h("td", { class: "num gain" }, signed(team.score ?? 0)),
          h("td", { class: "num" }, String(team.total ?? "")),
        ),
      );
    }
    return h("table", { class: "tt-result-table" }, head(["Team", "Tricks", "Points", "Total"]), body);
  }
  const chips = layout === "chips";
  const bids = layout === "bids" || layout === "quota";
  /** @type {string[]} */
  const cells = chips ? ["Player", "Tricks", "Chips", "Stack"] : bids ? ["Player", layout === "quota" ? "Quota" : "Bid", "Tricks", "", "Points", "Total"] : ["Player", "Tricks", "Points", "Total"];
  (row.seats ?? []).forEach((/** @type {Json} */ s, /** @type {number} */ seat) => {
    const outcome = s.outcome ? capital(words[s.outcome] ?? s.outcome) : "";
    const tr = h("tr", { class: `${seat === mySeat ? "mine " : ""}${s.outcome ? `outcome-${s.outcome}` : ""}`.trim(), dataset: { seat: String(seat) } });
    tr.append(h("th", { scope: "row" }, names[seat] ?? ""));
    const tricks = s.tricks === null || s.tricks === undefined ? "\u2013" : String(s.tricks);
    if (chips) {
      tr.append(h("td", { class: "num" }, tricks), h("td", { class: "num gain" }, signed(s.score ?? 0)), h("td", { class: "num" }, String(s.stack ?? s.total ?? "")));
    } else if (bids) {
      const bid = s.bid;
      tr.append(
        h("td", { class: "num" }, bid === null || bid === undefined ? "\u2013" : String(bid)),
        h("td", { class: "num" }, tricks),
        h("td", { class: "tt-outcome" }, outcome),
        h("td", { class: "num gain" }, signed(s.score ?? 0)),
        h("td", { class: "num" }, String(s.total ?? "")),
      );
    } else {
      tr.append(h("td", { class: "num" }, tricks), h("td", { class: "num gain" }, signed(s.score ?? 0)), h("td", { class: "num" }, String(s.total ?? "")));
    }
    body.append(tr);
  });
  return h("table", { class: "tt-result-table" }, head(cells), body);
}

/**
 * The summary lines of a row as this seat may read them (a spectator: their public form).
 * @param {Json} row
 * @param {number | null} mySeat
 * @returns {string[]}
 */
export function summaryLines(row, mySeat) {
  return (row.summary ?? [])
    .map((/** @type {Json} */ line) => (typeof line === "string" ? line : mySeat === null ? line.public : line.text))
    .filter((/** @type {unknown} */ text) => typeof text === "string" && text);
}

/**
 * The hand result's content: heading, the table, the summary lines.
 * @param {Json} card
 * @param {Json} row
 * @param {number | null} mySeat
 * @returns {Node[]}
 */
export function handResultParts(card, row, mySeat) {
  const where = [row.hand_size ? `${row.hand_size} card${row.hand_size === 1 ? "" : "s"}` : "", row.trump_text ?? "", row.dealer_name ? `dealer ${row.dealer_name}` : ""];
  const lines = summaryLines(row, mySeat);
  return [
    h("p", { class: "tt-result-where" }, where.filter(Boolean).join(" \u00b7 ")),
    resultTable(card, row, mySeat),
    lines.length ? h("ul", { class: "tt-result-lines" }, ...lines.map((text) => h("li", {}, text))) : null,
  ].filter((node) => node !== null);
}

/**
 * The final standings: places, names (or teams), totals, the winner celebrated.
 * @param {Json} card
 * @returns {HTMLElement | null}
 */
export function standingsList(card) {
  const standings = card?.standings;
  if (!Array.isArray(standings) || !standings.length) return null;
  const list = h("ol", { class: "tt-standings" });
  for (const entry of standings) {
    const first = entry.place === 1;
    list.append(
      h(
        "li",
        { class: first ? "first" : "", dataset: { place: String(entry.place) } },
        h("span", { class: "tt-place" }, first ? "\u2605" : `${entry.place}.`),
        h("span", { class: "tt-standing-name" }, entry.name),
        h("span", { class: "tt-standing-total" }, String(entry.total)),
      ),
    );
  }
  return list;
}

/**
 * The headline of the end of the game: "Ann wins!", "Ann & Cy win!", or the cooperative
 * game's own words, from the standings.
 * @param {Json} card
 * @param {Json | null} view
 * @returns {string}
 */
export function winnerLine(card, view) {
  const standings = card?.standings;
  if (card?.cooperative || view?.cooperative) return "The game is over";
  const winners = Array.isArray(standings) ? standings.filter((/** @type {Json} */ e) => e.place === 1) : [];
  if (winners.length === 1) {
    const one = winners[0];
    const many = (one.seats?.length ?? 1) > 1 || String(one.name).includes("&");
    return `${one.name} win${many ? "" : "s"}!`;
  }
  if (winners.length > 1) return `${winners.map((/** @type {Json} */ w) => w.name).join(" and ")} share first place!`;
  return "The game is over";
}

/**
 * A modal dialog over the table: focus moves into it (to its first button), Tab stays in
 * it, Escape and Enter close it (`onClose`), and focus goes back where it was.
 * @param {{title: string, parts: Node[], buttons: HTMLElement[], className: string, onClose: () => void}} spec
 * @returns {{node: HTMLElement, close: () => void}}
 */
export function openDialog({ title, parts, buttons, className, onClose }) {
  const before = document.activeElement;
  const titleId = `tt-dialog-${Math.random().toString(36).slice(2, 8)}`;
  const dialog = h(
    "div",
    { class: `tt-dialog ${className}`, role: "dialog", "aria-modal": "true", "aria-labelledby": titleId },
    h("h2", { id: titleId }, title),
    ...parts,
    h("div", { class: "tt-dialog-buttons" }, ...buttons),
  );
  const back = h("div", { class: "tt-dialog-back" }, dialog);
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    back.remove();
    if (before instanceof HTMLElement && before.isConnected) before.focus({ preventScroll: true });
    onClose();
  };
  dialog.addEventListener("keydown", (event) => {
    const key = /** @type {KeyboardEvent} */ (event);
    const target = key.target;
    if (key.key === "Escape" || (key.key === "Enter" && !(target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement))) {
      key.preventDefault();
      key.stopPropagation();
      close();
      return;
    }
    if (key.key === "Enter") key.stopPropagation(); // the button's own click
    if (key.key === "Tab") {
      const stops = /** @type {HTMLElement[]} */ ([...dialog.querySelectorAll("button, a[href], input, select")]);
      if (!stops.length) return;
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (key.shiftKey && document.activeElement === first) {
        key.preventDefault();
        last.focus();
      } else if (!key.shiftKey && document.activeElement === last) {
        key.preventDefault();
        first.focus();
      }
    }
  });
  return { node: back, close };
}

/**
 * The game's end as a panel: the standings (else each seat's score), the winner, the
 * links to replay the game and download its record, and the host's Rematch.
 * @param {{table: Json | null, view: Json | null, present: Json | null, tableId: string, host: boolean, hostCall: (method: string, path: string) => unknown}} spec
 * @returns {Node[]}
 */
export function overParts({ table, view, present, tableId, host, hostCall }) {
  const card = present?.scorecard ?? null;
  const game = table?.game_number ?? 1;
  const id = encodeURIComponent(tableId);
  const standings =
    standingsList(card) ??
    h("ul", { class: "tt-final" }, ...(view?.scores ?? []).map((/** @type {number} */ score, /** @type {number} */ s) => h("li", {}, `${seatName(table, s, present)}: ${score}`)));
  /** @type {Node[]} */
  const parts = [
    h("h2", {}, "The game is over"),
    h("p", { class: "tt-winner" }, winnerLine(card, view)),
    standings,
    h(
      "p",
      { class: "tt-over-links" },
      h("a", { href: `#/replay/${id}?game=${game}`, class: "tt-replay" }, "Replay this game"),
      " \u00b7 ",
      h("a", { href: `/tables/${id}/record?game=${game}`, download: `${tableId}-game${game}.json`, class: "tt-record" }, "Download the record"),
    ),
  ];
  if (host) parts.push(h("button", { type: "button", class: "tt-act tt-rematch", onclick: () => hostCall("POST", "/rematch") }, "Rematch"));
  return parts;
}
