// @ts-check
// The score sheet, as players keep it on paper, drawn from the scorecard that the
// server computes (the `present.scorecard` block; docs/protocol.md, Views): one row
// per hand, the totals, each player's Set / Over / Perfect counts, and a chart of the
// totals over the hands (inline SVG, drawn here). Nothing is computed but the layout.

import { el as h } from "./dom.js";

/**
 * A seat's (or a team's) cells of one hand.
 * @typedef {object} ScoreItem
 * @property {number | null} [bid]
 * @property {number | null} [tricks]
 * @property {number | null} [score]
 * @property {number} [total]
 * @property {number | null} [stack]
 * @property {string | null} [outcome] "S", "O" or "P" (set, over, perfect), if any
 */

/**
 * One hand's row of the sheet.
 * @typedef {object} ScoreRow
 * @property {number} hand
 * @property {number} hand_size
 * @property {string} trump_text
 * @property {string | null} [special]
 * @property {{text: string}[] | null} [summary]
 * @property {boolean} [all_exact]
 * @property {string | null} [column] the text of the game's own column (a contract, the pot)
 * @property {ScoreItem[]} [seats]
 * @property {ScoreItem[]} [teams]
 */

/**
 * The server's scorecard block (`present.scorecard`; docs/protocol.md, Views).
 * @typedef {object} Scorecard
 * @property {string} layout "bids", "quota", "chips", "team" or "points"
 * @property {string} unit
 * @property {string[]} names
 * @property {{name?: string | null, seats?: number[]}[]} [teams]
 * @property {ScoreRow[]} rows
 * @property {boolean} [cooperative]
 * @property {number[]} [totals]
 * @property {number[] | null} [team_totals]
 * @property {number[] | null} [stacks]
 * @property {{S: number, O: number, P: number}[] | null} [counts]
 * @property {Record<string, string> | null} [outcome_words]
 * @property {number[][]} [series]
 * @property {number[][] | null} [team_series]
 * @property {string | null} [column] the heading of the game's own column, if it has one
 */

/** @typedef {[string, string, (item: ScoreItem) => unknown]} Column */

const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f5fbf", "#c4161c", "#157a2c", "#8a4fbf", "#c77800", "#0f8a8a", "#6b6b6b", "#b5367a"];

/**
 * @param {number | null | undefined} n
 * @returns {string}
 */
function signed(n) {
  if (n === null || n === undefined) return "";
  return n > 0 ? `+${n}` : String(n);
}

/**
 * @param {string} layout
 * @returns {Column[]}
 */
function seatColumns(layout) {
  switch (layout) {
    case "bids":
      return [["Bid", "bid", (s) => s.bid ?? "\u2013"], ["Tk", "tricks won", (s) => s.tricks ?? "\u2013"], ["Pts", "points this hand", (s) => signed(s.score)], ["Tot", "total", (s) => s.total]];
    case "quota":
      return [["Quo", "quota", (s) => s.bid ?? "\u2013"], ["Tk", "tricks won", (s) => s.tricks ?? "\u2013"], ["+/\u2212", "tricks over quota", (s) => signed(s.score)], ["Tot", "total", (s) => s.total]];
    case "chips":
      return [["Won", "chips won or lost", (s) => signed(s.score)], ["Stack", "chips after the hand", (s) => s.stack ?? s.total]];
    default:
      return [["Tk", "tricks won", (s) => s.tricks ?? "\u2013"], ["Pts", "points this hand", (s) => signed(s.score)], ["Tot", "total", (s) => s.total]];
  }
}

/** @param {string | null | undefined} outcome */
function outcomeClass(outcome) {
  return outcome ? ` outcome-${outcome}` : "";
}

