// @ts-check
// A player's page (#/player/NAME; docs/players.md): their ratings and statistics, each
// labelled with the exact rules it was earned under (the ruleset's fingerprint and the
// options that differ), the history of their finished games with the replay and the
// coach's review, and the score sheets they keep: as much of it as the player shares
// with the visitor (player-privacy.js says what is not, and holds the player's own
// settings). Everything is the server's (GET /api/players/{name}); this only lays it out.

import { csrfToken } from "./account-session.js";
import { ApiError, api, errorText } from "./api.js";
import { append, clear, el } from "./dom.js";
import { notSharedPanel, privacyPanel } from "./player-privacy.js";

/** The page's styles (player.css), added once. */
function playerStyles() {
  if (!document.querySelector("link[data-tricktaker-player]")) {
    const href = new URL("./player.css", import.meta.url).href;
    document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-player": "" }));
  }
}

/**
 * The rules a figure was earned under (stats.RulesLabel.to_json).
 * @typedef {object} Rules
 * @property {string} fingerprint
 * @property {string} game
 * @property {string} name
 * @property {boolean} house
 * @property {string[]} changed
 * @property {string} text
 */

/**
 * Sums over some hands (stats.Bucket.to_json).
 * @typedef {object} Bucket
 * @property {number} hands
 * @property {number} points
 * @property {number | null} points_per_hand
 * @property {number} bids
 * @property {number} perfect
 * @property {number} set
 * @property {number} over
 * @property {number | null} accuracy
 */

/**
 * A date as a person reads it, in this browser's language.
 * @param {string | null} stamp ISO 8601
 */
function day(stamp) {
  if (!stamp) return "";
  const date = new Date(stamp);
  return Number.isNaN(date.getTime()) ? stamp : date.toLocaleDateString(undefined, { dateStyle: "medium" });
}

/**
 * A share as a percentage, "61%" ("–" for none).
 * @param {number | null} share
 */
function percent(share) {
  return share === null ? "–" : `${Math.round(share * 100)}%`;
}

/**
 * A number with at most one decimal ("–" for none).
 * @param {number | null} value
 */
function decimal(value) {
  return value === null ? "–" : (Math.round(value * 10) / 10).toLocaleString();
}

/**
 * An English ordinal: 1st, 2nd, 3rd, 4th, 11th.
 * @param {number} n
 */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th"}`;
}

/**
 * Where a seat sat from the dealer, in words.
 * @param {number} position 0: the dealer, 1: on the dealer's left
 */
export function positionText(position) {
  if (position === 0) return "Dealer";
  if (position === 1) return "Dealer's left (first)";
  return `${ordinal(position)} from the dealer`;
}

/**
 * The rules' label: the game's name, house rules, the options that differ, and the
 * fingerprint (the exact rules) for whoever compares.
 * @param {Rules} rules
 */
function rulesLabel(rules) {
  return el(
    "span",
    { class: "player-rules" },
    el("span", { class: "player-rules-text" }, rules.text),
    " ",
    el("code", { class: "player-fingerprint", title: "The fingerprint of these exact rules and options" }, rules.fingerprint),
  );
}

/**
 * A table of buckets (by hand size, by position), scrolling sideways on a phone.
 * @param {string} caption
 * @param {string} head the first column's heading
 * @param {{key: string, bucket: Bucket}[]} rows
 */
function bucketTable(caption, head, rows) {
  const cells = (/** @type {Bucket} */ b) => [
    el("td", {}, String(b.hands)),
    el("td", {}, decimal(b.points_per_hand)),
    el("td", {}, b.bids ? percent(b.accuracy) : "–"),
    el("td", {}, b.bids ? String(b.set) : "–"),
    el("td", {}, b.bids ? String(b.over) : "–"),
    el("td", {}, b.bids ? String(b.perfect) : "–"),
  ];
  return el(
    "div",
    { class: "player-scroll", tabindex: "0", role: "region", "aria-label": caption },
    el(
      "table",
      { class: "player-table" },
      el("caption", {}, caption),
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ...[head, "Hands", "Points a hand", "Bid accuracy", "Set", "Over", "Perfect"].map((h) => el("th", { scope: "col" }, h)),
        ),
      ),
      el(
        "tbody",
        {},
        rows.map(({ key, bucket }) => el("tr", {}, el("th", { scope: "row" }, key), cells(bucket))),
      ),
    ),
  );
}

/**
 * One fingerprint's statistics.
 * @param {any} entry stats.RulesStatistics.to_json
 * @param {number} index
 */
