// @ts-check
// The pieces of the card table, drawn from the seat's view (the observation JSON of
// docs/protocol.md, Views) and the presentation block computed by the server. Nothing
// here knows a game's rules: it shows what the view and `present` say.

import { cardSvg, cardText, cardsInText, suitLetter } from "./cards.js";
import { clubBackLink } from "./club-parts.js";
import { el as h } from "./dom.js";
import { actionAria, actionLabel, groupActions, singleTap, splitAction, verbHeading } from "./table-actions.js";
import { onEllipse, seatAngle, seatName, seatStateText } from "./table-seats.js";

export { renderSeat, seatName, seatStateText } from "./table-seats.js";

/** @typedef {import("./table-seats.js").TableCtx} TableCtx */
/** @typedef {Record<string, any>} Json */

/**
 * The trump's suit letter, as the server's panel (or the view) names it, or null.
 * @param {Json | null} view
 * @param {Json | null} present
 * @returns {string | null}
 */
export function trumpLetter(view, present) {
  const named = present?.panel?.trump?.suit ?? view?.trump ?? null;
  return named ? suitLetter(named) : null;
}

/**
 * A card face (a figure's picture) for the table.
 * @param {string} code
 * @param {boolean} fourColour
 * @param {string} [extra]
 */
export function cardFace(code, fourColour, extra = "") {
  const svg = cardSvg(code, { fourColour });
  return h("span", { class: `tt-face ${extra}`.trim() }, svg);
}

/**
 * The header line: the club's evening the table is part of (a link back to the club's
 * page), where the game is (the hand, its size, the dealer), the trump.
 * @param {TableCtx} ctx
 * @returns {Node[]}
 */
export function renderWhere(ctx) {
  const club = clubBackLink(ctx.table?.club, "tt-club");
  const items = whereItems(ctx);
  return club ? [club, ...items] : items;
}

/**
 * Where the game is, and the trump.
 * @param {TableCtx} ctx
 * @returns {Node[]}
 */
function whereItems(ctx) {
  const { view, table, present } = ctx;
  if (!view) return [h("span", {}, table?.status === "finished" ? "The game is over." : "Waiting for the game to start.")];
  const panel = present?.panel;
  if (!panel) return [];
  const items = [h("span", { class: "tt-hand-no" }, panel.heading)];
  const trump = trumpLetter(view, present);
  const trumpBox = h(
    "span",
    { class: "tt-trump" },
    h("span", { class: "tt-trump-label" }, "Trump "),
    h("strong", { class: trump ? `suit-${trump}` : "" }, panel.trump?.text ?? ""),
  );
  if (panel.trump?.turn_up) trumpBox.append(" ", h("span", { class: "tt-mini" }, cardFace(panel.trump.turn_up, ctx.fourColour)));
  items.push(trumpBox);
  if (panel.call?.text) items.push(h("span", { class: "tt-call" }, panel.call.text));
  return items;
}

/**
 * Where seat `seat`'s played card lies on the felt (toward its player), as CSS.
 * @param {TableCtx} ctx
 * @param {number} seat
 */
export function playedSpot(ctx, seat) {
  const players = ctx.view?.players ?? ctx.table?.players ?? 4;
  const narrow = window.matchMedia("(max-width: 560px)").matches;
  const { x, y } = onEllipse(seatAngle(seat, players, ctx.seat), narrow ? 14 : 16, narrow ? 19 : 19);
  return `left: ${x.toFixed(1)}%; top: ${y.toFixed(1)}%`;
}

/**
 * The cards on the table (the current trick, or a finished one being shown), each laid in
 * front of whoever played it, and the caption in the middle.
 * @param {TableCtx} ctx
 * @returns {Node[]}
 */
