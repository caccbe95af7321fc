// @ts-check
// The page's hash router. Each route's module is imported when the route is first
// opened (dynamic import), so a module that fails to load breaks only its own route.
//
//   #/                       lobby.js       mountLobby(root)
//   #/join/ID?invite=CODE    invite.js      mountJoin(root, {tableId, invite})
//   #/invite/ID              invite.js      mountInvite(root, {tableId})
//   #/table/ID[?watch=1]     table.js       mountTable(root, {tableId, token, spectator})
//   #/replay[?r=RID]         replay.js      mountReplay(root, {replayId})
//   #/replay/ID[?game=N][&review=SEAT]  replay.js  mountReplay(root, {tableId, game, review})
//   #/score[/ID][?view=KEY]  scorekeeper.js mountScorekeeper(root, {sheetId, view})
//   #/account                account.js     mountAccount(root)
//   #/player/NAME            player.js      mountPlayer(root, {name})
//   #/duplicate              duplicate.js   mountNewSet(root)
//   #/duplicate/ID           duplicate.js   mountDuplicate(root, {setId})
//   #/daily[/GAME]           duplicate.js   mountDaily(root, {game})
//   #/clubs                  club.js        mountClubs(root)
//   #/club/ID[?evening=E]    club.js        mountClub(root, {clubId, evening})
//   #/club-invite/CODE       club.js        mountClubInvite(root, {code})
//
// Every mount function returns a function that unmounts it (closes sockets, timers).

import { showAccountLink } from "./account-session.js";
import { seatToken } from "./api.js";
import { clear, el } from "./dom.js";

/**
 * A route: the hash's path pattern, the page's title, the module and how to mount it
 * (the module's mount function, given the pattern's groups and the query's parameters;
 * it answers the function that unmounts it).
 * @typedef {object} Route
 * @property {RegExp} pattern
 * @property {string} title
 * @property {string} module
 * @property {(mod: any, root: HTMLElement, args: (string | undefined)[], params: URLSearchParams) => unknown} mount
 */

/** @type {Route[]} */
const ROUTES = [
  {
    pattern: /^\/?$/,
    title: "Lobby",
    module: "./lobby.js",
    mount: (mod, root) => mod.mountLobby(root),
  },
  {
    pattern: /^\/join\/([^/]+)$/,
    title: "Join a table",
    module: "./invite.js",
    mount: (mod, root, [id], params) =>
      mod.mountJoin(root, { tableId: id, invite: params.get("invite") || "" }),
  },
  {
    pattern: /^\/invite\/([^/]+)$/,
    title: "Invite players",
    module: "./invite.js",
    mount: (mod, root, [id]) => mod.mountInvite(root, { tableId: id }),
  },
  {
    pattern: /^\/table\/([^/]+)$/,
    title: "Table",
    module: "./table.js",
    mount: (mod, root, [id = ""], params) => {
      const seat = params.get("watch") ? null : seatToken(id);
      return mod.mountTable(root, {
        tableId: id,
        token: seat ? seat.token : null,
        spectator: !seat,
      });
    },
  },
  {
    pattern: /^\/replay(?:\/([^/]+))?$/,
    title: "Replay",
    module: "./replay.js",
    mount: (mod, root, [id], params) =>
      mod.mountReplay(root, {
        tableId: id || null,
        game: params.get("game") ? Number(params.get("game")) : null,
        replayId: params.get("r"),
        review: params.get("review") ? Number(params.get("review")) : null,
      }),
  },
  {
    pattern: /^\/score(?:\/([^/]+))?$/,
    title: "Score sheet",
    module: "./scorekeeper.js",
    mount: (mod, root, [id], params) =>
      mod.mountScorekeeper(root, { sheetId: id || null, view: params.get("view") }),
  },
  {
    pattern: /^\/account$/,
    title: "Your account",
    module: "./account.js",
    mount: (mod, root) => mod.mountAccount(root),
  },
  {
    pattern: /^\/player\/([^/]+)$/,
    title: "Player",
    module: "./player.js",
    mount: (mod, root, [name = ""]) => mod.mountPlayer(root, { name }),
  },
  {
    pattern: /^\/duplicate$/,
    title: "A duplicate evening",
    module: "./duplicate.js",
    mount: (mod, root) => mod.mountNewSet(root),
  },
  {
    pattern: /^\/duplicate\/([^/]+)$/,
    title: "Duplicate set",
    module: "./duplicate.js",
    mount: (mod, root, [id]) => mod.mountDuplicate(root, { setId: id }),
  },
  {
    pattern: /^\/daily(?:\/([^/]+))?$/,
    title: "Daily challenge",
    module: "./duplicate.js",
    mount: (mod, root, [game]) => mod.mountDaily(root, { game: game || null }),
  },
  {
    pattern: /^\/clubs$/,
    title: "Clubs",
    module: "./club.js",
    mount: (mod, root) => mod.mountClubs(root),
  },
  {
    pattern: /^\/club\/([^/]+)$/,
    title: "Club",
    module: "./club.js",
    mount: (mod, root, [id = ""], params) => mod.mountClub(root, { clubId: id, evening: params.get("evening") }),
  },
  {
    pattern: /^\/club-invite\/([^/]+)$/,
    title: "Club invitation",
    module: "./club.js",
    mount: (mod, root, [code = ""]) => mod.mountClubInvite(root, { code }),
  },
];

