// The review of your hands and the hint, beside the table of app.js.
//
// A review replays the saved match (localStorage `reversis.save`, its game record) and stops just
// before each of seat 0's decisions of a finished hand, where it takes seat 0's observation
// (OBS-1): only what you saw then, never the other hands. Each observation goes to a worker of
// its own (worker.js, message type "evaluate"), which answers with what the search player would
// have chosen in your place and the expected points of each candidate, measured on the same
// layouts of the hidden cards. The hint asks the same for your current observation.
//
// Nothing here reads app.js's state: what it needs of the page it reads from the save and from
// the attributes app.js keeps on <body> (data-phase, data-hand-number, data-actions, data-busy).
import { SAVE_KEY } from "./common.js";
import * as reversis from "./js/src/index.js";

const HINT_KEY = "reversis.hint";
/** The search's playouts per card of a review and a hint, the search player's default (a pass
 *  gets four times as many, as in the search player), so that its choice is what the table's
 *  search opponents would play: a 13-trick hearts-computer hand is reviewed in about a second in
 *  Chromium here, within the 2 s goal (benches/test_bench_browser.py, web/README.md). */
export const REVIEW_PLAYOUTS = 4000;
/** The longest the replay runs before it lets the page draw (the page must never freeze 100 ms). */
const SLICE_MS = 25;
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const DECISIONS = new Set(["pass", "play", "moon"]);

const $ = (id) => document.getElementById(id);
const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

// The record and the match ---------------------------------------------------------------------

/** The saved match's game record, or null when there is none to read. */
export function savedRecord() {
  let text = null;
  try {
    text = window.localStorage.getItem(SAVE_KEY);
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const data = JSON.parse(text);
    return typeof data.record === "string" ? reversis.loadRecord(new TextEncoder().encode(data.record)) : null;
  } catch {
    return null;
  }
}

/**
 * Replays `record` action by action and gives seat 0's decisions, each with seat 0's
 * observation taken just before it: `{index, hand, phase, observation, action}`. Stops after
 * hand `lastHand` (every hand when null). Yields to the page every SLICE_MS. Also returns the
 * game as the replay left it.
 */
export async function seatZeroDecisions(record, lastHand = null) {
  // The replay starts where the record starts; a seeded game deals each hand itself, so the
  // record's deals are skipped where the game has dealt already.
  const game = reversis.Game.fromRecord({ ...record, actions: [] });
  const decisions = [];
  let slice = performance.now();
  try {
    for (const [index, action] of record.actions.entries()) {
      if (lastHand !== null && Number(game.handNumber) > lastHand) break;
      if (action.type === "deal" && game.phase !== "deal") continue;
      if (action.seat === 0 && DECISIONS.has(action.type)) {
        decisions.push({
          index,
          hand: Number(game.handNumber),
          phase: game.phase,
          observation: game.observation(0),
          action,
        });
      }
      game.apply(action);
      if (performance.now() - slice > SLICE_MS) {
        await pause();
        slice = performance.now();
      }
    }
    return { decisions, observation: game.observation(0), actions: record.actions.length };
  } finally {
    game.free();
  }
}

// The worker ---------------------------------------------------------------------------------

let worker = null;
let ready = null;
const waiting = new Map();
let nextId = 1;

function startWorker() {
  if (worker) return ready;
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  ready = new Promise((resolve, reject) => {
    worker.addEventListener("message", ({ data }) => {
      if (data.type === "ready") resolve();
      else if (data.type === "failed") reject(new Error(data.message));
      else {
        const request = waiting.get(data.id);
        waiting.delete(data.id);
        if (!request) return;
        if (data.type === "evaluation") request.resolve(data.evaluation);
        else request.reject(new Error(data.message));
      }
    });
    worker.addEventListener("error", (event) => reject(new Error(event.message || "the worker could not start")));
  });
  return ready;
}

/** The worker's evaluation of seat 0's decision from its observation alone. */
export async function evaluate(ruleset, observation, { seed, playouts = REVIEW_PLAYOUTS, action = null }) {
  await startWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ type: "evaluate", id, ruleset, observation, seed, playouts, action });
  });
}

/**
 * The review of hand `hand` of `record`: one row per decision of seat 0, in order, each
 * `{index, phase, action, evaluation}`; `onRow` is called as each comes.
 */
export async function reviewHand(record, hand, { playouts = REVIEW_PLAYOUTS, onRow = () => {} } = {}) {
  const { decisions } = await seatZeroDecisions(record, hand);
  const rows = [];
  for (const [k, d] of decisions.filter((d) => d.hand === hand).entries()) {
    // A seed per decision, so that a review of the same hand reads the same again.
    const seed = hand * 1000 + k;
    const evaluation = await evaluate(record.ruleset, d.observation, { seed, playouts, action: d.action });
    const row = { index: d.index, phase: d.phase, action: d.action, evaluation };
    rows.push(row);
    onRow(row);
  }
  return rows;
}