export function renderTrick(ctx) {
  const { view, table, present } = ctx;
  const shown = ctx.showTrick;
  /** @type {[number, string][]} */
  const cards = shown ? shown.cards : view?.current_trick ?? [];
  const area = h("div", { class: "tt-trick-cards" });
  cards.forEach(([seat, code], order) => {
    const won = shown && shown.winner === seat;
    const who = seatName(table, seat, present);
    area.append(
      h(
        "figure",
        {
          class: `tt-played${won ? " won" : ""}`,
          dataset: { seat: String(seat) },
          style: `${playedSpot(ctx, seat)}; z-index: ${order + 1}`,
          "aria-label": `${who}: ${cardText(code)}${won ? ", takes the trick" : ""}`,
        },
        cardFace(code, ctx.fourColour),
        h("figcaption", {}, who + (won ? " \u2713" : "")),
      ),
    );
  });
  let caption = "";
  if (shown) {
    const who = shown.winner !== null && shown.winner !== undefined ? seatName(table, shown.winner, present) : "";
    caption = shown.review ? `Last trick${who ? `: ${who} took it` : ""}` : who ? `${who} takes the trick` : "";
  } else if (view && cards.length === 0 && view.phase === "playing") {
    const leader = view.to_act?.[0];
    caption = leader !== undefined ? `${seatName(table, leader, present)} leads` : "";
  }
  return [area, h("p", { class: "tt-trick-caption" }, caption)];
}

/**
 * @param {string} label
 * @param {(string | null)[]} cards
 * @param {boolean} fourColour
 */
function cardsLine(label, cards, fourColour) {
  return h(
    "div",
    { class: "tt-panel-cards" },
    h("span", {}, label),
    ...(cards ?? []).map((c) => (c ? h("span", { class: "tt-mini" }, cardFace(c, fourColour)) : h("span", { class: "tt-mini" }, cardSvg(null, { back: true })))),
  );
}

/** The game's own panel, as the server's presentation gives it (`present.panel`): its
 * labelled lines (Pluck's quotas and plucks, Euchre's auction and contract, Buckup's pot
 * and payments...), its notes, and the cards it names, drawn (`panel.cards`: a label,
 * the cards and a note said before them). Nothing here knows the game.
 * @param {TableCtx} ctx
 * @returns {Node[]}
 */
export function renderPanel(ctx) {
  const { view, present } = ctx;
  const panel = present?.panel;
  if (!view || !panel) return [];
  const out = [];
  if (panel.hand_note) out.push(h("p", { class: "tt-note" }, panel.hand_note));
  for (const line of panel.lines ?? []) {
    out.push(h("p", {}, line.label ? h("b", {}, `${line.label}: `) : null, cardsInText(line.text ?? "")));
  }
  for (const note of panel.notes ?? []) out.push(h("p", { class: "tt-note" }, note));
  for (const shown of panel.cards ?? []) {
    if (!Array.isArray(shown?.cards) || !shown.cards.length) continue;
    if (shown.note) out.push(h("p", { class: "tt-cards-note" }, shown.note));
    out.push(cardsLine(shown.label ?? "", shown.cards, ctx.fourColour));
  }
  return out;
}

/**
 * The bid buttons: the legal bids the server offers and, when the hook forbids one to
 * this seat, that bid struck out with the server's reason (touching it asks the server,
 * which answers with the rule).
 * @param {TableCtx} ctx
 * @param {string[]} actions
 * @param {HTMLElement} box
 */