function statisticsPanel(entry, index) {
  /** @type {Bucket} */
  const total = entry.total;
  const id = `player-stats-${index}`;
  const facts = [
    ["Games", `${entry.games}${entry.sheets ? ` (${entry.sheets} on score sheets)` : ""}`],
    ["Wins", entry.cooperative || !entry.finished ? "–" : `${entry.wins} of ${entry.finished} finished`],
    ["Hands", String(total.hands)],
    [`${entry.score_unit[0].toUpperCase()}${entry.score_unit.slice(1)} a hand`, decimal(total.points_per_hand)],
    ["Bid accuracy", total.bids ? `${percent(total.accuracy)} (${total.perfect} of ${total.bids})` : "no bids in this game"],
    ["Set / Over / Perfect", total.bids ? `${total.set} / ${total.over} / ${total.perfect}` : "–"],
    ["Table sizes", entry.players.map((/** @type {number} */ n) => `${n} players`).join(", ")],
  ];
  return el(
    "section",
    { class: "panel player-stats", "aria-labelledby": id },
    el("h3", { id }, rulesLabel(entry.rules)),
    el("dl", { class: "player-facts" }, facts.map(([term, value]) => el("div", {}, el("dt", {}, term), el("dd", {}, value)))),
    el(
      "details",
      {},
      el("summary", {}, "By hand size and by seat from the dealer"),
      bucketTable(
        "By hand size",
        "Cards",
        entry.by_hand_size.map((/** @type {any} */ b) => ({ key: String(b.hand_size), bucket: b })),
      ),
      bucketTable(
        "By seat from the dealer",
        "Seat",
        entry.by_position.map((/** @type {any} */ b) => ({ key: positionText(b.position), bucket: b })),
      ),
    ),
  );
}

/**
 * The ratings, one row per fingerprint.
 * @param {any[]} ratings
 */
function ratingsPanel(ratings) {
  const body = ratings.length
    ? ratingsTable(ratings)
    : el("p", {}, "No rated game yet: a game is rated when two people or more with an account play it to its end.");
  return el(
    "section",
    { class: "panel", "aria-labelledby": "player-ratings-title" },
    el("h2", { id: "player-ratings-title" }, "Ratings"),
    el(
      "p",
      { class: "help" },
      "One rating for each set of rules (openskill). The rating shown is the cautious one, μ − 3σ: it rises as the uncertainty σ falls.",
    ),
    body,
  );
}

/**
 * The ratings, a tile each (the rules, the cautious rating large, μ ± σ and the games).
 * @param {any[]} ratings
 */
function ratingsTable(ratings) {
  return el(
    "ul",
    { class: "player-rating-list", "aria-label": "Ratings by rules" },
    ratings.map((r) =>
      el(
        "li",
        { class: "player-rating-tile" },
        el("div", {}, rulesLabel(r.rules)),
        el(
          "div",
          { class: "player-rating-figures" },
          el("span", { class: "player-rating", "aria-label": `Rating ${decimal(r.ordinal)}` }, decimal(r.ordinal)),
          el(
            "span",
            { class: "help" },
            `μ ${decimal(r.mu)} ± σ ${decimal(r.sigma)} · ${r.games} rated game${r.games === 1 ? "" : "s"}`,
          ),
        ),
      ),
    ),
  );
}

/**
 * One game of the history.
 * @param {any} game
 */
function gameItem(game) {
  const place = game.cooperative ? "cooperative" : game.place ? `${ordinal(game.place)} of ${game.players}` : "";
  const seatName = game.names[game.seat] || `Seat ${game.seat + 1}`;
  const others = game.names.filter((/** @type {string} */ _n, /** @type {number} */ i) => i !== game.seat);
  return el(
    "li",
    { class: "player-game" },
    el(
      "div",
      { class: "player-game-head" },
      el("span", { class: "player-game-place" }, place),
      " ",
      el("span", {}, rulesLabel(game.rules)),
    ),
    el(
      "div",
      { class: "help" },
      `${day(game.finished_at)} · as ${seatName} with ${others.join(", ")} · ${game.total} ${game.score_unit} in ${game.hands} hand${game.hands === 1 ? "" : "s"}`,
    ),
    el(
      "div",
      { class: "row player-links" },
      el("a", { class: "button", href: game.replay, "aria-label": `Replay the game of ${day(game.finished_at)}, table ${game.table}` }, "Replay"),
      el("a", { class: "button", href: game.review, "aria-label": `The coach's review of the game of ${day(game.finished_at)}, table ${game.table}` }, "Review"),
    ),
  );
}

/**
 * The history, with a button for more.
 * @param {string} name
 * @param {any} first the first page (GET /api/players/{name}'s history)
 */