// Words ----------------------------------------------------------------------------------------

function cardFace(card) {
  return (card[0] === "T" ? "10" : card[0]) + SUIT_SYMBOLS[card[1]];
}

function actionText(action) {
  if (action.type === "play") return cardFace(action.card);
  if (action.type === "pass") return `pass ${[...action.cards].sort().map(cardFace).join(" ")}`;
  if (action.type === "moon") return action.choice === "add-to-others" ? "add to the others" : "subtract from yourself";
  return action.type;
}

function sameAction(a, b) {
  if (a.type !== b.type) return false;
  if (a.type === "play") return a.card === b.card;
  if (a.type === "moon") return a.choice === b.choice;
  if (a.type === "pass") return [...a.cards].sort().join() === [...b.cards].sort().join();
  return false;
}

/** The estimate of `action` among an evaluation's, or null. */
function estimateOf(evaluation, action) {
  return evaluation.estimates.find((e) => sameAction(e.action, action)) ?? null;
}

const points = (estimate) => (estimate ? estimate.points.toFixed(1) : "–");

// The page -------------------------------------------------------------------------------------

const STYLE = `
.review-section table { border-collapse: collapse; width: 100%; }
.review-section th, .review-section td { padding: 0.15rem 0.4rem; text-align: left; }
.review-section tr.differs td { font-weight: bold; }
.review-section .hands { display: flex; flex-wrap: wrap; gap: 0.3rem; }
.review-section label { display: flex; gap: 0.4rem; align-items: center; }
.hand button.card.hint { outline: 3px dashed #c80; outline-offset: 2px; }
`;

const page = { generation: 0, hand: null, hint: null, shownHand: null };

function hintOn() {
  try {
    return window.localStorage.getItem(HINT_KEY) === "on";
  } catch {
    return false;
  }
}

function setHint(on) {
  try {
    if (on) window.localStorage.setItem(HINT_KEY, "on");
    else window.localStorage.removeItem(HINT_KEY);
  } catch {
    // A browser without storage keeps the setting for this page only.
  }
  page.hintSetting = on;
  refresh();
}

function button(label, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.addEventListener("click", onClick);
  return element;
}

/** The hands of the match that have ended, from the page's attributes and the save. */
function finishedHands() {
  const body = document.body.dataset;
  if (body.handNumber === undefined) return [];
  const current = Number(body.handNumber);
  const last = body.phase === "over" ? current : current - 1;
  const first = page.firstHand ?? 0;
  const hands = [];
  for (let hand = first; hand <= last; hand++) hands.push(hand);
  return hands;
}

function refresh() {
  const section = $("review");
  if (!section || document.body.dataset.phase === undefined) return;
  section.hidden = false;
  const hands = finishedHands();
  const list = $("review-hands");
  const key = hands.join();
  if (list.dataset.hands !== key) {
    list.dataset.hands = key;
    list.replaceChildren();
    for (const hand of hands) {
      const latest = hand === hands[hands.length - 1];
      const label = latest ? `Review this hand (hand ${hand + 1})` : `Hand ${hand + 1}`;
      const element = button(label, () => showReview(hand));
      element.dataset.reviewHand = String(hand);
      list.append(element);
    }
    $("review-none").hidden = hands.length > 0;
  }
  $("hint-setting").checked = page.hintSetting;
  // The hint button shows during your turn to play: when the hand has cards you may press.
  const area = $("hint-area");
  const yourTurn = document.body.dataset.busy === "false" && document.querySelector("#hand button.card.legal") !== null;
  const show = page.hintSetting && yourTurn;
  area.hidden = !show;
  if (!show) return;
  if (!$("hint")) {
    area.replaceChildren(button("Hint", showHint));
    area.firstChild.id = "hint";
    const text = document.createElement("span");
    text.id = "hint-text";
    text.setAttribute("aria-live", "polite");
    area.append(text);
  }
  markHint();
}

function markHint() {
  const hint = page.hint;
  const current = hint && hint.actions === document.body.dataset.actions;
  for (const element of document.querySelectorAll("#hand button.card.hint")) {
    if (!current || element.dataset.card !== hint.card) {
      element.classList.remove("hint");
      delete element.dataset.hint;
    }
  }
  if (!current) {
    if ($("hint-text")) $("hint-text").textContent = "";
    return;
  }
  const element = document.querySelector(`#hand button.card[data-card="${hint.card}"]`);
  if (element && !element.classList.contains("hint")) {
    element.classList.add("hint");
    element.dataset.hint = "true";
  }
}

