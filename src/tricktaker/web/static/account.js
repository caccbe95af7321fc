// @ts-check
// The account page (#/account): log in or sign up (guests are welcome without one), and
// once signed in, the tables and sheets kept in the account, this browser's and the
// others' sessions with a button to revoke each, sign out the other devices, log out and
// log out everywhere, change the password and delete the account (account-manage.js;
// docs/accounts.md). The server decides everything; the page shows it.

import { ApiError, api, errorText } from "./api.js";
import { deletePanel, field, passwordPanel } from "./account-manage.js";
import { currentAccount, heldCount, heldTokens, showAccountLink } from "./account-session.js";
import { append, clear, el, toast } from "./dom.js";

const NAME_RULE =
  "3 to 32 characters: letters A to Z, digits, and . _ - between them. Ann and ann are one name.";
const PASSWORD_RULE = "At least 8 characters.";

/** The account page's styles (account.css), added to the page once. */
function accountStyles() {
  if (!document.querySelector("link[data-tricktaker-account]")) {
    const href = new URL("./account.css", import.meta.url).href;
    document.head.append(el("link", { rel: "stylesheet", href, "data-tricktaker-account": "" }));
  }
}

/**
 * A date and time as a person reads it, in this browser's language.
 * @param {string} stamp ISO 8601
 */
