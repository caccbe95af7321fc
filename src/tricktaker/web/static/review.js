// @ts-check
// The coach's review of a finished game, in its replay (docs/coach.md, A review in the
// browser). Pick a seat; the server reviews its decisions (POST /tables/{id}/review, or
// /api/replays/{id}/review for a record file's replay)
// while this page follows its progress (GET, once a second), then shows what each hand's
// choices were worth, the game's costliest choices ranked, each a link that moves the
// replay to the moment before the choice, and the model the values assume beside them.
// The figures are the server's (tricktaker.coach.review); this only lays them out. The
// seat this browser sat at is picked first, and a review made before shows at once.

import { errorText, getJSON, postJSON, seatToken } from "./api.js";
import { cardsInText } from "./cards.js";
import { append, clear, el } from "./dom.js";

/**
 * One legal choice's value (tricktaker.coach.review.ChoiceFigure).
 * @typedef {{action: string, mean: number, stderr: number, make_chance: number | null}} Figure
 */

/**
 * One of the seat's decisions (ReviewedDecision.to_json; a loss has its `rank`).
 * @typedef {object} Decision
 * @property {number} hand
 * @property {number} decision
 * @property {number} event the record's event: the replay's frame event - 1 is the moment before it
 * @property {number | null} trick
 * @property {string} made
 * @property {string} best
 * @property {number} cost
 * @property {boolean} exact
 * @property {number} samples
 * @property {Figure[]} choices
 * @property {number} [rank]
 */

/**
 * A review (Review.to_json, as `tricktaker review --json` prints it).
 * @typedef {object} Review
 * @property {number} seat
 * @property {string | null} name
 * @property {string} unit
 * @property {boolean} [chance] the values are chances from 0 to 1 (a cooperative game's chance that the table is exact)
 * @property {number} seconds
 * @property {number | null} deals
 * @property {string} model
 * @property {number} total_cost
 * @property {{hand: number, decisions: number, cost: number, points: number | null, summary: string}[]} hands
 * @property {Decision[]} losses
 * @property {Decision[]} decisions
 * @property {{hand: number, decision: number, event: number, made: string}[]} unvalued
 */

/**
 * A review's progress (GET /tables/{id}/review; docs/protocol.md, Reviews).
 * @typedef {object} Progress
 * @property {"none" | "queued" | "running" | "done" | "failed"} status
 * @property {number} done
 * @property {number | null} total
 * @property {number} ahead
 * @property {string} budget
 * @property {Review | null} review
 * @property {string | null} detail
 */

/** How often the page asks how far a review is, in milliseconds. */
const POLL_MS = 1000;

/** The review's styles (review.css), added to the page once. */
function reviewStyles() {
  if (!document.querySelector("link[data-tricktaker-review]")) {
    const href = new URL("./review.css", import.meta.url).href;
    document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-review": "" }));
  }
}

/**
 * A value as the review writes it: one decimal (a chance: a whole percentage), a real
 * minus sign.
 * @param {number} value
 * @param {boolean} [signed] a plus sign before a gain
 * @param {boolean} [percent] the value is a chance
 */
export function figure(value, signed = false, percent = false) {
  const zero = percent ? "0%" : "0.0";
  const text = percent ? `${Math.abs(value * 100).toFixed(0)}%` : Math.abs(value).toFixed(1);
  if (value < 0 && text !== zero) return `\u2212${text}`;
  return signed && text !== zero ? `+${text}` : text;
}

/**
 * A value and its standard error, as the terminal's review writes them: two decimals
 * where the error is below 0.05, so that it does not read as 0 (cli/human.py); a chance
 * as percentages, one decimal where the error is below half a percent.
 * @param {Figure} choice
 * @param {boolean} [percent] the value is a chance
 */
export function valueText(choice, percent = false) {
  if (percent) {
    const whole = choice.stderr >= 0.005 ? 0 : 1;
    return `${(choice.mean * 100).toFixed(whole)}% ± ${(choice.stderr * 100).toFixed(whole)}%`;
  }
  const places = choice.stderr >= 0.05 ? 1 : 2;
  const mean = choice.mean.toFixed(places).replace(/^-/, "\u2212");
  return `${mean} ± ${choice.stderr.toFixed(places)}`;
}

/**
 * Where a decision is, in words: "Hand 3, trick 2" (a card), "Hand 3" (before the play).
 * @param {Decision} decision
 */
