// The pieces of the card table, drawn from the seat's view (the observation JSON of
// docs/protocol.md, Views) and the presentation block computed by the server. Nothing
// here knows a game's rules: it shows what the view and `present` say.

import { cardSvg, cardName, cardText, parseCard, suitLetter, RANK_ORDER } from "./cards.js";
import { el as h } from "./dom.js";
import { actionAria, actionLabel, groupActions, splitAction, verbHeading } from "./table-actions.js";

const STATE_TEXT = {
  connected: "connected",
  away: "away",
  replaced: "a bot plays for them",
  bot: "bot",
  free: "empty seat",
};

/** A seat's name as the table knows it. */
export function seatName(table, seat) {
  // The same names as the server's narration and scorecard ("Seat 2" for a seat with
  // no name), so that the table, the play by play and the score sheet agree.
  const info = table?.seats?.[seat];
  return info?.name || `Seat ${seat}`;
}

/** "connected", "away", "a bot plays for them", "bot (easy)", "empty seat". */
export function seatStateText(info) {
  if (!info) return "";
  if (info.state === "bot") return info.bot ? `bot (${info.bot})` : "bot";
  return STATE_TEXT[info.state] ?? info.state;
}

/** The trump's suit letter, as the server's panel (or the view) names it, or null. */
export function trumpLetter(view, present) {
  const named = present?.panel?.trump?.suit ?? view?.trump ?? null;
  return named ? suitLetter(named) : null;
}

/** The hand sorted by suit, trump first and the colours alternating, jokers first. */
export function sortHand(cards, trump) {
  const cycle = ["S", "H", "C", "D"];
  const start = trump ? cycle.indexOf(trump) : 0;
  const order = cycle.slice(start).concat(cycle.slice(0, start));
  const key = (code) => {
    const card = parseCard(code);
    if (card.joker) return [-1, -card.joker.charCodeAt(0)];
    return [order.indexOf(card.suit), RANK_ORDER.indexOf(card.rank)];
  };
  return [...cards].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

/** A card face (button or figure) for the table. */
export function cardFace(code, fourColour, extra = "") {
  const svg = cardSvg(code, { fourColour });
  return h("span", { class: `tt-face ${extra}`.trim() }, svg);
}

/** The header line: where the game is, who deals, the trump. */
export function renderWhere(ctx) {
  const { view, table, present } = ctx;
  if (!view) return [h("span", {}, table?.status === "finished" ? "The game is over." : "Waiting for the game to start.")];
  const panel = present?.panel;
  if (!panel) return [];
  const items = [h("span", { class: "tt-hand-no" }, panel.heading)];
  const trump = trumpLetter(view, present);
  const trumpBox = h("span", { class: "tt-trump" }, "Trump: ", h("strong", { class: trump ? `suit-${trump}` : "" }, panel.trump?.text ?? ""));
  if (panel.trump?.turn_up) trumpBox.append(" ", h("span", { class: "tt-mini" }, cardFace(panel.trump.turn_up, ctx.fourColour)));
  items.push(trumpBox);
  if (panel.call?.text) items.push(h("span", { class: "tt-call" }, panel.call.text));
  return items;
}

function statRow(label, value) {
  return h("span", { class: "tt-stat" }, h("span", { class: "tt-stat-label" }, label), " ", h("b", {}, String(value)));
}

/** One seat's box: name, status, dealer, bid, tricks, score and the game's own data. */
export function renderSeat(ctx, seat) {
  const { view, table, present } = ctx;
  const info = table?.seats?.[seat];
  const me = seat === ctx.seat;
  const toAct = view?.to_act?.includes(seat);
  const name = seatName(table, seat) + (me ? " (you)" : "");
  const row = present?.seats?.[seat];
  const box = h("section", {
    class: `tt-seat${toAct ? " to-act" : ""}${me ? " me" : ""} state-${info?.state ?? "none"}`,
    "aria-label": `${name}${toAct ? ", to act" : ""}`,
    dataset: { seat: String(seat) },
  });
  const head = h("div", { class: "tt-seat-head" }, h("span", { class: "tt-seat-name" }, name));
  if (view && view.dealer === seat) head.append(h("span", { class: "tt-chip", title: "dealer", "aria-label": "dealer" }, "D"));
  box.append(head);
  box.append(h("div", { class: `tt-status state-${info?.state ?? "none"}` }, seatStateText(info)));
  if (!view) return box;
  const stats = h("div", { class: "tt-stats" });
  const bidsUsed = view.bids?.some((b) => b !== null) || view.bid_made?.some(Boolean) || view.phase === "bidding";
  if (row) {
    if (bidsUsed) stats.append(statRow("Bid", row.bid_text ?? row.bid ?? "\u2013"));
    if (row.quota !== null && row.quota !== undefined) stats.append(statRow("Quota", row.quota));
    stats.append(statRow("Tricks", row.tricks ?? 0));
    if (row.stack !== null && row.stack !== undefined) stats.append(statRow("Chips", row.stack));
    else stats.append(statRow("Score", row.score ?? 0));
    if (row.status_text && row.status !== "undecided") stats.append(h("span", { class: "tt-seat-status" }, row.status_text));
    if (row.partners) stats.append(h("span", { class: "tt-partner" }, `partner ${row.partners}`));
  }
  if (view.active && view.active[seat] === false) stats.append(h("span", { class: "tt-out" }, "sits out"));
  box.append(stats);
  return box;
}

/** The cards on the table (the current trick, or a finished one being shown). */
export function renderTrick(ctx) {
  const { view, table } = ctx;
  const shown = ctx.showTrick;
  const cards = shown ? shown.cards : view?.current_trick ?? [];
  const area = h("div", { class: "tt-trick-cards" });
  for (const [seat, code] of cards) {
    const won = shown && shown.winner === seat;
    area.append(
      h(
        "figure",
        { class: `tt-played${won ? " won" : ""}`, dataset: { seat: String(seat) } },
        cardFace(code, ctx.fourColour),
        h("figcaption", {}, seatName(table, seat) + (won ? " \u2713" : "")),
      ),
    );
  }
  let caption = "";
  if (shown) {
    const who = shown.winner !== null && shown.winner !== undefined ? seatName(table, shown.winner) : "";
    caption = shown.review ? `Last trick${who ? `: ${who} took it` : ""}` : who ? `${who} takes the trick` : "";
  } else if (view && cards.length === 0 && view.phase === "playing") {
    const leader = view.to_act?.[0];
    caption = leader !== undefined ? `${seatName(table, leader)} leads` : "";
  }
  return [area, h("p", { class: "tt-trick-caption", "aria-live": "polite" }, caption)];
}

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
 * and payments...), its notes, and the cards it names, drawn. */
