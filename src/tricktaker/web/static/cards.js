// @ts-check
// Playing cards drawn as SVG by tricktaker itself (no images, no fonts fetched).
//
// cardSvg("QD", {fourColour: true}) answers an <svg> element with role="img" and an
// aria-label ("queen of diamonds"). Codes are those of the protocol: rank then suit
// letter (AS, 10H, 2C); anything else is a joker, written by the game's own name
// (HB / LB in Bluke, BJ / LJ elsewhere).

import { readFlag, writeFlag } from "./storage.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** @typedef {{symbol: string, name: string, red: boolean, four: string}} Suit */

/** @type {Record<string, Suit>} */
export const SUITS = {
  C: { symbol: "\u2663", name: "clubs", red: false, four: "#157a2c" },
  D: { symbol: "\u2666", name: "diamonds", red: true, four: "#1f5fbf" },
  H: { symbol: "\u2665", name: "hearts", red: true, four: "#c4161c" },
  S: { symbol: "\u2660", name: "spades", red: false, four: "#1a1a1a" },
};

/**
 * Suit letter of a suit name ("hearts" -> "H"), or null.
 * @param {string | null | undefined} name
 * @returns {string | null}
 */
export function suitLetter(name) {
  for (const [letter, suit] of Object.entries(SUITS)) {
    if (suit.name === name || letter === name) return letter;
  }
  return null;
}

/** @type {Record<string, string>} */
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};
export const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

const HIGH_JOKERS = new Set(["HB", "BJ", "HJ", "RJ"]);

/**
 * {rank, suit} of a card code, or {joker: code} for a joker.
 * @param {string} code
 * @returns {{rank: string, suit: string, joker?: undefined} | {joker: string, rank?: undefined, suit?: undefined}}
 */
export function parseCard(code) {
  const text = String(code).toUpperCase();
  const suit = text.slice(-1);
  const rank = text.slice(0, -1);
  if (SUITS[suit] && RANK_NAMES[rank]) return { rank, suit };
  return { joker: text };
}

/**
 * The name a person (or a screen reader) reads: "queen of diamonds", "high joker (HB)".
 * @param {string} code
 * @returns {string}
 */
export function cardName(code) {
  const card = parseCard(code);
  if (card.joker) {
    const which = HIGH_JOKERS.has(card.joker) ? "high joker" : "low joker";
    return `${which} (${card.joker})`;
  }
  return `${RANK_NAMES[card.rank ?? ""]} of ${SUITS[card.suit ?? ""].name}`;
}

/**
 * A short label with the suit symbol: "Q\u2666"; jokers by their code.
 * @param {string} code
 * @returns {string}
 */
export function cardText(code) {
  const card = parseCard(code);
  if (card.joker) return card.joker;
  return (card.rank ?? "") + SUITS[card.suit ?? ""].symbol;
}

/**
 * A server's message with the card codes in it written with suit symbols
 * ("you must play 3D" -> "you must play 3\u2666"). Only whole words that are card codes
 * change.
 * @param {string} text
 * @returns {string}
 */
export function cardsInText(text) {
  return String(text).replace(/\b(10|[2-9JQKA])([CDHS])\b/g, (code) => cardText(code));
}

/** Whether the four-colour deck is chosen (remembered in this browser). */
export function fourColourChosen() {
  return readFlag("fourColour", false);
}

/**
 * Remember the four-colour choice.
 * @param {boolean} on
 */
export function chooseFourColour(on) {
  writeFlag("fourColour", on);
}

/**
 * @param {string} name
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 * @returns {SVGElement}
 */
function el(name, attrs, text) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * @param {string} suit
 * @param {boolean | undefined} fourColour
 */
function suitColour(suit, fourColour) {
  if (fourColour) return SUITS[suit].four;
  return SUITS[suit].red ? "#c4161c" : "#1a1a1a";
}

/**
 * An <svg> card face, 5:7, drawn to scale with CSS (width or height).
 * options.fourColour: clubs green, diamonds blue; options.back: the card's back.
 * @param {string | null | undefined} code
 * @param {{fourColour?: boolean, back?: boolean}} [options]
 * @returns {SVGElement}
 */
export function cardSvg(code, options = {}) {
  const svg = el("svg", {
    viewBox: "0 0 50 70",
    class: "card-svg",
    role: "img",
    focusable: "false",
  });
  if (options.back || code === null || code === undefined) {
    svg.setAttribute("aria-label", "a face-down card");
    svg.append(
      el("rect", { x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 4, fill: "#fff", stroke: "#777", "stroke-width": 1.5 }),
      el("rect", { x: 4, y: 4, width: 42, height: 62, rx: 2.5, fill: "#2b4f8a" }),
      el("path", { d: "M4 18 L25 4 L46 18 M4 35 L25 21 L46 35 M4 52 L25 38 L46 52 M4 66 L25 55 L46 66", stroke: "#6f8fc4", "stroke-width": 1.5, fill: "none" }),
    );
    return svg;
  }
  const card = parseCard(code);
  svg.setAttribute("aria-label", cardName(code));
  svg.dataset.card = String(code).toUpperCase();
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 48.5, height: 68.5, rx: 4, fill: "#fff", stroke: "#777", "stroke-width": 1.5 }));
  if (card.joker) {
    const colour = HIGH_JOKERS.has(card.joker) ? "#c4161c" : "#1a1a1a";
    svg.append(
      el("text", { x: 4, y: 15, "font-size": 13, "font-weight": 700, fill: colour, "font-family": "system-ui, sans-serif" }, card.joker),
      el("text", { x: 25, y: 50, "font-size": 28, "text-anchor": "middle", fill: colour }, "\u2605"),
      el("text", { x: 25, y: 64, "font-size": 7, "text-anchor": "middle", fill: colour, "font-family": "system-ui, sans-serif" }, "JOKER"),
    );
    return svg;
  }
  const suit = card.suit ?? "";
  const rank = card.rank ?? "";
  const colour = suitColour(suit, options.fourColour);
  const symbol = SUITS[suit].symbol;
  const ten = rank === "10";
  // The corner index is large, so a card is readable when the hand overlaps on a phone.
  svg.append(
    el("text", { x: ten ? 2.5 : 4, y: 17, "font-size": ten ? 15 : 17, "font-weight": 700, fill: colour, "font-family": "system-ui, sans-serif", "letter-spacing": ten ? -1.5 : 0 }, rank),
    el("text", { x: 4.5, y: 32, "font-size": 15, fill: colour }, symbol),
    el("text", { x: 31, y: 60, "font-size": 30, "text-anchor": "middle", fill: colour }, symbol),
  );
  if (["J", "Q", "K"].includes(rank)) {
    svg.append(el("rect", { x: 19, y: 30, width: 25, height: 35, rx: 2, fill: "none", stroke: colour, "stroke-width": 1 }));
  }
  return svg;
}
