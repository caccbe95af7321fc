// Small DOM helpers shared by the lobby and the replay (no framework, no build step).
// Text is always set as text (textContent), never parsed as markup.

/**
 * Make an element: el("button", {class: "primary", onclick: f, "aria-label": "..."}, "Text", child).
 * Attributes named on* are event listeners; `dataset` takes an object; boolean true sets the
 * attribute empty, false or null leaves it out. Children are nodes or text (null is skipped).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key === "value" && "value" in node) {
      node.value = value;
    } else if (key === "checked" || key === "selected" || key === "disabled") {
      node[key] = Boolean(value);
      if (value) node.setAttribute(key, "");
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(node, children);
  return node;
}

/** Append children (nodes, text, arrays of them; null skipped). */
export function append(node, ...children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Remove every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

let toastTimer = null;

/** A short message in the page's status line (read out by screen readers). */
export function toast(text) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.classList.add("shown");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("shown"), 3500);
}

/** Copy text to the clipboard (with a fallback for pages not served over https). */
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

const SUITS = { C: ["clubs", "♣"], D: ["diamonds", "♦"], H: ["hearts", "♥"], S: ["spades", "♠"] };
const RANKS = { A: "ace", K: "king", Q: "queen", J: "jack" };

/** The parts of a card code: {rank: "10", suit: "H"} (suit null for a joker). */
export function cardParts(code) {
  const suit = code.slice(-1);
  if (code.length >= 2 && SUITS[suit] && /^(10|[2-9AKQJ])$/.test(code.slice(0, -1))) {
    return { rank: code.slice(0, -1), suit };
  }
  return { rank: code, suit: null };
}

/** A card in words for screen readers: "queen of diamonds", "joker HB". */
export function cardName(code) {
  const { rank, suit } = cardParts(code);
  if (!suit) return `joker ${code}`;
  return `${RANKS[rank] || rank} of ${SUITS[suit][0]}`;
}

/** A card as short text with its suit symbol: "Q♦". */
export function cardText(code) {
  const { rank, suit } = cardParts(code);
  return suit ? `${rank}${SUITS[suit][1]}` : code;
}

/** A suit name as its symbol and word: "♥ hearts". */
export function suitText(name) {
  const entry = Object.values(SUITS).find(([word]) => word === name);
  return entry ? `${entry[1]} ${name}` : name;
}