function bidButtons(ctx, actions, box) {
  const numbers = actions.map((a) => Number(splitAction(a).arg));
  const hook = ctx.present?.panel?.hook ?? null;
  const forbidden =
    hook && hook.forbidden !== null && hook.forbidden !== undefined && (hook.seat === null || hook.seat === ctx.seat) && !numbers.includes(hook.forbidden)
      ? Number(hook.forbidden)
      : null;
  const shown = [...numbers];
  if (forbidden !== null) shown.push(forbidden);
  shown.sort((a, b) => a - b);
  const buttons = h("div", { class: "tt-buttons tt-bids-buttons" });
  for (const n of shown) {
    const text = `bid ${n}`;
    const ok = n !== forbidden;
    buttons.append(
      h(
        "button",
        {
          type: "button",
          class: ok ? "tt-act tt-bid" : "tt-act tt-bid forbidden",
          "aria-label": ok ? `bid ${n}` : `bid ${n}, not allowed: ${hook?.reason ?? ""}`,
          title: ok ? null : `not allowed: ${hook?.reason ?? ""}`,
          dataset: { action: text },
          onclick: singleTap(() => ctx.onAct(text)),
        },
        String(n),
      ),
    );
  }
  box.append(buttons);
  if (forbidden !== null) box.append(h("p", { class: "tt-hook" }, `The hook: you may not bid ${forbidden}: ${hook.reason}.`));
}

/** Controls for the legal actions other than card choices, one group per verb.
 * @param {TableCtx} ctx
 * @returns {Node[]}
 */
export function renderControls(ctx) {
  const { view } = ctx;
  const legal = view?.legal_actions ?? [];
  if (!legal.length) return [];
  const { groups } = groupActions(legal, view?.hand);
  const out = [];
  for (const { verb, actions } of groups) {
    const heading = verbHeading(verb, ctx.present?.panel?.headings);
    const box = h("div", { class: `tt-group verb-${verb}`, role: "group", "aria-label": heading || actionLabel(actions[0]) }, heading ? h("h3", {}, heading) : null);
    if (verb === "bid" && actions.every((a) => /^bid \d+$/.test(a))) {
      bidButtons(ctx, actions, box);
      out.push(box);
      continue;
    }
    const buttons = h("div", { class: "tt-buttons" });
    if (actions.length > 16) {
      const select = h("select", { "aria-label": heading }, ...actions.map((a) => h("option", { value: a }, actionLabel(a))));
      buttons.append(select, h("button", { type: "button", class: "tt-act", onclick: singleTap(() => ctx.onAct(/** @type {HTMLSelectElement} */ (select).value)) }, "OK"));
    } else {
      for (const text of actions) {
        buttons.append(
          h("button", { type: "button", class: "tt-act", "aria-label": actionAria(text), dataset: { action: text }, onclick: singleTap(() => ctx.onAct(text)) }, actionLabel(text)),
        );
      }
    }
    box.append(buttons);
    out.push(box);
  }
  return out;
}

/**
 * The line that says who is connected, away, or replaced by a bot.
 * @param {Json | null} table
 * @param {Json | null} [present]
 * @returns {Node[]}
 */
export function renderPresence(table, present = null) {
  if (!table) return [];
  return (table.seats ?? []).map((/** @type {Json} */ info, /** @type {number} */ i) =>
    h("span", { class: `tt-presence-item state-${info.state}` }, [seatName(table, i, present), seatStateText(info)].filter(Boolean).join(": ")),
  );
}

/**
 * The trick that this event finished, if any.
 * @param {Json | null} previous
 * @param {Json} event
 */
export function finishedTrick(previous, event) {
  const view = event.view;
  const told = (view.present?.narration ?? []).filter((/** @type {Json} */ line) => line.kind === "trick" && Array.isArray(line.cards));
  if (told.length) return { cards: told.at(-1).cards, winner: told.at(-1).seat ?? null };
  const result = event.hand_result;
  if (result && Array.isArray(result.trick_cards) && result.trick_cards.length) {
    return { cards: result.trick_cards.at(-1), winner: result.trick_winners?.at(-1) ?? null };
  }
  const before = previous && previous.hand_number === view.hand_number ? previous.tricks?.length ?? 0 : 0;
  if ((view.tricks?.length ?? 0) > before && view.tricks.length) {
    return { cards: view.tricks.at(-1), winner: view.trick_winners?.at(-1) ?? null };
  }
  return null;
}