export function momentText(decision) {
  return `Hand ${decision.hand}${decision.trick === null ? "" : `, trick ${decision.trick}`}`;
}

/**
 * The Review view of a finished game, in `box`: a table's game (`tableId`, `game`), or a
 * record file's replay (`replayId`).
 * @param {HTMLElement} box
 * @param {object} where
 * @param {string | null} where.tableId
 * @param {number | null} where.game
 * @param {string | null} where.replayId
 * @param {string[]} where.names the seats' names
 * @param {(step: number) => void} where.moveTo shows the replay's frame `step`
 * @param {number | null} [where.seat] the seat picked first (else this browser's seat)
 * @returns {() => void} what stops it (no more requests)
 */
export function mountReview(box, { tableId, game, replayId, names, moveTo, seat: asked = null }) {
  reviewStyles();
  let closed = false;
  let asking = 0; // the latest request's number: an older answer is dropped
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  const path = tableId
    ? `/tables/${encodeURIComponent(tableId)}/review`
    : `/api/replays/${encodeURIComponent(replayId || "")}/review`;

  const mine = tableId ? seatToken(tableId) : null;
  const first =
    asked !== null && asked >= 0 && asked < names.length ? asked
    : mine && mine.seat >= 0 && mine.seat < names.length ? mine.seat
    : 0;
  const seatSelect = el(
    "select",
    { id: "review-seat", "aria-label": "Seat to review", onchange: () => peek(Number(seatSelect.value)) },
    names.map((name, seat) => el("option", { value: String(seat), selected: seat === first }, name)),
  );
  const start = el("button", { type: "submit", class: "primary", id: "review-start" }, "Review");
  const meter = el("progress", { id: "review-progress", max: "1", value: "0", hidden: true });
  const status = el("p", { class: "review-status", id: "review-status", role: "status", "aria-live": "polite" });
  const result = el("div", { class: "review-result", id: "review-result" });

  append(box, [
    el("h2", { id: "review-title" }, "Coach's review"),
    el(
      "p",
      { class: "help" },
      "The coach values every choice the seat made against the best choice it had, from what that seat could see. It takes a minute or two; a review once made is kept with the table.",
    ),
    el(
      "form",
      {
        class: "row review-pick",
        /** @param {SubmitEvent} e */
        onsubmit: (e) => {
          e.preventDefault();
          ask(Number(seatSelect.value));
        },
      },
      el("label", { for: "review-seat" }, "Seat"),
      seatSelect,
      start,
    ),
    meter,
    status,
    result,
  ]);
  peek(first);

  /**
   * Show the seat's review if it was made (or is being made), else say it can be asked for.
   * @param {number} seat
   */
  function peek(seat) {
    const number = ++asking;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    meter.hidden = true;
    clear(result);
    status.textContent = "";
    follow(seat, number);
  }

  /** @param {number} seat */
  async function ask(seat) {
    const number = ++asking;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    clear(result);
    status.textContent = `Asking for ${names[seat]}'s review…`;
    try {
      /** @type {Progress} */
      const answer = await postJSON(path, game === null ? { seat } : { seat, game });
      if (!closed && number === asking) show(seat, answer, number);
    } catch (error) {
      if (!closed && number === asking) fail(error);
    }
  }

  /**
   * @param {number} seat
   * @param {number} number
   */
  async function follow(seat, number) {
    timer = null;
    const query = `seat=${seat}${game === null ? "" : `&game=${game}`}`;
    try {
      /** @type {Progress} */
      const answer = await getJSON(`${path}?${query}`);
      if (!closed && number === asking) show(seat, answer, number);
    } catch (error) {
      if (!closed && number === asking) fail(error);
    }
  }

  /** @param {unknown} error */
  function fail(error) {
    meter.hidden = true;
    status.textContent = `No review: ${errorText(error)}`;
  }

  /**
   * @param {number} seat
   * @param {Progress} answer
   * @param {number} number
   */
  function show(seat, answer, number) {
    if (answer.status === "none") {
      meter.hidden = true;
      status.textContent = `${names[seat]}'s decisions have not been reviewed yet: press Review.`;
      return;
    }
    if (answer.status === "done" && answer.review) {
      meter.hidden = true;
      status.textContent = `${names[seat]}'s review (${answer.budget} a decision).`;
      renderReview(answer.review);
      return;
    }
    if (answer.status === "failed") {
      meter.hidden = true;
      status.textContent = answer.detail || "The review failed.";
      return;
    }
    meter.hidden = false;
    if (answer.status === "queued" || answer.total === null) {
      meter.removeAttribute("value");
      status.textContent = answer.ahead
        ? `Waiting its turn: ${answer.ahead} review${answer.ahead === 1 ? "" : "s"} ahead.`
        : "Starting the review…";
    } else {
      meter.max = Math.max(1, answer.total);
      meter.value = answer.done;
      status.textContent = `Reviewing ${names[seat]}'s decisions: ${answer.done} of ${answer.total}.`;
    }
    timer = setTimeout(() => follow(seat, number), POLL_MS);
  }

  /** @param {Review} review */
  function renderReview(review) {
    clear(result);
    const unit = review.unit;
    const percent = review.chance === true;
    const who = review.name || names[review.seat];
    const count = review.decisions.length;
    const model = el(
      "aside",
      { class: "review-model", id: "review-model", "aria-label": "What the values assume" },
      el("h3", {}, "What the values assume"),
      el("p", {}, cardsInText(review.model)),
      el(
        "p",
        { class: "help" },
        `${
          percent
            ? `A value is the ${unit} this hand (every seat taking exactly its bid) after that choice`
            : `A value is the ${unit} ${who} could expect from the hand after that choice`
        }; each was estimated over ${
          review.deals === null ? `${review.seconds} s of deals` : `${review.deals} deals`
        }.`,
      ),
    );
    const losses = el("ol", { class: "review-losses", id: "review-losses" });
    for (const loss of review.losses) {
      const made = loss.choices.find((c) => c.action === loss.made);
      const best = loss.choices[0];
      losses.append(
        el(
          "li",
          {},
          el(
            "a",
            {
              href: "#replay-title",
              class: "review-moment",
              dataset: { event: String(loss.event) },
              /** @param {MouseEvent} e */
              onclick: (e) => {
                e.preventDefault();
                for (const shown of losses.querySelectorAll("[aria-current]")) shown.removeAttribute("aria-current");
                /** @type {HTMLElement} */ (e.currentTarget).setAttribute("aria-current", "step");
                moveTo(loss.event - 1);
              },
            },
            `${momentText(loss)}: ${cardsInText(loss.made)}`,
          ),
          el("span", { class: "review-cost" }, percent ? ` ${figure(-loss.cost, false, true)} on the ${unit}` : ` ${figure(-loss.cost)} ${unit}`),
          el(
            "span",
            { class: "review-figures" },
            el("span", {}, `made ${made ? valueText(made, percent) : "?"}`),
            " · ",
            el("span", {}, `coach's ${cardsInText(best.action)} ${valueText(best, percent)}`),
          ),
        ),
      );
    }
    const hands = el("ol", { class: "review-hands", id: "review-hands" });
    for (const hand of review.hands) {
      hands.append(
        el(
          "li",
          { value: String(hand.hand) },
          el("strong", {}, `Hand ${hand.hand}`),
          hand.points === null ? "" : percent ? ` (the table was ${hand.points ? "" : "not "}exact)` : ` (${hand.points} ${unit})`,
          `: ${cardsInText(hand.summary)}`,
        ),
      );
    }
    append(result, [
      el(
        "p",
        { class: "review-total", id: "review-total" },
        `${who}: ${count} decision${count === 1 ? "" : "s"} with a choice, ` +
          (review.total_cost > 0
            ? percent
              ? `${figure(review.total_cost, false, true)} on the ${unit} given up in all.`
              : `${figure(review.total_cost)} ${unit} expected given up in all.`
            : "every one the coach's."),
      ),
      el(
        "div",
        { class: "review-columns" },
        el(
          "section",
          { "aria-labelledby": "review-losses-title" },
          el("h3", { id: "review-losses-title" }, "Largest losses"),
          review.losses.length
            ? [el("p", { class: "help" }, "Each moves the replay to the moment before the choice."), losses]
            : el("p", {}, "None: every choice was the coach's."),
          el("h3", {}, "Each hand"),
          hands,
        ),
        model,
      ),
    ]);
  }

  return () => {
    closed = true;
    if (timer !== null) clearTimeout(timer);
  };
}
