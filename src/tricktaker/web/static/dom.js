// @ts-check
// Small DOM helpers shared by the lobby and the replay (no framework, no build step).
// Text is always set as text (textContent), never parsed as markup. Cards are cards.js's.

import { SUITS, suitLetter } from "./cards.js";

/** @typedef {Node | string | number | boolean | null | undefined | any[]} Child */

/**
 * Make an element: el("button", {class: "primary", onclick: f, "aria-label": "..."}, "Text", child).
 * Attributes named on* are event listeners; `dataset` takes an object; boolean true sets the
 * attribute empty, false or null leaves it out. Children are nodes or text (null is skipped).
 * @template {string} K
 * @param {K} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...Child} children
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function el(tag, attrs = {}, ...children) {
  const node = /** @type {any} */ (document.createElement(tag));
  /** @type {Record<string, any>} */
  const props = /** @type {any} */ (node);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "value" && "value" in node) {
      props.value = value;
    } else if (key === "checked" || key === "selected" || key === "disabled") {
      props[key] = Boolean(value);
      if (value) node.setAttribute(key, "");
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

/**
 * Append children (nodes, text, arrays of them; null skipped).
 * @template {Element} E
 * @param {E} node
 * @param {...Child} children
 * @returns {E}
 */
export function append(node, ...children) {
  for (const child of /** @type {Child[]} */ (children.flat(Infinity))) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * Remove every child of `node`.
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * A short message in the page's status line (read out by screen readers).
 * @param {string} text
 */
export function toast(text) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.classList.add("shown");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("shown"), 3500);
}

/**
 * Copy text to the clipboard (with a fallback for pages not served over https).
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el("textarea", { "aria-hidden": "true", class: "offscreen" }, text);
    document.body.append(area);
    area.select();
    const done = document.execCommand && document.execCommand("copy");
    area.remove();
    return Boolean(done);
  }
}

/**
 * A suit name as its symbol and word: "\u2665 hearts".
 * @param {string} name
 * @returns {string}
 */
export function suitText(name) {
  const letter = suitLetter(name);
  return letter ? `${SUITS[letter].symbol} ${SUITS[letter].name}` : name;
}
