// @ts-check
// The coach's hint at the table (docs/protocol.md, Hints; docs/coach.md): a Hint button
// beside your choices, on your turn, where the table's hints are on; the panel it opens
// lists every legal choice with what the coach reckons it is worth (the points you can
// expect from the hand, with the estimate's error; where the hint says its values are
// chances, as a cooperative game's chance that the table is exact, a percentage), the
// chance of making your bid, the
// coach's choice marked and what the values assume, in one line. A choice in the panel
// is played by clicking it. Nothing here values anything: the server's hint does.

import { el as h } from "./dom.js";
import { actionAria, actionLabel, splitAction } from "./table-actions.js";

/**
 * A choice as the panel lists it, in the table's own labels: a card or a plain choice
 * as its button shows it ("Q\u2665", "Pass"); another with its verb ("bid 2", "pluck 7\u2665").
 * @param {string} text
 * @returns {string}
 */
export function choiceText(text) {
  const { verb, arg } = splitAction(text);
  const label = actionLabel(text);
  if (arg === null || verb === "play" || /\s/.test(label)) return label;
  return `${verb.replace(/_/g, " ")} ${label}`;
}

/**
 * A value with its standard error ("7.0 \u00b1 0.3"): one decimal, or two where the error
 * is below 0.05 (so that it does not read as 0), with a true minus sign.
 * @param {number} mean
 * @param {number} stderr
 * @returns {string}
 */
export function valueText(mean, stderr) {
  const places = stderr >= 0.05 ? 1 : 2;
  return `${mean.toFixed(places)} \u00b1 ${stderr.toFixed(places)}`.replace(/-/g, "\u2212");
}

/**
 * A chance with its standard error, as percentages ("62% \u00b1 3%"): whole, or to one
 * decimal where the error is below half a percent.
 * @param {number} chance
 * @param {number} stderr
 * @returns {string}
 */
export function chanceText(chance, stderr) {
  const places = stderr >= 0.005 ? 0 : 1;
  return `${(chance * 100).toFixed(places)}% \u00b1 ${(stderr * 100).toFixed(places)}%`;
}

/**
 * @typedef {{action: string, label: string, mean: number, stderr: number,
 *   make_chance: number | null, deals: number, best: boolean}} HintChoice
 * @typedef {{type: "hint", id: string, seq: number, seat: number, choices: HintChoice[],
 *   best: string, model: string, exact: boolean, deals: number, seconds: number,
 *   unit?: string, chance?: boolean}} HintMessage
 */

/**
 * The Hint button, the "hints on" badge and the hint panel of one table.
 * `ask` sends a hint and answers its id (null: not sent); `play` plays a choice;
 * `announce` says something to a screen reader.
 * @param {{ask: () => string | null, play: (action: string) => void, announce: (text: string) => void}} options
 */