export function renderPanel(ctx) {
  const { view, table, present } = ctx;
  const panel = present?.panel;
  if (!view || !panel) return [];
  const out = [];
  if (panel.hand_note) out.push(h("p", { class: "tt-note" }, panel.hand_note));
  for (const line of panel.lines ?? []) {
    out.push(h("p", {}, line.label ? h("b", {}, `${line.label}: `) : null, line.text ?? ""));
  }
  for (const note of panel.notes ?? []) out.push(h("p", { class: "tt-note" }, note));
  const game = panel.euchre ?? panel.buckup ?? panel.pluck ?? {};
  if (Array.isArray(game.kitty) && game.kitty.length) out.push(cardsLine("Kitty", game.kitty, ctx.fourColour));
  if (Array.isArray(game.discards) && game.discards.length) out.push(cardsLine("Discarded", game.discards, ctx.fourColour));
  if (Array.isArray(game.discarded) && game.discarded.length) out.push(cardsLine("You discarded", game.discarded, ctx.fourColour));
  if (Array.isArray(game.drew) && game.drew.length) out.push(cardsLine("You drew", game.drew, ctx.fourColour));
  const pip = game.in_progress;
  if (pip && typeof pip === "object" && pip.given) {
    out.push(h("p", { class: "tt-pluck" }, `${seatName(table, pip.plucker)} plucks from ${seatName(table, pip.pluckee)}`));
    out.push(cardsLine("Card given", [pip.given], ctx.fourColour));
  }
  return out;
}

/** Controls for the legal actions other than card choices, one group per verb. The
 * bid buttons also show the bids the server forbids (the hook), for it to explain. */