/** @type {(() => void) | null} */
let unmount = null;
let generation = 0;

/**
 * The route of a hash: {route, args, params}, or null.
 * @param {string} hash
 * @returns {{route: Route, args: (string | undefined)[], params: URLSearchParams} | null}
 */
export function match(hash) {
  const text = hash.replace(/^#/, "") || "/";
  const [path, query = ""] = text.split("?", 2);
  for (const route of ROUTES) {
    const found = route.pattern.exec(path);
    if (found) {
      const args = found.slice(1).map((part) => (part ? decodeURIComponent(part) : part));
      return { route, args, params: new URLSearchParams(query) };
    }
  }
  return null;
}

/**
 * @param {HTMLElement} root
 * @param {string} title
 * @param {string} detail
 */
function failure(root, title, detail) {
  clear(root).append(
    el(
      "section",
      { class: "panel error-panel", role: "alert" },
      el("h1", {}, title),
      el("p", {}, detail),
      el("p", {}, el("a", { href: "#/" }, "Back to the lobby")),
    ),
  );
}

/**
 * Show the page of the address's hash. `moved`: the reader went there from another page
 * of this one (a link, Back), so the keyboard's focus and a screen reader are taken to
 * the new page's content unless it put the focus somewhere itself.
 * @param {boolean} [moved]
 */
async function show(moved = false) {
  const root = document.getElementById("main");
  if (!root) return;
  if (!location.hash.startsWith("#/") && location.hash !== "") return; // an in-page anchor
  const mine = (generation += 1);
  if (unmount) {
    try {
      unmount();
    } catch (error) {
      console.warn("unmount failed", error);
    }
    unmount = null;
  }
  clear(root);
  const found = match(location.hash);
  if (!found) {
    failure(root, "No such page", `Nothing lives at ${location.hash}.`);
    return;
  }
  document.title = `${found.route.title} · tricktaker`;
  root.append(el("p", { class: "loading" }, "Loading…"));
  let mod;
  try {
    mod = await import(found.route.module);
  } catch (error) {
    if (mine !== generation) return;
    failure(root, "This part of the page could not be loaded", String(error));
    return;
  }
  if (mine !== generation) return;
  clear(root);
  try {
    const result = await found.route.mount(mod, root, found.args, found.params);
    if (mine !== generation) {
      if (typeof result === "function") result();
      return;
    }
    unmount = typeof result === "function" ? /** @type {() => void} */ (result) : null;
    if (moved) focusPage(root);
  } catch (error) {
    if (mine !== generation) return;
    failure(root, "Something went wrong", error instanceof Error ? error.message : String(error));
  }
}

/**
 * Take the focus to the new page (its first heading, else the page itself), unless the
 * page put it somewhere in itself: otherwise it stays on the link that led away, which
 * no longer exists, and a screen reader says nothing of the new page.
 * @param {HTMLElement} root
 */
function focusPage(root) {
  const active = document.activeElement;
  if (active && active !== document.body && root.contains(active)) return;
  const heading = root.querySelector("h1");
  if (heading instanceof HTMLElement) {
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  } else {
    root.focus({ preventScroll: true });
  }
}

window.addEventListener("hashchange", () => {
  show(true);
  showAccountLink(); // signed in: keeps in the account a seat or sheet gained meanwhile
});
showAccountLink(); // the header's "Log in", or the signed-in user's name
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => show());
} else {
  show();
}