export function hintControls({ ask, play, announce }) {
  const panel = h("section", { class: "tt-hint-panel", hidden: true, "aria-label": "the coach's hint", tabindex: "-1" });
  const button = h(
    "button",
    { type: "button", class: "tt-act tt-hint", title: "Ask the coach what each of your choices is worth", "aria-expanded": "false" },
    "Hint",
  );
  const badge = h("span", { class: "tt-hints-on", hidden: true, title: "Anyone seated may ask the coach for a hint on their turn" }, "hints on");
  /** @type {string | null} */
  let asking = null;
  /** @type {HintMessage | null} */
  let shown = null;
  let seq = /** @type {number | null} */ (null);
  let unit = "points";

  function close() {
    shown = null;
    panel.hidden = true;
    panel.replaceChildren();
    button.setAttribute("aria-expanded", "false");
  }

  function idle() {
    asking = null;
    button.disabled = false;
    button.textContent = "Hint";
    button.removeAttribute("aria-busy");
  }

  button.addEventListener("click", () => {
    if (asking) return;
    if (shown) {
      close();
      return;
    }
    const id = ask();
    if (!id) return;
    asking = id;
    button.disabled = true;
    button.textContent = "Thinking\u2026";
    button.setAttribute("aria-busy", "true");
  });

  /** @param {HintMessage} message */
  function draw(message) {
    const chances = message.choices.some((c) => c.make_chance !== null);
    // What the values count: the hint says (a cooperative game's chance that the table
    // is exact); a server that does not, the score sheet's unit.
    const percent = message.chance === true;
    const named = message.unit || unit;
    const head = h("tr", {}, h("th", { scope: "col" }, "Choice"), h("th", { scope: "col", class: "num" }, percent ? "table exact" : named), chances ? h("th", { scope: "col", class: "num" }, "makes bid") : null, h("th", { scope: "col" }, h("span", { class: "offscreen" }, "coach")));
    const rows = message.choices.map((c) => {
      const name = choiceText(c.action);
      const value = percent ? chanceText(c.mean, c.stderr) : valueText(c.mean, c.stderr);
      const chance = c.make_chance === null ? "" : `${Math.round(c.make_chance * 100)}%`;
      const pick = h(
        "button",
        {
          type: "button",
          class: "tt-hint-choice",
          dataset: { hintAction: c.action },
          "aria-label": `${actionAria(c.action)}: ${value} ${named}${chance ? `, makes the bid ${chance}` : ""}${c.best ? ", the coach's choice" : ""}. Play it.`,
          onclick: () => {
            close();
            play(c.action);
          },
        },
        name,
      );
      return h(
        "tr",
        { class: c.best ? "best" : "" },
        h("td", {}, pick),
        h("td", { class: "num" }, value),
        chances ? h("td", { class: "num" }, chance) : null,
        h("td", { class: "tt-hint-mark" }, c.best ? "\u2190 coach" : ""),
      );
    });
    const how = message.exact ? "exact: every deal" : `${message.deals} deals, ${message.seconds.toFixed(1)} s`;
    const shut = h("button", { type: "button", class: "tt-tab tt-close", onclick: () => { close(); button.focus(); } }, "Close");
    panel.replaceChildren(
      shut,
      h("h2", {}, "The coach's hint"),
      h(
        "p",
        { class: "tt-hint-how" },
        percent
          ? `The ${named} this hand (every seat taking exactly its bid) after each choice (${how}). Choose one to play it.`
          : `The ${named} you can expect from this hand after each choice (${how}). Choose one to play it.`,
      ),
      h("table", { class: "tt-hint-table" }, h("thead", {}, head), h("tbody", {}, ...rows)),
      h("p", { class: "tt-hint-model" }, `Assuming ${message.model}.`),
    );
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
  }

  return {
    button,
    badge,
    panel,
    /**
     * Show what the table now allows: the badge where hints are on, the button on your
     * turn; a hint shown for another position than the table's now is closed.
     * @param {{on: boolean, myTurn: boolean, seq: number | null, unit?: string | null}} now
     */
    update(now) {
      badge.hidden = !now.on;
      button.hidden = !(now.on && now.myTurn);
      unit = now.unit || "points";
      if (seq !== now.seq || !now.myTurn) {
        if (shown) close();
        if (asking && !now.myTurn) idle();
      }
      seq = now.seq;
    },
    /**
     * A hint from the server: shown if it answers the one asked, for the position shown.
     * @param {HintMessage} message
     * @returns {boolean} whether it was this panel's
     */
    answer(message) {
      if (message.id !== asking) return false;
      idle();
      if (seq !== null && message.seq !== seq) return true; // the table moved on meanwhile
      shown = message;
      draw(message);
      const best = message.choices.find((c) => c.best);
      if (best) announce(`The coach would ${actionAria(best.action)}.`);
      panel.focus({ preventScroll: true });
      panel.scrollIntoView({ block: "nearest" });
      return true;
    },
    /**
     * An error from the server: the button is offered again if it answers the hint asked.
     * @param {string | undefined} id
     * @returns {boolean} whether it answered the hint asked
     */
    refused(id) {
      if (!asking || id !== asking) return false;
      idle();
      return true;
    },
    close,
  };
}
