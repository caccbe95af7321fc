// @ts-check
// Your hand, fanned: the cards in the order the server gives them (`present.hand`:
// trumps first, bowers and jokers with them, then the other suits with the colours
// alternating), each trump marked; the cards you may choose now lifted, the others
// dimmed. Every card is a button in the tab order (the arrow keys move along the hand);
// touching one tries it, and the server answers a card the rules forbid with the rule.
// On a narrow screen a long hand lies in two overlapping rows.

import { cardName, cardSvg, cardText } from "./cards.js";
import { el as h } from "./dom.js";
import { groupActions, singleTap, verbHeading } from "./table-actions.js";

/** @typedef {import("./table-seats.js").TableCtx} TableCtx */
/** @typedef {{card: string, trump: boolean, suit: string | null, received?: boolean}} HandCard */

/**
 * The seat's cards as the server orders and marks them (`present.hand`); a server
 * without it gives the view's hand as it is, unmarked.
 * @param {TableCtx} ctx
 * @returns {HandCard[]}
 */
export function handCards(ctx) {
  const given = ctx.present?.hand;
  if (Array.isArray(given)) return given;
  return (ctx.view?.hand ?? []).map((/** @type {string} */ card) => ({ card, trump: false, suit: null }));
}

/**
 * The hand's cards, as buttons in one or two rows.
 * @param {TableCtx} ctx
 * @returns {Node[]}
 */
export function renderHand(ctx) {
  const { view } = ctx;
  if (!view || ctx.seat === null || ctx.seat === undefined) return [];
  if (!view.hand) {
    const count = view.cards_in_hand?.[ctx.seat] ?? 0;
    if (!count) return [];
    const blind = h("div", { class: "tt-hand-cards blind", role: "group", "aria-label": "your cards, face down" });
    const row = h("div", { class: "tt-hand-row" });
    for (let i = 0; i < count; i += 1) row.append(h("span", { class: "tt-card back" }, cardSvg(null, { back: true })));
    blind.append(row);
    return [h("p", { class: "tt-note" }, "You may not look at your cards yet."), blind];
  }
  const legalActions = view.legal_actions ?? [];
  const { cardVerbs } = groupActions(legalActions, view.hand);
  const verb = cardVerbs.size ? [...cardVerbs.keys()][0] : null;
  const legal = verb ? cardVerbs.get(verb) ?? new Set() : new Set();
  const myTurn = legalActions.length > 0;
  const cards = handCards(ctx);
  // A card another seat has just handed over (a pluck's card), as the server marks it.
  const received = new Set(cards.filter((c) => c.received).map((c) => String(c.card).toUpperCase()));
  const buttons = cards.map(({ card, trump }) => {
    // The button is named by its hidden text (the card's name, "trump", what touching
    // it does); its picture, whose rank and suit are drawn as text, is not read.
    const picture = cardSvg(card, { fourColour: ctx.fourColour });
    picture.setAttribute("aria-hidden", "true");
    const upper = card.toUpperCase();
    const ok = legal.has(upper);
    const tryVerb = verb ?? (view.phase === "playing" ? "play" : null);
    const cls = ["tt-card", ok ? "legal" : myTurn && verb ? "dim" : "", trump ? "trump" : "", received.has(upper) ? "received" : ""]
      .filter(Boolean)
      .join(" ");
    const label = `${cardName(card)}${trump ? ", trump" : ""}${ok && verb ? `, ${verb.replace(/_/g, " ")}` : ""}${received.has(upper) ? ", just received" : ""}`;
    return h(
      "button",
      {
        type: "button",
        class: cls,
        dataset: ok ? { card: upper, action: `${verb} ${upper}` } : { card: upper },
        onclick: singleTap(() => {
          if (tryVerb) ctx.onAct(`${tryVerb} ${upper}`);
          else ctx.onNote("It is not your turn to choose a card.");
        }),
      },
      h("span", { class: "offscreen tt-card-name" }, label),
      picture,
      trump ? h("span", { class: "tt-trump-mark", "aria-hidden": "true" }) : null,
    );
  });
  const fan = h("div", { class: "tt-hand-cards", role: "group", "aria-label": `your hand, ${cards.length} cards` });
  fan.dataset.count = String(cards.length);
  fan.append(h("div", { class: "tt-hand-row" }, ...buttons));
  fan.addEventListener("keydown", (event) => moveAlong(/** @type {KeyboardEvent} */ (event), fan));
  const out = [fan];
  if (verb && verb !== "play") out.unshift(h("p", { class: "tt-note" }, `${verbHeading(verb, ctx.present?.panel?.headings)}: touch a highlighted card.`));
  if (received.size) out.push(h("p", { class: "tt-note" }, `You received ${[...received].map(cardText).join(", ")}.`));
  return out;
}