async function showHint() {
  const actions = document.body.dataset.actions;
  const text = $("hint-text");
  text.textContent = "Thinking…";
  try {
    const record = savedRecord();
    if (!record || String(record.actions.length) !== actions) throw new Error("the saved match is not this position");
    const { observation } = await seatZeroDecisions(record);
    if (observation.phase !== "play" || observation.to_move !== 0) throw new Error("it is not your turn");
    const evaluation = await evaluate(record.ruleset, observation, { seed: Number(actions), action: null });
    if (document.body.dataset.actions !== actions) return;
    const card = evaluation.choice.card;
    page.hint = { actions, card };
    text.textContent = `The search would play ${cardFace(card)} (about ${points(estimateOf(evaluation, evaluation.choice))} points for you this hand).`;
    markHint();
  } catch (error) {
    text.textContent = `No hint: ${error.message}.`;
  }
}

async function showReview(hand) {
  const generation = ++page.generation;
  const out = $("review-result");
  out.replaceChildren();
  // The state is on <body> too, where the page's tools (web/screenshot.py) wait for it.
  const state = (value) => {
    out.dataset.state = value;
    document.body.dataset.review = value;
  };
  state("running");
  out.dataset.hand = String(hand);
  const title = document.createElement("p");
  title.textContent = `Hand ${hand + 1}: your decisions beside the search player's, in the points each is expected to cost you this hand (lower is better), from what you knew then.`;
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const label of ["", "You", "Your points", "Search", "Search's points"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = label;
    if (!label) {
      const hidden = document.createElement("span");
      hidden.className = "visually-hidden";
      hidden.textContent = "Same as the search's choice?";
      th.append(hidden);
    }
    head.append(th);
  }
  const body = table.createTBody();
  const status = document.createElement("p");
  status.setAttribute("aria-live", "polite");
  status.textContent = "Reviewing…";
  out.append(title, table, status);
  let differ = 0;
  const record = savedRecord();
  try {
    if (!record) throw new Error("there is no saved match");
    await reviewHand(record, hand, {
      onRow: ({ index, phase, action, evaluation }) => {
        if (generation !== page.generation) return;
        const mine = estimateOf(evaluation, action);
        const chosen = estimateOf(evaluation, evaluation.choice);
        const same = sameAction(action, evaluation.choice);
        // Another card of the same worth (one no play can tell from the search's, or as good in
        // every layout measured) is no different choice.
        const equivalent = !same && mine && chosen && mine.points === chosen.points && mine.margin === chosen.margin;
        const differs = !same && !equivalent;
        if (differs) differ += 1;
        const row = body.insertRow();
        row.dataset.index = String(index);
        row.dataset.phase = phase;
        row.dataset.action = actionText(action);
        row.dataset.choice = actionText(evaluation.choice);
        row.dataset.differs = String(differs);
        if (differs) row.classList.add("differs");
        const cells = [
          differs ? "≠" : equivalent ? "≈" : "=",
          actionText(action),
          points(mine),
          actionText(evaluation.choice),
          points(chosen),
        ];
        for (const text of cells) row.insertCell().textContent = text;
        row.cells[0].title = differs
          ? "the search would have chosen otherwise"
          : equivalent
            ? "as good as the search's choice"
            : "the search's choice too";
      },
    });
    if (generation !== page.generation) return;
    status.textContent = `${body.rows.length} decisions; the search would have chosen otherwise in ${differ} (≠; ≈ marks a choice as good as the search's).`;
    state("done");
  } catch (error) {
    if (generation !== page.generation) return;
    status.textContent = `The review failed: ${error.message}.`;
    state("failed");
  }
}

/** Sets up the review section and the hint beside the table; app.js calls it once. */
export function startReview() {
  const section = $("review");
  if (!section) return;
  const style = document.createElement("style");
  style.textContent = STYLE;
  document.head.append(style);
  page.hintSetting = hintOn();
  $("hint-setting").addEventListener("change", (event) => setHint(event.target.checked));
  const record = savedRecord();
  page.firstHand = record ? Number(record.start?.hand_number ?? 0) : 0;
  let lastHand = null;
  // app.js redraws the table after every action and keeps its state on <body>: follow it.
  const observer = new MutationObserver(() => {
    if (document.body.dataset.handNumber !== lastHand) {
      lastHand = document.body.dataset.handNumber;
      // A new match may start from another hand: read where the record starts again.
      const saved = savedRecord();
      if (saved) page.firstHand = Number(saved.start?.hand_number ?? 0);
    }
    refresh();
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-phase", "data-hand-number", "data-actions", "data-busy"] });
  observer.observe($("hand"), { childList: true, subtree: true });
  refresh();
}