export function renderControls(ctx) {
  const { view, present } = ctx;
  const legal = view?.legal_actions ?? [];
  if (!legal.length) return [];
  const { groups } = groupActions(legal, view.hand);
  const out = [];
  for (const { verb, actions } of groups) {
    const heading = verbHeading(verb);
    const box = h("div", { class: `tt-group verb-${verb}`, role: "group", "aria-label": heading || actionLabel(actions[0]) }, heading ? h("h3", {}, heading) : null);
    const buttons = h("div", { class: "tt-buttons" });
    if (verb === "bid" && actions.every((a) => /^bid \d+$/.test(a))) {
      const numbers = actions.map((a) => Number(splitAction(a).arg));
      const top = Math.max(view.hand_size ?? 0, ...numbers);
      for (let n = 0; n <= top; n += 1) {
        const text = `bid ${n}`;
        const ok = numbers.includes(n);
        buttons.append(
          h(
            "button",
            {
              type: "button",
              class: ok ? "tt-act" : "tt-act forbidden",
              "aria-label": ok ? `bid ${n}` : `bid ${n} (not allowed now: press to see why)`,
              dataset: { action: text },
              onclick: () => ctx.onAct(text),
            },
            String(n),
          ),
        );
      }
      const hook = present?.panel?.hook ?? null;
      box.append(buttons);
      if (hook && hook.forbidden !== null && hook.forbidden !== undefined) {
        box.append(h("p", { class: "tt-hook" }, `The hook: you may not bid ${hook.forbidden}: ${hook.reason}.`));
      } else if (hook && top + 1 > numbers.length) {
        box.append(h("p", { class: "tt-hook" }, `The hook: ${hook.reason}.`));
      }
      out.push(box);
      continue;
    }
    if (actions.length > 16) {
      const select = h("select", { "aria-label": verbHeading(verb) }, ...actions.map((a) => h("option", { value: a }, actionLabel(a))));
      buttons.append(select, h("button", { type: "button", class: "tt-act", onclick: () => ctx.onAct(select.value) }, "OK"));
    } else {
      for (const text of actions) {
        buttons.append(
          h("button", { type: "button", class: "tt-act", "aria-label": actionAria(text), dataset: { action: text }, onclick: () => ctx.onAct(text) }, actionLabel(text)),
        );
      }
    }
    box.append(buttons);
    out.push(box);
  }
  return out;
}

/** The seat's hand: legal cards highlighted; touching any card tries it (the server
 * answers an illegal one with the rule that forbids it). */
export function renderHand(ctx) {
  const { view } = ctx;
  if (!view || ctx.seat === null || ctx.seat === undefined) return [];
  if (!view.hand) {
    const count = view.cards_in_hand ?? 0;
    if (!count) return [];
    const backs = h("div", { class: "tt-hand-cards blind", "aria-label": "your cards, face down" });
    for (let i = 0; i < count; i += 1) backs.append(h("span", { class: "tt-card back" }, cardSvg(null, { back: true })));
    return [h("p", { class: "tt-note" }, "You may not look at your cards yet."), backs];
  }
  const { cardVerbs } = groupActions(view.legal_actions ?? [], view.hand);
  const verb = cardVerbs.size ? [...cardVerbs.keys()][0] : null;
  const legal = verb ? cardVerbs.get(verb) : new Set();
  const myTurn = (view.legal_actions ?? []).length > 0;
  const received = new Set();
  const pip = view.extra?.pluck_in_progress;
  if (pip && pip.pluckee === ctx.seat && pip.given) received.add(pip.given.toUpperCase());
  const row = h("div", { class: "tt-hand-cards", role: "group", "aria-label": "your hand" });
  for (const code of sortHand(view.hand, trumpLetter(view, ctx.present))) {
    const upper = code.toUpperCase();
    const ok = legal.has(upper);
    const tryVerb = verb ?? (view.phase === "playing" ? "play" : null);
    const cls = ["tt-card", ok ? "legal" : myTurn && verb ? "dim" : "", received.has(upper) ? "received" : ""].join(" ").trim();
    const label = `${cardName(code)}${ok ? `, ${verb.replace(/_/g, " ")}` : ""}${received.has(upper) ? ", just received" : ""}`;
    row.append(
      h(
        "button",
        {
          type: "button",
          class: cls,
          "aria-label": label,
          dataset: ok ? { card: upper, action: `${verb} ${upper}` } : { card: upper },
          onclick: () => {
            if (tryVerb) ctx.onAct(`${tryVerb} ${upper}`);
            else ctx.onNote("It is not your turn to choose a card.");
          },
        },
        cardSvg(code, { fourColour: ctx.fourColour }),
      ),
    );
  }
  const out = [row];
  if (verb && verb !== "play") out.unshift(h("p", { class: "tt-note" }, `${verbHeading(verb)}: touch a highlighted card.`));
  if (received.size) out.push(h("p", { class: "tt-note" }, `You received ${[...received].map(cardText).join(", ")}.`));
  return out;
}

/** The line that says who is connected, away, or replaced by a bot. */
export function renderPresence(table) {
  if (!table) return [];
  return (table.seats ?? []).map((info, i) =>
    h("span", { class: `tt-presence-item state-${info.state}` }, `${seatName(table, i)}: ${seatStateText(info)}`),
  );
}
