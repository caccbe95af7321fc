// @ts-check
// The account page's parts that change the account itself (docs/accounts.md):
// change the password (the current one needed; every other device is signed
// out) and delete the account, with a clear confirmation (its password, and a box that
// says what goes and what stays). The server decides; the page shows what it says.

import { ApiError, api, errorText } from "./api.js";
import { el, toast } from "./dom.js";

const PASSWORD_RULE = "At least 8 characters.";

/**
 * A labelled input with its help line and its error line (read out when it changes).
 * @param {string} id
 * @param {string} label
 * @param {Record<string, any>} attrs
 * @param {string} help
 */
export function field(id, label, attrs, help) {
  const input = el("input", { id, name: id, "aria-describedby": `${id}-help ${id}-error`, ...attrs });
  const error = el("span", { class: "field-error", id: `${id}-error`, hidden: true });
  const box = el(
    "div",
    { class: "field account-field" },
    el("label", { for: id }, label),
    input,
    el("span", { class: "help", id: `${id}-help` }, help),
    error,
  );
  return { box, input, error };
}

/** @typedef {ReturnType<typeof field>} Field */

/**
 * Clear the fields' errors and the form's.
 * @param {Field[]} parts
 * @param {HTMLElement} failure
 */
function clearErrors(parts, failure) {
  for (const part of parts) {
    part.error.hidden = true;
    part.error.textContent = "";
    part.input.removeAttribute("aria-invalid");
  }
  failure.textContent = "";
}

/**
 * Show a refusal at the field it names (by the server's field name), and in the form.
 * @param {unknown} error
 * @param {Record<string, Field>} byName
 * @param {HTMLElement} failure
 */
function showError(error, byName, failure) {
  const at = error instanceof ApiError ? error.field : null;
  const part = at ? byName[at] : null;
  if (part) {
    part.error.textContent = errorText(error);
    part.error.hidden = false;
    part.input.setAttribute("aria-invalid", "true");
    part.input.focus();
  }
  failure.textContent = errorText(error);
}

/**
 * The password panel: the current password and the new one.
 * @param {any} me GET /api/me's answer
 * @param {() => void} redraw
 */
export function passwordPanel(me, redraw) {
  const current = field(
    "password-current",
    "Current password",
    { type: "password", autocomplete: "current-password", required: true, maxlength: 256 },
    "",
  );
  const fresh = field(
    "password-new",
    "New password",
    { type: "password", autocomplete: "new-password", required: true, maxlength: 256 },
    PASSWORD_RULE,
  );
  // A hidden user name, so that a password manager saves the new password for it.
  const user = el("input", {
    type: "text",
    autocomplete: "username",
    value: me.user.name,
    hidden: true,
    readonly: true,
    tabindex: -1,
    "aria-hidden": "true",
  });
  const failure = el("p", { class: "form-error", role: "alert", id: "password-error" });
  const submit = el("button", { type: "submit", class: "primary" }, "Change password");
  const form = el(
    "form",
    { class: "account-form", "aria-labelledby": "password-title", novalidate: true },
    user,
    current.box,
    fresh.box,
    failure,
    submit,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors([current, fresh], failure);
    submit.disabled = true;
    try {
      const answer = await api("/api/me/password", {
        method: "POST",
        body: { current_password: current.input.value, new_password: fresh.input.value },
      });
      current.input.value = "";
      fresh.input.value = "";
      const others = answer.ended;
      toast(
        others
          ? `Password changed. ${others} other device${others === 1 ? " was" : "s were"} signed out.`
          : "Password changed.",
      );
      redraw();
    } catch (error) {
      showError(error, { current_password: current, password: current, new_password: fresh }, failure);
    } finally {
      submit.disabled = false;
    }
  });
  return el(
    "section",
    { class: "panel", "aria-labelledby": "password-title" },
    el("h2", { id: "password-title" }, "Password"),
    el("p", { class: "help" }, "Changing it signs out every other device where you are signed in; this one stays signed in."),
    form,
  );
}

/**
 * The panel that deletes the account: what goes, what stays, the clubs to hand over
 * first, and the confirmation (the password and a box to tick).
 * @param {any} me GET /api/me's answer
 * @param {() => void} redraw
 */
export function deletePanel(me, redraw) {
  /** @type {{id: string, name: string}[]} */
  const handOver = me.hand_over || [];
  const password = field(
    "delete-password",
    "Your password",
    { type: "password", autocomplete: "current-password", required: true, maxlength: 256 },
    "",
  );
  const sure = el("input", { type: "checkbox", id: "delete-sure", required: true });
  const failure = el("p", { class: "form-error", role: "alert", id: "delete-error" });
  const submit = el("button", { type: "submit", class: "danger", id: "delete-account", disabled: true }, "Delete my account");
  const ready = () => {
    submit.disabled = !(sure instanceof HTMLInputElement && sure.checked) || handOver.length > 0;
  };
  sure.addEventListener("change", ready);
  const form = el(
    "form",
    { class: "account-form", "aria-labelledby": "delete-title", novalidate: true },
    password.box,
    el(
      "div",
      { class: "account-check" },
      sure,
      el("label", { for: "delete-sure" }, `I understand: the account ${me.user.name} is deleted for good, and cannot be brought back.`),
    ),
    failure,
    submit,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors([password], failure);
    if (submit.disabled) return;
    submit.disabled = true;
    try {
      await api("/api/me", { method: "DELETE", body: { password: password.input.value } });
      password.input.value = "";
      toast("Your account is deleted. You can go on playing as a guest.");
      location.hash = "#/account";
      redraw();
    } catch (error) {
      showError(error, { password }, failure);
      ready();
    }
  });
  const clubs = handOver.length
    ? el(
        "div",
        { class: "account-warning", role: "note", id: "delete-hand-over" },
        el("strong", {}, "Hand your clubs over first. "),
        `You are the only organiser of ${handOver.length === 1 ? "this club" : "these clubs"}: make another member an organiser, then come back.`,
        el(
          "ul",
          { class: "account-list" },
          handOver.map((club) => el("li", {}, el("a", { href: `#/club/${encodeURIComponent(club.id)}` }, club.name))),
        ),
      )
    : null;
  return el(
    "section",
    { class: "panel account-danger", "aria-labelledby": "delete-title" },
    el("h2", { id: "delete-title" }, "Delete your account"),
    el(
      "ul",
      { class: "account-list account-facts" },
      el("li", {}, "Goes: your name, your password, every signed-in device, your club memberships, and the list of tables and score sheets kept here. A club whose only member you are goes too."),
      el("li", {}, "Stays, without your name: the games you played and the clubs' results, so that the other players' scores, standings and ratings do not change. Your seats show as “deleted player”."),
      el("li", {}, "Your name is free again: someone else may take it. Your player's page is gone."),
    ),
    clubs,
    form,
  );
}