function historyPanel(name, first) {
  const list = el("ol", { class: "player-games", "aria-label": "Games, the latest first" });
  const status = el("p", { class: "help", role: "status" });
  let next = first.next_offset;
  const more = el("button", { type: "button", id: "player-more" }, "More games");
  const show = (/** @type {any} */ page) => {
    append(list, page.games.map(gameItem));
    next = page.next_offset;
    more.hidden = next === null;
    status.textContent = `${list.children.length} of ${page.total} game${page.total === 1 ? "" : "s"} shown.`;
  };
  more.addEventListener("click", async () => {
    more.disabled = true;
    try {
      show(await api(`/api/players/${encodeURIComponent(name)}/games?offset=${next}`));
    } catch (error) {
      status.textContent = errorText(error);
    } finally {
      more.disabled = false;
    }
  });
  show(first);
  return el(
    "section",
    { class: "panel", "aria-labelledby": "player-history-title" },
    el("h2", { id: "player-history-title" }, "Games"),
    first.total ? list : el("p", {}, "No finished game yet."),
    status,
    more,
  );
}

/**
 * The sheets the player keeps (to themself, or to whom they share them with).
 * @param {any[]} sheets
 * @param {boolean} own the player's own page
 * @param {string} name the player's name
 */
function sheetsPanel(sheets, own, name) {
  const items = sheets.map((sheet) =>
    el(
      "li",
      {},
      el("a", { href: sheet.link }, `${sheet.rules.text}: ${sheet.players.join(", ")}`),
      " ",
      el(
        "span",
        { class: "help" },
        `${sheet.hands} hand${sheet.hands === 1 ? "" : "s"}${sheet.over ? ", finished" : ""}${own ? `; ${sheet.counted ? "counted in your statistics" : "not counted: no player on it has your name"}` : ""}`,
      ),
    ),
  );
  return el(
    "section",
    { class: "panel", "aria-labelledby": "player-sheets-title" },
    el("h2", { id: "player-sheets-title" }, own ? "Your score sheets" : `${name}'s score sheets`),
    own
      ? el("p", { class: "help" }, "A sheet's hands count for the player whose name is yours. Who sees this list: What you share, below.")
      : null,
    items.length
      ? el("ul", { class: "account-list" }, items)
      : el("p", {}, own ? "No score sheet kept in your account." : "No score sheet."),
  );
}

/**
 * What the player's own page says of who sees it.
 * @param {Record<string, string>} privacy
 */
function ownNote(privacy) {
  const page = { public: "everyone", clubs: "the members of your clubs", private: "nobody but you" }[privacy.page];
  return ` This is your page: it is shown to ${page}, as set in What you share, below; your unlisted tables are yours alone.`;
}

/**
 * Mount the player's page of `name` in `root`.
 * @param {HTMLElement} root
 * @param {{name: string}} options
 * @returns {Promise<() => void>}
 */
export async function mountPlayer(root, { name }) {
  playerStyles();
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    const missing = error instanceof ApiError && error.status === 404;
    append(
      clear(root),
      el(
        "section",
        { class: "panel error-panel", role: "alert" },
        el("h1", {}, missing ? "No such player" : "This page could not be loaded"),
        el("p", {}, missing ? `No player is called ${name}.` : errorText(error)),
        el("p", {}, el("a", { href: "#/" }, "Back to the lobby")),
      ),
    );
    return () => {};
  }
  document.title = `${data.player.name} · tricktaker`;
  const shown = data.shared.page;
  append(
    clear(root),
    el(
      "div",
      { class: "player-head" },
      el("h1", { class: "page-title" }, data.player.name),
      shown
        ? el("p", { class: "help" }, `Playing since ${day(data.player.joined)}.`, data.own ? ownNote(data.privacy) : "")
        : null,
      data.own ? el("p", {}, el("a", { href: "#/account" }, "Your account: sessions and log out")) : null,
    ),
    notSharedPanel(data, Boolean(csrfToken())),
    data.ratings ? ratingsPanel(data.ratings) : null,
    shown
      ? el(
          "section",
          { class: "player-section", "aria-labelledby": "player-stats-title" },
          el("h2", { id: "player-stats-title", class: "player-section-title" }, "Statistics"),
          data.statistics.length
            ? data.statistics.map(statisticsPanel)
            : el("p", { class: "panel" }, "No finished game or score sheet yet."),
        )
      : null,
    data.history ? historyPanel(data.player.name, data.history) : null,
    data.sheets ? sheetsPanel(data.sheets, data.own, data.player.name) : null,
    data.own ? privacyPanel(data.privacy) : null,
  );
  return () => {};
}