/** @param {Scorecard} card */
function sheet(card) {
  const table = h("table", { class: "sc-table" });
  const team = card.layout === "team";
  const groups = team ? (card.teams ?? []).map((t) => t.name ?? t.seats?.join(" & ") ?? "") : card.names;
  /** @type {Column[]} */
  const columns = team
    ? [["Tk", "tricks won", (t) => t.tricks], ["Pts", "points this hand", (t) => signed(t.score)], ["Tot", "total", (t) => t.total]]
    : seatColumns(card.layout);
  // The game's own column (a contract, the pot), headed and written by the server.
  const extraHead = card.column ? [card.column] : card.cooperative ? ["All exact"] : [];
  table.append(
    h("caption", {}, `Score sheet (${card.unit})`),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { rowspan: "2", scope: "col" }, "Hand"),
        h("th", { rowspan: "2", scope: "col" }, "Cards"),
        h("th", { rowspan: "2", scope: "col" }, "Trump"),
        ...extraHead.map((t) => h("th", { rowspan: "2", scope: "col" }, t)),
        ...groups.map((name) => h("th", { colspan: String(columns.length), scope: "colgroup", class: "sc-player" }, name)),
      ),
      h("tr", {}, ...groups.flatMap(() => columns.map(([label, long]) => h("th", { scope: "col", class: "sc-sub" }, h("abbr", { title: long }, label))))),
    ),
  );
  const body = h("tbody");
  for (const row of card.rows) {
    const cells = [
      h("th", { scope: "row", title: (row.summary ?? []).map((line) => line.text).join("\n") || null }, String(row.hand)),
      h("td", {}, String(row.hand_size)),
      h("td", { class: "sc-trump" }, row.trump_text + (row.special ? ` \u00b7 ${row.special}` : "")),
    ];
    if (card.column) cells.push(h("td", {}, row.column ?? ""));
    else if (card.cooperative) cells.push(h("td", {}, row.all_exact ? "yes" : "no"));
    const items = (team ? row.teams : row.seats) ?? [];
    for (const item of items) {
      for (const [, , value] of columns) {
        cells.push(h("td", { class: `sc-num${team ? "" : outcomeClass(item.outcome)}` }, String(value(item))));
      }
    }
    body.append(h("tr", {}, ...cells));
  }
  table.append(body);
  const lead = 3 + extraHead.length;
  const totals = team ? card.team_totals : card.layout === "chips" && card.stacks ? card.stacks : card.totals;
  const foot = h(
    "tfoot",
    {},
    h(
      "tr",
      { class: "sc-totals" },
      h("th", { scope: "row", colspan: String(lead) }, card.layout === "chips" ? "Stacks" : "Totals"),
      ...(totals ?? []).map((t) => h("td", { colspan: String(columns.length), class: "sc-num" }, String(t))),
    ),
  );
  if (!team && Array.isArray(card.counts)) {
    const words = card.outcome_words ?? { S: "set", O: "over", P: "perfect" };
    foot.append(
      h(
        "tr",
        { class: "sc-counts" },
        h("th", { scope: "row", colspan: String(lead) }, `${words.S ?? "set"} / ${words.O ?? "over"} / ${words.P ?? "perfect"}`),
        ...card.counts.map((c) =>
          h("td", { colspan: String(columns.length), class: "sc-num", "aria-label": `${c.S} ${words.S}, ${c.O} ${words.O}, ${c.P} ${words.P}` }, `${c.S} / ${c.O} / ${c.P}`),
        ),
      ),
    );
  }
  table.append(foot);
  // A sheet wider than the screen scrolls sideways: the keyboard reaches it (tabindex) to
  // scroll it with the arrow keys, and a screen reader hears what it is.
  return h("div", { class: "sc-scroll", tabindex: "0", role: "region", "aria-label": `Score sheet (${card.unit})` }, table);
}

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 * @returns {SVGElement}
 */
function svg(name, attrs, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A line chart of the totals after each hand: one line per player (or team).
 * @param {number[][]} series each hand's totals, in the order of `names`
 * @param {string[]} names
 * @param {string} [title]
 * @returns {HTMLElement}
 */
export function totalsChart(series, names, title = "Totals after each hand") {
  const width = 360;
  const height = 180;
  const pad = { left: 38, right: 10, top: 14, bottom: 24 };
  /** @type {number[][]} */
  const points = [new Array(names.length).fill(0), ...series];
  const last = points[points.length - 1];
  const values = points.flat();
  const low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (low === high) high = low + 1;
  /** @param {number} k */
  const x = (k) => pad.left + (k * (width - pad.left - pad.right)) / Math.max(1, points.length - 1);
  /** @param {number} v */
  const y = (v) => pad.top + ((high - v) * (height - pad.top - pad.bottom)) / (high - low);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "sc-chart", role: "img", "aria-label": `${title}: ${names.map((n, i) => `${n} ${last[i]}`).join(", ")}` });
  chart.append(svg("title", {}, title));
  chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), stroke: "#999", "stroke-dasharray": "3 3" }));
  for (const v of [high, low]) {
    chart.append(svg("text", { x: pad.left - 4, y: y(v) + 4, "text-anchor": "end", "font-size": 10, fill: "#444" }, String(v)));
  }
  chart.append(svg("text", { x: pad.left - 4, y: y(0) + 4, "text-anchor": "end", "font-size": 10, fill: "#444" }, "0"));
  chart.append(svg("text", { x: (pad.left + width - pad.right) / 2, y: height - 6, "text-anchor": "middle", "font-size": 10, fill: "#444" }, `hands 0\u2013${points.length - 1}`));
  for (let i = 0; i < names.length; i += 1) {
    const colour = COLOURS[i % COLOURS.length];
    const line = points.map((p, k) => `${x(k).toFixed(1)},${y(p[i]).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points: line, fill: "none", stroke: colour, "stroke-width": 2, "stroke-linejoin": "round" }));
    chart.append(svg("circle", { cx: x(points.length - 1), cy: y(last[i]), r: 3, fill: colour }));
  }
  const legend = h(
    "ul",
    { class: "sc-legend" },
    ...names.map((name, i) => h("li", {}, h("span", { class: "sc-swatch", style: `background:${COLOURS[i % COLOURS.length]}` }), name)),
  );
  return h("figure", { class: "sc-figure" }, chart, legend);
}

/**
 * Draw `scorecard` (the server's scorecard block) into `el`, replacing its content.
 * @param {Element} el
 * @param {Scorecard | null | undefined} scorecard
 */
export function renderScorecard(el, scorecard) {
  if (!scorecard || !Array.isArray(scorecard.rows) || scorecard.rows.length === 0) {
    el.replaceChildren(h("p", { class: "sc-empty" }, "No hand has been finished yet: the score sheet fills in after each hand."));
    return;
  }
  const team = scorecard.layout === "team" && Array.isArray(scorecard.team_series) && scorecard.team_series.length;
  const names = team ? (scorecard.teams ?? []).map((t) => t.name ?? String(t.seats)) : scorecard.names;
  const series = (team ? scorecard.team_series : scorecard.series) ?? [];
  // A cooperative game has no score of its own per player: no chart of totals.
  const chart = scorecard.cooperative ? null : totalsChart(series, names);
  el.replaceChildren(h("div", { class: "sc" }, sheet(scorecard), chart));
}
