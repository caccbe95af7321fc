// @ts-check
// The table's motion (Web Animations, "FLIP": first, last, invert, play): a card played
// flies from the hand or the player's seat to its place on the felt, and a finished trick
// slides to the seat that took it. Nothing moves when the reader asked for reduced motion.

import { reducedMotion } from "./table-theme.js";

/** @typedef {{played: Map<string, DOMRect>, hand: Map<string, DOMRect>, seats: Map<string, DOMRect>}} Places */

/**
 * Where things are on the page now, before the table is drawn again.
 * @param {HTMLElement} page
 * @returns {Places}
 */
export function places(page) {
  /** @type {Places} */
  const found = { played: new Map(), hand: new Map(), seats: new Map() };
  for (const node of page.querySelectorAll(".tt-trick .tt-played")) {
    const seat = /** @type {HTMLElement} */ (node).dataset.seat ?? "";
    const card = node.querySelector("[data-card]")?.getAttribute("data-card") ?? "";
    found.played.set(`${seat}:${card}`, node.getBoundingClientRect());
  }
  for (const node of page.querySelectorAll(".tt-hand .tt-card[data-card]")) {
    found.hand.set(/** @type {HTMLElement} */ (node).dataset.card ?? "", node.getBoundingClientRect());
  }
  for (const node of page.querySelectorAll(".tt-seat[data-seat]")) {
    found.seats.set(/** @type {HTMLElement} */ (node).dataset.seat ?? "", node.getBoundingClientRect());
  }
  return found;
}

/**
 * @param {DOMRect} rect
 */
function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/**
 * Move each card newly laid on the felt from where it came: your card from your hand, the
 * others' from their seats.
 * @param {HTMLElement} page
 * @param {Places} before
 */
export function flyNewCards(page, before) {
  if (reducedMotion()) return;
  for (const node of page.querySelectorAll(".tt-trick .tt-played")) {
    const figure = /** @type {HTMLElement} */ (node);
    const seat = figure.dataset.seat ?? "";
    const card = figure.querySelector("[data-card]")?.getAttribute("data-card") ?? "";
    if (before.played.has(`${seat}:${card}`)) continue;
    const from = before.hand.get(card) ?? before.seats.get(seat);
    if (!from) continue;
    const to = figure.getBoundingClientRect();
    const a = centre(from);
    const b = centre(to);
    figure.animate(
      [
        { transform: `translate(calc(-50% + ${a.x - b.x}px), calc(-50% + ${a.y - b.y}px)) scale(0.8)`, opacity: 0.6 },
        { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
      ],
      { duration: 280, easing: "cubic-bezier(.2,.7,.3,1)" },
    );
  }
}

/**
 * Slide the finished trick to the seat that took it; resolves when it is there (at once
 * with reduced motion, or when there is no such seat on the page).
 * @param {HTMLElement} page
 * @param {number | null} winner
 * @returns {Promise<void>}
 */
export function sweepTrick(page, winner) {
  if (reducedMotion() || winner === null) return Promise.resolve();
  const plate = page.querySelector(`.tt-seat[data-seat="${winner}"]`);
  const cards = /** @type {HTMLElement[]} */ ([...page.querySelectorAll(".tt-trick .tt-played")]);
  if (!plate || !cards.length) return Promise.resolve();
  const target = centre(plate.getBoundingClientRect());
  const moves = cards.map((figure) => {
    const here = centre(figure.getBoundingClientRect());
    return figure.animate(
      [
        { transform: "translate(-50%, -50%) scale(1)", opacity: 1 },
        { transform: `translate(calc(-50% + ${target.x - here.x}px), calc(-50% + ${target.y - here.y}px)) scale(0.4)`, opacity: 0 },
      ],
      { duration: 320, easing: "ease-in", fill: "forwards" },
    ).finished;
  });
  return Promise.all(moves).then(
    () => undefined,
    () => undefined,
  );
}
