// @ts-check
// The live-play socket of one table (docs/protocol.md, "Live play: the WebSocket"):
// hello with the seat token and the last sequence number seen, reconnection with
// backoff after a drop (and at once when the browser comes back online or the page
// becomes visible again), keep-alive pings, and actions resent with their ids after a
// reconnect (the server applies a repeated id once). It asks for views as changes
// (protocol 1.1, "Views as changes") and hands every event on with its whole view, as
// protocol 1.0 sends it, so the page never sees the changes.

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const PING_MS = 25000;
const PONG_WAIT_MS = 5000;

/** @typedef {Record<string, any>} Json */

/** The view that an event's changes (protocol 1.1) make of the last view: a new object
 * (the last one is left as it was); the present block merges key by key, its seat
 * rows field by field when sent as an object.
 * @param {Json} last
 * @param {Json | undefined} delta
 * @param {string[] | undefined} removed
 * @returns {Json}
 */
export function applyChanges(last, delta, removed) {
  const view = { ...last };
  for (const key of removed ?? []) delete view[key];
  for (const [key, value] of Object.entries(delta ?? {})) {
    const held = view[key];
    if (key === "present" && held && typeof held === "object") {
      const block = { ...held };
      for (const [part, now] of Object.entries(value)) {
        if (part === "seats" && now && !Array.isArray(now) && Array.isArray(block.seats)) {
          const rows = [...block.seats];
          for (const [seat, fields] of Object.entries(now)) {
            rows[Number(seat)] = { ...rows[Number(seat)], ...fields };
          }
          block.seats = rows;
        } else {
          block[part] = now;
        }
      }
      view[key] = block;
    } else {
      view[key] = value;
    }
  }
  return view;
}

export class TableSocket {
  /**
   * tableId: the table; token: the seat token (null: watch as a spectator);
   * onMessage(message): every message from the server; onState(text): "connecting",
   * "open", "closed" (a drop; a reconnect follows), "stopped".
   * @param {string} tableId
   * @param {string | null} token
   * @param {(message: Json) => void} onMessage
   * @param {(state: string) => void} onState
   */
  constructor(tableId, token, onMessage, onState) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    /** @type {number | null} */
    this.lastSeq = null;
    this.attempt = 0;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    this.counter = 0;
    this.heard = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.aliveTimer = undefined;
    /** @type {Map<string, string>} */
    this.pending = new Map();
    this.deltas = true; // ask for views as changes until a server refuses (before 1.1)
    /** @type {Json | null} */
    this.lastView = null;
    this.greeted = false;
    this.wake = () => this.reconnectNow();
    this.visible = () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    };
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.visible);
    this.connect();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/tables/${encodeURIComponent(this.tableId)}/ws`;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.onState("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      this.greeted = false;
      this.hello();
      this.onState("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.checkAlive(), PING_MS);
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return;
      this.heard += 1;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!this.greeted && this.deltas && message.type === "error" && message.code === "bad_message") {
        // A server before protocol 1.1 refuses "deltas": say hello again without it.
        this.deltas = false;
        this.hello();
        return;
      }
      if (message.type === "welcome" || message.type === "resumed") this.greeted = true;
      if (message.type === "welcome") this.lastView = message.view ?? null;
      if (message.type === "event") {
        if (message.delta !== undefined && this.lastView) {
          const { delta, removed, ...rest } = message;
          message = { ...rest, view: applyChanges(this.lastView, delta, removed) };
        }
        if (message.view) this.lastView = message.view;
      }
      if (typeof message.seq === "number") this.lastSeq = Math.max(this.lastSeq ?? 0, message.seq);
      if (message.type === "welcome") {
        // Actions sent before a drop are sent again with the same ids: the server
        // applies each once and answers the same.
        for (const [id, action] of this.pending) this.raw({ type: "action", id, action });
      }
      if ((message.type === "ack" || message.type === "error") && message.id) {
        this.pending.delete(message.id);
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      clearInterval(this.pingTimer);
      this.socket = null;
      if (this.stopped) return;
      this.onState("closed");
      this.scheduleReconnect();
    });
  }

  hello() {
    /** @type {Json} */
    const hello = { type: "hello", v: 1, token: this.token, last_seq: this.lastSeq };
    if (this.deltas) hello.deltas = true;
    this.raw(hello);
  }

  scheduleReconnect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Reconnect at once if the socket is not open (back online, page visible); an
   * open one is asked for a pong, in case the network changed under it. */
  reconnectNow() {
    if (this.stopped) return;
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) {
      if (this.socket.readyState === WebSocket.OPEN) this.checkAlive();
      return;
    }
    this.attempt = 0;
    this.connect();
  }

  /** Ping; a socket that answers nothing within a few seconds is dead (a laptop woke
   * up, the phone moved from Wi-Fi to mobile data): drop it and connect again. */
  checkAlive() {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const heard = this.heard;
    this.raw({ type: "ping" });
    clearTimeout(this.aliveTimer);
    this.aliveTimer = setTimeout(() => {
      if (this.stopped || this.socket !== socket || this.heard !== heard) return;
      this.socket = null;
      clearInterval(this.pingTimer);
      try {
        socket.close();
      } catch {
        // already closing
      }
      this.onState("closed");
      this.attempt = 0;
      this.connect();
    }, PONG_WAIT_MS);
  }

  /** Watch as a spectator from now on (the seat token was refused). */
  dropToken() {
    this.token = null;
    this.pending.clear();
  }

  /**
   * Send a message now (answers false when the socket is not open).
   * @param {Json} message
   */
  raw(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /**
   * Send an action ("play QD"); answers its id. Sent again after a reconnect.
   * @param {string} action
   * @returns {string}
   */
  act(action) {
    this.counter += 1;
    const id = `c-${Date.now().toString(36)}-${this.counter}`;
    this.pending.set(id, action);
    this.raw({ type: "action", id, action });
    return id;
  }

  /**
   * Ask to take back this seat's last action (a practice table, protocol "undo"): the
   * server answers ack and a fresh welcome, or error not_allowed. Answers the id, or
   * null when the socket is not open.
   * @returns {string | null}
   */
  undo() {
    this.counter += 1;
    const id = `u-${Date.now().toString(36)}-${this.counter}`;
    return this.raw({ type: "undo", id }) ? id : null;
  }

  /**
   * Send a chat line.
   * @param {string} text
   */
  chat(text) {
    return this.raw({ type: "chat", text });
  }

  /** Close for good (the page unmounts). */
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.aliveTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.visible);
    if (this.socket) this.socket.close();
    this.socket = null;
    this.onState("stopped");
  }
}
