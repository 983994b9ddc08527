// Windowed list of the stream's events: only the rows in view exist in the DOM, so a
// 100,000-event stream scrolls as fast as a short one.

import { h } from "./dom.js";

const ROW = 22; // px, must match .ev-row height in style.css

export class EventList {
  /**
   * @param {HTMLElement} viewport scrolling container
   * @param {(index: number) => void} onPick called with an event index when a row is clicked
   */
  constructor(viewport, onPick) {
    this.viewport = viewport;
    this.spacer = h("div", { class: "ev-spacer" });
    this.rows = h("div", { class: "ev-rows" });
    viewport.replaceChildren(this.spacer, this.rows);
    this.events = [];
    this.flags = new Map(); // index -> "issue" | "violation" | "both" | "rejected"
    this.step = 0;
    this.follow = false;
    this.pending = false;
    viewport.addEventListener("scroll", () => this.schedule());
    viewport.addEventListener("click", (e) => {
      const row = e.target instanceof Element ? e.target.closest("[data-index]") : null;
      if (row) onPick(Number(row.getAttribute("data-index")));
    });
  }

  setEvents(events) {
    this.events = events;
    this.flags = new Map();
    this.spacer.style.height = `${events.length * ROW}px`;
    this.viewport.scrollTop = 0;
    this.draw();
  }

  setFlags(flags) {
    this.flags = flags;
    this.schedule();
  }

  /** Marks the first `step` events as applied and keeps the current one in view. */
  setStep(step) {
    this.step = step;
    this.follow = true; // bring the current row into view at the next frame (no forced layout now)
    this.schedule();
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  draw() {
    const n = this.events.length;
    const height = this.viewport.clientHeight || 400;
    if (this.follow) {
      this.follow = false;
      const cur = this.step - 1;
      const top0 = this.viewport.scrollTop;
      if (cur >= 0 && (cur * ROW < top0 || (cur + 1) * ROW > top0 + height)) {
        this.viewport.scrollTop = Math.max(0, cur * ROW - height / 2);
      }
    }
    const top = this.viewport.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW) - 5);
    const last = Math.min(n, Math.ceil((top + height) / ROW) + 5);
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) frag.appendChild(this.row(i));
    this.rows.style.transform = `translateY(${first * ROW}px)`;
    this.rows.replaceChildren(frag);
  }

  row(i) {
    const ev = this.events[i];
    const flag = this.flags.get(i);
    const obj = ev !== null && typeof ev === "object" ? ev : {};
    const cls = typeof obj.eventClass === "string" ? obj.eventClass : typeof obj.type === "string" ? obj.type : "(no eventClass)";
    const status = typeof obj.status === "string" ? obj.status : "";
    const id = typeof obj.id === "string" ? obj.id : "(no id)";
    let state = i < this.step ? "applied" : "ahead";
    if (i === this.step - 1) state = "current";
    return h(
      "div",
      {
        class: `ev-row ev-${state}${flag ? " ev-flag-" + flag : ""}`,
        "data-index": i,
        "data-testid": "event-row",
        title: id,
      },
      h("span", { class: "ev-i", text: i + 1 }),
      h("span", { class: "ev-mark", text: flag ? (flag === "rejected" ? "✕" : "⚠") : "" }),
      h("span", { class: "ev-cls", text: cls }),
      h("span", { class: `ev-st st-${status.replace(/[^a-z_]/gi, "")}`, text: status }),
      h("span", { class: "ev-id", text: id })
    );
  }
}