function when(stamp) {
  const date = new Date(stamp);
  return Number.isNaN(date.getTime())
    ? stamp
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * A browser's user agent, shortened to what a person recognises ("Chrome on Linux").
 * @param {string} agent
 */
export function browserName(agent) {
  if (!agent) return "Unknown browser";
  const browser =
    /Edg\//.test(agent) ? "Edge"
    : /Firefox\//.test(agent) ? "Firefox"
    : /Chrom(e|ium)\//.test(agent) ? "Chrome"
    : /Safari\//.test(agent) ? "Safari"
    : agent.split(/[\s/]/)[0] || "Browser";
  const system =
    /Android/.test(agent) ? "Android"
    : /iPhone|iPad/.test(agent) ? "iOS"
    : /Windows/.test(agent) ? "Windows"
    : /Mac OS X/.test(agent) ? "macOS"
    : /Linux/.test(agent) ? "Linux"
    : "";
  return system ? `${browser} on ${system}` : browser;
}

/**
 * A log-in or sign-up form. `path` is its API route; on success `done` gets the answer.
 * @param {"login" | "signup"} kind
 * @param {(answer: any) => void} done
 */
export function credentialsForm(kind, done) {
  const signup = kind === "signup";
  const prefix = signup ? "signup" : "login";
  const name = field(
    `${prefix}-name`,
    "User name",
    { type: "text", autocomplete: "username", required: true, maxlength: 32, spellcheck: "false", autocapitalize: "none" },
    signup ? NAME_RULE : "",
  );
  const password = field(
    `${prefix}-password`,
    "Password",
    { type: "password", autocomplete: signup ? "new-password" : "current-password", required: true, maxlength: 256 },
    signup ? PASSWORD_RULE : "",
  );
  const failure = el("p", { class: "form-error", role: "alert", id: `${prefix}-error` });
  const submit = el("button", { type: "submit", class: "primary" }, signup ? "Sign up" : "Log in");
  const form = el(
    "form",
    { class: "account-form", "aria-labelledby": `${prefix}-title`, novalidate: true },
    name.box,
    password.box,
    failure,
    submit,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const part of [name, password]) {
      part.error.hidden = true;
      part.error.textContent = "";
      part.input.removeAttribute("aria-invalid");
    }
    failure.textContent = "";
    submit.disabled = true;
    try {
      const answer = await api(`/api/${kind}`, {
        method: "POST",
        body: { name: name.input.value.trim(), password: password.input.value, claim: heldTokens() },
      });
      password.input.value = "";
      done(answer);
    } catch (error) {
      const at = error instanceof ApiError ? error.field : null;
      const part = at === "name" ? name : at === "password" ? password : null;
      if (part) {
        part.error.textContent = errorText(error);
        part.error.hidden = false;
        part.input.setAttribute("aria-invalid", "true");
        part.input.focus();
      }
      failure.textContent = errorText(error);
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

/**
 * The page for a guest: what an account is for, and the two forms.
 * @param {HTMLElement} root
 * @param {() => void} redraw
 */
function guestPage(root, redraw) {
  const held = heldCount();
  const keeps =
    held.tables || held.sheets
      ? `This browser holds ${held.tables} table${held.tables === 1 ? "" : "s"} and ${held.sheets} score sheet${held.sheets === 1 ? "" : "s"}: signing up or logging in here keeps them in your account.`
      : null;
  /** @param {any} answer */
  const signedIn = (answer) => {
    toast(`Signed in as ${answer.user.name}.`);
    redraw();
  };
  append(
    root,
    el("h1", { class: "page-title" }, "Your account"),
    el(
      "p",
      { class: "account-intro" },
      "An account keeps your games, score sheets and statistics, on every browser you log in from. ",
      "You do not need one to play: guests are welcome, as always.",
    ),
    keeps ? el("p", { class: "help", id: "account-keeps" }, keeps) : null,
    el(
      "div",
      { class: "account-forms" },
      el("section", { class: "panel" }, el("h2", { id: "login-title" }, "Log in"), credentialsForm("login", signedIn)),
      el("section", { class: "panel" }, el("h2", { id: "signup-title" }, "Sign up"), credentialsForm("signup", signedIn)),
    ),
  );
}

/**
 * The page of a signed-in user: what the account holds, the sessions, log out.
 * @param {HTMLElement} root
 * @param {any} me GET /api/me's answer
 * @param {() => void} redraw
 */
async function userPage(root, me, redraw) {
  const status = el("p", { class: "account-status", role: "status", "aria-live": "polite" });
  const sessionsBox = el("div", { id: "account-sessions" }, el("p", { class: "loading" }, "Loading…"));

  /** @param {string} method @param {string} path @param {string | ((answer: any) => string)} said */
  async function act(method, path, said) {
    try {
      const answer = await api(path, { method });
      toast(typeof said === "string" ? said : said(answer));
      redraw();
    } catch (error) {
      status.textContent = errorText(error);
    }
  }

  const tables = me.tables.map((/** @type {{id: string, seats: number[], host: boolean}} */ table) =>
    el(
      "li",
      {},
      el("a", { href: `#/replay/${encodeURIComponent(table.id)}` }, `Table ${table.id}`),
      " ",
      el(
        "span",
        { class: "help" },
        [table.seats.length ? `seat ${table.seats.map((s) => s + 1).join(", ")}` : null, table.host ? "you made it" : null]
          .filter(Boolean)
          .join("; "),
      ),
    ),
  );
  const sheets = me.sheets.map((/** @type {{id: string}} */ sheet) =>
    el("li", {}, el("a", { href: `#/score/${encodeURIComponent(sheet.id)}` }, `Sheet ${sheet.id}`)),
  );

  append(
    root,
    el("h1", { class: "page-title" }, `Signed in as ${me.user.name}`),
    status,
    el(
      "section",
      { class: "panel", "aria-labelledby": "account-held-title" },
      el("h2", { id: "account-held-title" }, "Kept in your account"),
      el(
        "p",
        {},
        el("a", { id: "account-player-page", href: `#/player/${encodeURIComponent(me.user.name)}` }, "Your player page"),
        ": your statistics and ratings, and who may see them (What you share).",
      ),
      el("p", {}, `${tables.length} table${tables.length === 1 ? "" : "s"} and ${sheets.length} score sheet${sheets.length === 1 ? "" : "s"}.`),
      tables.length ? el("ul", { class: "account-list", "aria-label": "Tables" }, tables) : null,
      sheets.length ? el("ul", { class: "account-list", "aria-label": "Score sheets" }, sheets) : null,
    ),
    el(
      "section",
      { class: "panel", "aria-labelledby": "account-sessions-title" },
      el("h2", { id: "account-sessions-title" }, "Where you are signed in"),
      el("p", { class: "help" }, "Revoke a browser you no longer use, or one that is not yours: it is signed out at once."),
      sessionsBox,
      el(
        "div",
        { class: "row account-buttons" },
        el(
          "button",
          {
            type: "button",
            id: "account-logout-others",
            onclick: () =>
              act("DELETE", "/api/me/sessions/others", (answer) =>
                answer.ended
                  ? `Signed out ${answer.ended} other device${answer.ended === 1 ? "" : "s"}.`
                  : "No other device was signed in.",
              ),
          },
          "Sign out other devices",
        ),
        el("button", { type: "button", id: "account-logout", onclick: () => act("POST", "/api/logout", "Logged out.") }, "Log out"),
        el(
          "button",
          {
            type: "button",
            id: "account-logout-all",
            onclick: () => act("DELETE", "/api/me/sessions", "Logged out everywhere."),
          },
          "Log out everywhere",
        ),
      ),
    ),
    passwordPanel(me, redraw),
    deletePanel(me, redraw),
  );

  try {
    const { sessions } = await api("/api/me/sessions");
    clear(sessionsBox).append(
      el(
        "ul",
        { class: "account-sessions", "aria-label": "Sessions" },
        sessions.map((/** @type {any} */ session) => {
          const name = browserName(session.user_agent);
          return el(
            "li",
            { class: session.current ? "current" : null },
            el(
              "div",
              { class: "session-text" },
              el("strong", {}, name),
              session.current ? el("span", { class: "badge" }, "This browser") : null,
              el("span", { class: "help" }, `Signed in ${when(session.created_at)} · last seen ${when(session.last_seen_at)}`),
            ),
            el(
              "button",
              {
                type: "button",
                class: "small",
                "aria-label": `Revoke ${name}${session.current ? " (this browser)" : ""}, last seen ${when(session.last_seen_at)}`,
                onclick: () =>
                  act("DELETE", `/api/me/sessions/${encodeURIComponent(session.id)}`, session.current ? "Logged out." : `Revoked ${name}.`),
              },
              "Revoke",
            ),
          );
        }),
      ),
    );
  } catch (error) {
    clear(sessionsBox).append(el("p", { class: "form-error", role: "alert" }, errorText(error)));
  }
}

/**
 * Mount the account page in `root`.
 * @param {HTMLElement} root
 * @returns {Promise<() => void>}
 */
export async function mountAccount(root) {
  accountStyles();
  let alive = true;
  /** Draw the page again (after a log-in, log-out or revoke: the focus goes to its title). */
  const redraw = () => draw(true);
  /** @param {boolean} moved */
  async function draw(moved) {
    const me = await currentAccount();
    if (!alive) return;
    clear(root);
    showAccountLink(me);
    if (me) await userPage(root, me, redraw);
    else guestPage(root, redraw);
    const heading = root.querySelector("h1");
    if (moved && heading instanceof HTMLElement) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
  }
  await draw(false);
  return () => {
    alive = false;
  };
}
