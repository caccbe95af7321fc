// @ts-check
// Legal actions as the server sends them ("bid 3", "play QD", "auction 4H", "stay"):
// grouped for the controls, labelled for people, and read from what a person types.
// Nothing here decides what is legal: the client offers the server's legal_actions,
// and anything else a person tries is sent for the server to answer with its reason.

import { SUITS, parseCard, cardText } from "./cards.js";

/**
 * {verb, arg} of an action text ("bid 3" -> {verb: "bid", arg: "3"}).
 * @param {string} text
 * @returns {{verb: string, arg: string | null}}
 */
export function splitAction(text) {
  const space = text.indexOf(" ");
  if (space < 0) return { verb: text, arg: null };
  return { verb: text.slice(0, space), arg: text.slice(space + 1) };
}

/** @type {Record<string, string>} */
const HEADINGS = {
  bid: "Your bid",
  call_size: "Call the number of cards",
  call_kind: "Call the kind of hand",
  call_modifier: "Add to the call",
};

/** @type {Record<string, string>} */
const WORDS = {
  pass: "Pass",
  stay: "Stay",
  fold: "Fold",
  draw: "Draw",
  keep: "Keep",
  redeal: "Redeal",
  out_for_now: "Out for now",
  come_back: "Come back",
  concede: "Concede",
  call_done: "Done",
  play_pile: "Play from the pile",
};

/**
 * The heading over a verb's buttons ("" for a plain choice such as pass or stay): the
 * game's own heading for it where the server's panel gives one (`panel.headings`).
 * @param {string} verb
 * @param {Record<string, string> | null} [headings]
 * @returns {string}
 */
export function verbHeading(verb, headings = null) {
  if (WORDS[verb]) return "";
  return headings?.[verb] ?? HEADINGS[verb] ?? verb.replace(/_/g, " ");
}

/** @param {string} letters */
function suitsText(letters) {
  return [...letters].map((l) => SUITS[l]?.symbol ?? l).join("");
}

/**
 * A short label for an action's button ("auction 4H" -> "4\u2665").
 * @param {string} text
 * @returns {string}
 */
export function actionLabel(text) {
  const { verb, arg } = splitAction(text);
  if (arg === null) return WORDS[verb] ?? verb.replace(/_/g, " ");
  if (verb === "auction") {
    if (arg === "NT") return "5 no trump";
    return arg.slice(0, -1) + (SUITS[arg.slice(-1)]?.symbol ?? arg.slice(-1));
  }
  if (verb === "call_trump") {
    const suit = SUITS[arg];
    return suit ? `${suit.symbol} ${suit.name}` : arg.replace(/_/g, " ");
  }
  if (verb === "call_size") return `${arg} cards`;
  if (arg.startsWith("precedence_")) return `suits ${suitsText(arg.slice(11))}`;
  if (isCardArg(arg)) return cardText(arg);
  return arg.replace(/_/g, " ");
}

/**
 * What a screen reader says for an action's button.
 * @param {string} text
 * @returns {string}
 */
export function actionAria(text) {
  const { verb, arg } = splitAction(text);
  if (arg === null) return actionLabel(text);
  if (verb === "auction") {
    if (arg === "NT") return "bid five tricks, no trump";
    return `bid ${arg.slice(0, -1)} tricks, ${SUITS[arg.slice(-1)]?.name ?? arg} trumps`;
  }
  if (verb === "bid") return `bid ${arg}`;
  if (arg.startsWith("precedence_")) {
    return `suit order ${[...arg.slice(11)].map((l) => SUITS[l]?.name ?? l).join(", ")}`;
  }
  return `${verb.replace(/_/g, " ")} ${actionLabel(text)}`;
}

/** @param {string | null} arg */
function isCardArg(arg) {
  return arg !== null && !parseCard(arg).joker && /^(10|[2-9JQKA])[CDHS]$/i.test(arg);
}

/**
 * The legal actions of a view grouped: cardVerbs (verb -> set of card codes, taken by
 * touching cards), and groups [{verb, actions}] shown as buttons, in the server's order.
 * @param {string[]} legal
 * @param {string[] | null | undefined} hand
 * @returns {{cardVerbs: Map<string, Set<string>>, groups: {verb: string, actions: string[]}[]}}
 */
export function groupActions(legal, hand) {
  const inHand = new Set((hand ?? []).map((c) => c.toUpperCase()));
  /** @type {Map<string, Set<string>>} */
  const cardVerbs = new Map();
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const text of legal) {
    const { verb, arg } = splitAction(text);
    if (arg !== null && inHand.has(arg.toUpperCase())) {
      if (!cardVerbs.has(verb)) cardVerbs.set(verb, new Set());
      cardVerbs.get(verb)?.add(arg.toUpperCase());
      continue;
    }
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb)?.push(text);
  }
  return { cardVerbs, groups: [...groups].map(([verb, actions]) => ({ verb, actions })) };
}

/** @param {string} text */
function squash(text) {
  return text.toUpperCase().replace(/\s+/g, "").replace(/^T([CDHS])$/, "10$1");
}

/**
 * The action a person means by typing `typed` ("QD", "q d", "3", "pass", "bid 3"):
 * a legal action when one matches; otherwise a best guess (a card of the hand is
 * played, a number is bid) for the server to refuse with its reason; or null.
 * @param {string} typed
 * @param {string[]} legal
 * @param {string[] | null | undefined} hand
 * @param {string | null | undefined} cardVerb
 * @returns {string | null}
 */
export function readTyped(typed, legal, hand, cardVerb) {
  const text = typed.trim();
  if (!text) return null;
  const wanted = squash(text);
  for (const action of legal) {
    if (squash(action) === wanted) return action;
  }
  for (const action of legal) {
    const { verb, arg } = splitAction(action);
    if (arg !== null && squash(arg) === wanted) return action;
    if (arg === null && verb.toUpperCase().replace(/_/g, "") === wanted.replace(/_/g, "")) return action;
  }
  const lower = text.toLowerCase().replace(/\s+/g, " ");
  if (/^[a-z_]+ \S+$/.test(lower) && legal.some((a) => splitAction(a).verb === lower.split(" ")[0])) {
    return lower.split(" ")[0] + " " + squash(lower.split(" ")[1]);
  }
  const card = wanted.replace(/^T/, "10");
  if ((hand ?? []).some((c) => c.toUpperCase() === card)) return `${cardVerb ?? "play"} ${card}`;
  if (/^\d+$/.test(wanted) && legal.some((a) => splitAction(a).verb === "bid")) return `bid ${wanted}`;
  // A bare rank ("q", "10") names the one legal card of that rank, as in the terminal.
  const rank = wanted === "T" ? "10" : wanted;
  const ofRank = legal.filter((a) => {
    const { arg } = splitAction(a);
    return arg !== null && isCardArg(arg) && arg.toUpperCase().slice(0, -1) === rank;
  });
  if (ofRank.length === 1) return ofRank[0];
  return null;
}

/**
 * A click handler for a choice: the second click of a hurried double tap is not a second
 * choice, even when the server answered the first in between and the next choice (or the
 * next card of the hand) now lies under the finger. Keys give `detail` 0 and still act.
 * @param {() => void} choose
 * @returns {(event: MouseEvent) => void}
 */
export function singleTap(choose) {
  return (event) => {
    if (event.detail <= 1) choose();
  };
}