/**
 * The arrow keys move the focus along the hand (Home and End to its ends).
 * @param {KeyboardEvent} event
 * @param {HTMLElement} fan
 */
function moveAlong(event, fan) {
  const cards = /** @type {HTMLElement[]} */ ([...fan.querySelectorAll("button.tt-card")]);
  const at = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (at < 0) return;
  /** @type {Record<string, number>} */
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: cards.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const next = Math.max(0, Math.min(cards.length - 1, moves[event.key]));
  cards[next].focus();
}

/**
 * Lay the hand out in the width it has: the cards overlap as much as they must (in two
 * rows on a narrow screen when the hand is long), in a shallow arc, as a fan.
 * @param {HTMLElement} box the hand's container
 */
export function layoutHand(box) {
  const fan = box.querySelector(".tt-hand-cards");
  if (!(fan instanceof HTMLElement)) return;
  const cards = /** @type {HTMLElement[]} */ ([...fan.querySelectorAll(".tt-card")]);
  if (!cards.length) return;
  const width = fan.clientWidth;
  if (!width) return;
  const cardWidth = cards[0].getBoundingClientRect().width || 60;
  const narrow = width < 560;
  const rows = narrow && cards.length > 9 ? 2 : 1;
  const perRow = Math.ceil(cards.length / rows);
  // The row elements: one, or the cards split in two.
  const wanted = rows;
  let rowEls = /** @type {HTMLElement[]} */ ([...fan.querySelectorAll(".tt-hand-row")]);
  if (rowEls.length !== wanted) {
    fan.replaceChildren();
    rowEls = [];
    for (let r = 0; r < wanted; r += 1) {
      const row = h("div", { class: "tt-hand-row" });
      row.append(...cards.slice(r * perRow, (r + 1) * perRow));
      fan.append(row);
      rowEls.push(row);
    }
  }
  fan.dataset.rows = String(wanted);
  rowEls.forEach((row, r) => {
    const inRow = /** @type {HTMLElement[]} */ ([...row.children]);
    const n = inRow.length;
    const room = width - 8;
    const natural = cardWidth + 6;
    const step = n > 1 ? Math.min(natural, (room - cardWidth) / (n - 1)) : natural;
    inRow.forEach((card, i) => {
      // A fan without turning the cards (each card's corner stays where a finger or a
      // pointer expects it): the cards away from the middle lie a little lower.
      const offset = (i - (n - 1) / 2) / Math.max((n - 1) / 2, 1);
      card.style.marginLeft = i === 0 ? "0px" : `${(step - cardWidth).toFixed(1)}px`;
      card.style.setProperty("--arc", `${(offset * offset * (narrow ? 3 : 10)).toFixed(1)}px`);
      card.style.zIndex = String(r * 100 + i + 1);
    });
  });
}

/**
 * Draw `box` again with `draw`, and put the focus back on the same card or choice
 * (by its data-card or data-action) when it was inside.
 * @param {HTMLElement} box
 * @param {() => void} draw
 * @param {boolean} [near] when the focused one is gone, focus the one now in its place
 *   (a card just played); else (a choice made) the focus is left where it falls
 */
export function keepFocus(box, draw, near = false) {
  const focused = document.activeElement;
  const inside = focused instanceof HTMLElement && box.contains(focused);
  const card = inside ? focused.dataset.card : undefined;
  const action = inside ? focused.dataset.action : undefined;
  const place = inside ? [...box.querySelectorAll("button")].indexOf(/** @type {HTMLButtonElement} */ (focused)) : -1;
  draw();
  if (!inside) return;
  const again = card
    ? box.querySelector(`[data-card="${CSS.escape(card)}"]`)
    : action
      ? box.querySelector(`[data-action="${CSS.escape(action)}"]`)
      : null;
  // A card just played is gone: the focus goes to the card now in its place.
  const buttons = [...box.querySelectorAll("button")];
  const target = again ?? (near ? buttons[Math.min(Math.max(place, 0), buttons.length - 1)] : null);
  if (target instanceof HTMLElement) target.focus({ preventScroll: true });
}
