// The table of document 001 in a browser: you at seat 0, computer players in the other seats.
//
// The page keeps the whole game only to apply actions and to save it; everything it draws comes
// from seat 0's observation (OBS-1) and the public state of the match, so no hidden card ever
// reaches the page's text. The computer players run in worker.js and get one seat's observation.
import * as reversis from "./js/src/index.js";
import { startReview } from "./review.js";

const SAVE_KEY = "reversis.save";
const ASIDE_PREFIX = "reversis.save.unreadable.";
// A finished match is kept under a key of its own when the next one starts, as reversis play
// keeps save.json.finished-*: the result is the person's.
const FINISHED_PREFIX = "reversis.save.finished.";
const LOCK_NAME = "reversis.save";
const SAVE_FORMAT = "reversis-web-save";
const SAVE_VERSION = 1;
const DEFAULT_PRESET = "hearts-computer";
const OPPONENTS = { rules: "rule-based", random: "random", montecarlo: "Monte Carlo", search: "search" };
const DEFAULT_OPPONENTS = "rules";
// As `reversis play`: playouts per legal card of the Monte Carlo player.
const DEFAULT_ROLLOUTS = 100;
const MAX_SEED = (1n << 64n) - 1n;
const NAMES_4 = ["You", "West", "North", "East"];
const NAMES = ["You", "Ada", "Bram", "Cleo", "Dirk", "Eva", "Floor", "Gijs", "Hanna", "Ivo"];
const SUIT_ORDER = "CDSH";
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANKS = "23456789TJQKA";

// Milliseconds between computer cards, so that a person can follow them (`?pace=0` for none).
const PACE_MS = (() => {
  const asked = Number(new URLSearchParams(location.search).get("pace"));
  return Number.isFinite(asked) && asked >= 0 ? Math.min(asked, 5000) : 600;
})();

const $ = (id) => document.getElementById(id);

const table = {
  game: null,
  rules: null, // the ruleset's JSON object: public, and what the worker gets
  seed: null, // the match's seed, or null for a record made elsewhere without one
  start: null, // the hand number and totals the match started from (REC-1 start)
  settings: { opponents: DEFAULT_OPPONENTS, rollouts: DEFAULT_ROLLOUTS },
  opponentSeeds: [],
  counter: 0, // the save's version: one more on every write
  savedText: null, // what this tab last wrote or read, to notice another writer
  holdsLock: false,
  readOnly: null, // why this tab may not play or save, or null
  saveError: null,
  saveBlocked: false, // an unreadable save that could not be moved aside is in the way
  generation: 0, // one more per match started, so a late answer for an old match is dropped
  running: false,
  thinking: null, // the computer seat deciding now
  selection: [],
  pendingConfirm: null,
  keepHandFocus: false,
  workerDecisions: 0,
};

// Cards ---------------------------------------------------------------------------------------

function cardName(card) {
  return `${RANK_NAMES[card[0]] ?? card[0]} of ${SUIT_NAMES[card[1]]}`;
}

function cardFace(card) {
  return `${card[0] === "T" ? "10" : card[0]}${SUIT_SYMBOLS[card[1]]}`;
}

function cardNames(cards) {
  const names = cards.map(cardName);
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function sortCards(cards) {
  const key = (c) => SUIT_ORDER.indexOf(c[1]) * 13 + RANKS.indexOf(c[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

function cardElement(card, tag = "span") {
  const element = document.createElement(tag);
  element.className = `card suit-${card[1]}`;
  element.dataset.card = card;
  const face = document.createElement("span");
  face.className = "face";
  face.setAttribute("aria-hidden", "true");
  face.textContent = cardFace(card);
  const name = document.createElement("span");
  name.className = "visually-hidden";
  name.textContent = cardName(card);
  element.append(face, name);
  return element;
}

// Seats ---------------------------------------------------------------------------------------

function names() {
  const count = table.rules.players;
  const list = count === 4 ? NAMES_4 : NAMES;
  return Array.from({ length: count }, (_, s) => list[s] ?? `Seat ${s}`);
}

const seatName = (seat) => names()[seat];

/** Who passes to whom this hand, as the core says (PASS-1, PASS-3), or null: no pass. */
const passPlan = () => table.game.passPlan;

// Seeds ---------------------------------------------------------------------------------------

function randomSeed() {
  return crypto.getRandomValues(new BigUint64Array(1))[0];
}

function hasSeed() {
  return table.seed !== null;
}

function seedText() {
  return hasSeed() ? `seed ${table.seed}` : "no seed";
}

/** A computer seat's decision seed: its own seed and the decision's place in the match, so a
 *  resumed match decides exactly as it would have, and never from the shuffle seed. */
function decisionSeed(seat) {
  const base = BigInt(table.opponentSeeds[seat]);
  const index = BigInt(table.game.actions.length);
  return (base + index * 0x9e3779b97f4a7c15n) & MAX_SEED;
}

function parseSeed(text) {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || BigInt(trimmed) > MAX_SEED) return null;
  return BigInt(trimmed);
}

// Saving --------------------------------------------------------------------------------------

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage switched off for this site
  }
}

function timestamp() {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

function saveText() {
  const record = new TextDecoder().decode(reversis.dumpRecord(table.game.toRecord(), "json"));
  return reversis.stringifyJson({
    format: SAVE_FORMAT,
    version: SAVE_VERSION,
    counter: table.counter + 1,
    settings: table.settings,
    opponent_seeds: table.opponentSeeds,
    record,
  });
}

/** Save the match; a failure is reported at once. Whether it was saved. */
function save() {
  if (table.readOnly || table.saveBlocked) return false;
  const store = storage();
  if (!store) return reportSaveError("this browser does not allow this page to store anything");
  // The second guard after the lock: if the stored save is not what this tab last wrote or
  // read, another tab wrote it, and writing now would throw its match away.
  let current;
  try {
    current = store.getItem(SAVE_KEY);
  } catch (error) {
    return reportSaveError(error.message);
  }
  if (current !== null && current !== table.savedText) {
    becomeReadOnly("The saved match was changed in another tab, so this tab stopped saving to keep that match.");
    return false;
  }
  const text = saveText();
  try {
    store.setItem(SAVE_KEY, text);
  } catch (error) {
    return reportSaveError(error.message);
  }
  table.savedText = text;
  table.counter += 1;
  if (table.saveError) notice("Saved again.");
  table.saveError = null;
  return true;
}

function reportSaveError(message) {
  const again = hasSeed() ? ` Seed ${table.seed} deals it again.` : "";
  if (!table.saveError) showBanner(`The match cannot be saved in this browser: ${message}.${again}`);
  table.saveError = message;
  return false;
}

/** The saved match as {game, settings, opponentSeeds}, or throws with why it is not one. */
function readSave(text) {
  let data;
  try {
    data = reversis.parseJson(text);
  } catch (error) {
    throw new Error(`it is not JSON (${error.message})`);
  }
  if (!data || typeof data !== "object" || data.format !== SAVE_FORMAT) {
    throw new Error("it is not a saved match of this table");
  }
  if (data.version !== SAVE_VERSION) {
    throw new Error(`it is from another version of the table (version ${data.version})`);
  }
  if (typeof data.record !== "string") throw new Error("it holds no game record");
  let game;
  try {
    game = reversis.Game.fromRecord(reversis.loadRecord(new TextEncoder().encode(data.record)));
  } catch (error) {
    throw new Error(`its game record cannot be read (${error.message})`);
  }
  const players = game.ruleset.players;
  const settings = {
    opponents: OPPONENTS[data.settings?.opponents] ? data.settings.opponents : DEFAULT_OPPONENTS,
    rollouts: Number.isInteger(data.settings?.rollouts) && data.settings.rollouts > 0
      ? data.settings.rollouts
      : DEFAULT_ROLLOUTS,
  };
  // Seeds that are missing or not 64-bit integers are drawn afresh: the match itself is intact,
  // only the computer players' next choices differ from what they would have been.
  const seedOf = (value) => {
    try {
      const seed = BigInt(value);
      return seed >= 0n && seed <= MAX_SEED ? seed : randomSeed();
    } catch {
      return randomSeed();
    }
  };
  const saved = Array.isArray(data.opponent_seeds) && data.opponent_seeds.length === players ? data.opponent_seeds : [];
  const seeds = Array.from({ length: players }, (_, seat) => (seat === 0 ? null : seedOf(saved[seat])));
  return { game, settings, opponentSeeds: seeds, counter: Number.isInteger(data.counter) ? data.counter : 0 };
}

/** Play on from the save `text` (throws as readSave does, with nothing changed). */
function resumeSave(text, how) {
  const saved = readSave(text);
  table.savedText = text;
  table.counter = saved.counter;
  begin(saved.game, saved.settings, saved.opponentSeeds, how);
}

/** Keep an unreadable save under a key of its own, never overwriting it; the key, or null. */
function moveAside(text, prefix = ASIDE_PREFIX) {
  const store = storage();
  if (!store) return null;
  let key = prefix + timestamp();
  for (let n = 2; store.getItem(key) !== null; n++) key = `${prefix}${timestamp()}-${n}`;
  try {
    store.setItem(key, text);
    store.removeItem(SAVE_KEY);
  } catch {
    return null;
  }
  return key;
}

/** Hold the save's lock for as long as this tab lives: true, false (another tab has it), or
 *  null where the browser has no Web Locks (then only the version check guards the save). */
function acquireLock() {
  if (!navigator.locks) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.locks
      .request(LOCK_NAME, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock === null ? undefined : new Promise(() => {});
      })
      .catch(() => resolve(null));
  });
}

function becomeReadOnly(why) {
  table.readOnly = why;
  table.generation += 1; // an answer on its way must not be applied
  showBanner(why, true);
  render();
}

// Matches -------------------------------------------------------------------------------------

/** Make `game` the table's match, with what is read once per match. */
function adopt(game) {
  const record = game.toRecord();
  table.game = game;
  table.rules = game.ruleset.toJson();
  table.seed = game.seed;
  table.start = record.start ?? { hand_number: 0, scores: null };
}

function begin(game, settings, opponentSeeds, how) {
  adopt(game);
  table.settings = settings;
  table.opponentSeeds = opponentSeeds;
  table.generation += 1;
  table.selection = [];
  table.thinking = null;
  table.workerDecisions = 0;
  const opponents = OPPONENTS[settings.opponents];
  announce(`${how} match: ${table.rules.title}, ${seedText()}, ${opponents} computer players.`);
  if (game.phase !== "over") announce(dealText());
}

/** A new match of `rules` (a ruleset's JSON object: a preset's, or the current match's). */
function newMatch(rules, opponents, seed, how) {
  if (!keepFinished()) return;
  const game = new reversis.Game(reversis.Ruleset.fromJson(rules), { seed });
  const players = game.ruleset.players;
  // Fresh entropy for the computer players, never the shuffle seed (001: they know only their seat).
  const seeds = Array.from({ length: players }, (_, seat) => (seat === 0 ? null : randomSeed()));
  begin(game, { opponents, rollouts: DEFAULT_ROLLOUTS }, seeds, how);
  save();
  render();
  advance();
}

/** Before a new match: keep this tab's finished, saved match aside; whether the new one may start. */
function keepFinished() {
  const store = storage();
  if (table.readOnly || !table.game || table.game.phase !== "over" || !store) return true;
  if (table.savedText === null || store.getItem(SAVE_KEY) !== table.savedText) return true;
  const key = moveAside(table.savedText, FINISHED_PREFIX);
  if (key === null) {
    showBanner("The finished match could not be kept in this browser's storage, so no new match was dealt.");
    return false;
  }
  table.savedText = null;
  notice(`The finished match is kept in this browser under ${key}.`);
  return true;
}

/** Whether dropping the match loses the person's play: it is not over and seat 0 has acted. */
function inProgress() {
  const game = table.game;
  return game && game.phase !== "over" && game.actions.some((action) => action.seat === 0);
}

function requestNewMatch(rules, opponents, seed, how) {
  if (!inProgress()) {
    newMatch(rules, opponents, seed, how);
    return;
  }
  const game = table.game;
  $("confirm-text").textContent =
    `This abandons the match in progress (${seedText()}, hand ${Number(game.handNumber) + 1}, ` +
    `scores ${Array.from(game.scores).join(" ")}). It cannot be resumed afterwards` +
    `${hasSeed() ? ", though its seed deals it again" : ""}.`;
  table.pendingConfirm = () => newMatch(rules, opponents, seed, how);
  $("confirm").hidden = false;
  $("confirm-yes").focus();
}

function closeConfirm(focus) {
  $("confirm").hidden = true;
  table.pendingConfirm = null;
  if (focus) focus.focus();
}

// Acting --------------------------------------------------------------------------------------

/** Apply `action`, say what it did and set off, save, and draw the table again. */
function apply(action) {
  const game = table.game;
  const leading = game.trick.length === 0;
  game.apply(action);
  const seat = action.seat;
  const who = seatName(seat);
  if (action.type === "play") {
    const verb = seat === 0 ? (leading ? "lead" : "play") : leading ? "leads" : "plays";
    announce(`${who} ${verb} the ${cardName(action.card)}.`);
  } else if (action.type === "pass") {
    const plan = passPlan();
    const cards = cardNames(sortCards(action.cards));
    if (seat === 0) announce(`You pass the ${cards} ${plan.direction} to ${seatName(plan.to[0])}.`);
    else announce(`${who} has chosen ${action.cards.length} cards to pass.`);
  } else if (action.type === "moon") {
    const bonus = table.rules.moon.bonus;
    const whose = seat === 0 ? "your" : "their";
    const what = action.choice === "add-to-others"
      ? `add ${bonus} to every opponent`
      : `subtract ${bonus} from ${whose} own score`;
    announce(`${who} ${seat === 0 ? "choose" : "chooses"} to ${what}.`);
  }
  for (const event of Array.from(game.events)) announceEvent(event);
  save();
  render();
}

function announceEvent(event) {
  if (event.type === "trick") {
    if (event.winner === null) {
      announce(`Every card of the suit led cancelled: the trick is held over, and ${event.leader === 0 ? "you lead" : `${seatName(event.leader)} leads`} again.`);
      return;
    }
    const points = event.points ? ` (${event.points > 0 ? "+" : ""}${event.points})` : "";
    announce(`${event.winner === 0 ? "You take" : `${seatName(event.winner)} takes`} the trick${points}.`);
  } else if (event.type === "exchange") {
    const received = table.game.observation(0).received ?? [];
    const from = passPlan().from[0];
    announce(`Cards exchanged: you receive the ${cardNames(sortCards(received))} from ${seatName(from)}.`);
  } else if (event.type === "hand") {
    const scores = Array.from(event.scores);
    let text = `Hand ${Number(event.hand_number) + 1} is over. This hand: ${scoreList(scores)}.`;
    if (event.moon_taker !== null && event.moon_taker !== undefined) {
      text += ` ${event.moon_taker === 0 ? "You" : seatName(event.moon_taker)} took every point card and shot the moon!`;
    }
    announce(`${text} Totals: ${scoreList(Array.from(table.game.scores))}.`);
  } else if (event.type === "over") {
    announce(`The match is over. ${verdict(Array.from(event.winners))}`);
  } else if (event.type === "deal") {
    announce(dealText());
  }
}

function scoreList(values) {
  return values.map((v, seat) => `${seatName(seat)} ${v}`).join(", ");
}

function verdict(winners) {
  if (winners.length === 1 && winners[0] === 0) return "You win!";
  if (winners.includes(0)) return `You share the win with ${joinNames(winners.filter((s) => s !== 0))}!`;
  return `${joinNames(winners)} ${winners.length === 1 ? "wins" : "share the win"}.`;
}

function joinNames(seats) {
  const list = seats.map(seatName);
  return list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
}

function dealText() {
  const game = table.game;
  return `Hand ${Number(game.handNumber) + 1} is dealt: ${passText(true)}.`;
}

/** This hand's pass for seat 0: to come (`coming`), or done. */
function passText(coming) {
  const plan = passPlan();
  if (plan === null) return table.game.passDirection === null ? "no passing in this game" : "no passing this hand";
  const [to, from] = [seatName(plan.to[0]), seatName(plan.from[0])];
  return coming
    ? `pass ${plan.size} cards ${plan.direction} to ${to}`
    : `passed ${plan.direction}: to ${to}, from ${from}`;
}

/** What a count-down hand does to a total (MATCH-8), by the ruleset's `count_down_end`. */
const COUNT_DOWN_ENDS = {
  "stop-at-zero": {
    short: "counting down to zero",
    rule: "each total goes down by its points for the hand, stopping at zero, and the match ends when a total reaches zero",
  },
  "exact-zero": {
    short: "counting down to exactly zero",
    rule: "each total goes down by its points for the hand, a total that would pass zero bouncing back up by the excess, and the match ends when a total lands on zero",
  },
  "below-zero": {
    short: "counting down past zero",
    rule: "each total goes down by its points for the hand, below zero too, and the match ends when a total is at or below zero; the lowest total wins",
  },
};

/** How the match ends, in a few words for the status line (the core's `standing`). */
function endsShort(standing, handNumber) {
  return standing.ends.map((end) => {
    if (end.kind === "target") return `the match ends at ${end.target} points`;
    if (end.kind === "deals") return `deal ${Math.min(Number(handNumber) + 1, Number(end.deals))} of ${end.deals}`;
    const countDown = COUNT_DOWN_ENDS[end.count_down_end];
    if (end.kind === "count-down" && end.counting) {
      return `${countDown.short} since ${joinNames(end.reached)} reached ${end.target}`;
    }
    if (end.kind === "count-down") return `the count-down starts at ${end.target} points`;
    return `the match ends by its ${end.kind} rule`;
  }).join(" or ");
}

/** How the match ends and where it stands, in full for the score table's caption. */
function endsLong(standing) {
  const first = Number(table.start.hand_number ?? 0);
  const rules = standing.ends.map((end) => {
    if (end.kind === "target") return `The match ends when a total reaches ${end.target}.`;
    if (end.kind === "deals") return `The match ends after ${end.deals} deals.`;
    if (end.kind !== "count-down") return `The match ends by its ${end.kind} rule.`;
    const down = COUNT_DOWN_ENDS[end.count_down_end].rule;
    if (!end.counting) return `When a total reaches ${end.target}, the count-down starts: from the next hand ${down}.`;
    const since = Number(end.first_hand);
    const when = since > first ? ` after hand ${since}` : "";
    return `Count-down: ${joinNames(end.reached)} reached ${end.target}${when}; from hand ${since + 1} on ${down}, ` +
      "so those hands' rows show how much each total went down.";
  });
  return `${rules.join(" Or: ")} The lowest total wins, and tied players share the win.`;
}

function humanAct(action) {
  if (table.readOnly) return;
  // The pressed button goes away with the move: bring the keyboard back to the hand when it is
  // the person's turn again.
  table.keepHandFocus = true;
  try {
    apply(action);
  } catch (error) {
    // The page offers only legal actions, so this is a fault worth showing as it is.
    showBanner(`That was refused: ${error.message}`);
    return;
  }
  table.selection = [];
  render();
  advance();
}

// The computer players --------------------------------------------------------------------------

let worker = null;
let workerReady = null;
let workerFailed = null;
const waiting = new Map();
let nextRequest = 1;

function startWorker() {
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  workerReady = new Promise((resolve, reject) => {
    worker.addEventListener("message", (event) => {
      const data = event.data;
      if (data.type === "ready") resolve();
      else if (data.type === "failed") reject(new Error(data.message));
      else {
        const request = waiting.get(data.id);
        waiting.delete(data.id);
        if (!request) return;
        if (data.type === "action") request.resolve(data.action);
        else request.reject(new Error(data.message));
      }
    });
    worker.addEventListener("error", (event) => reject(new Error(event.message || "the worker could not start")));
  });
  workerReady.catch((error) => {
    workerFailed = error.message;
  });
}

async function workerDecide(seat) {
  await workerReady;
  const id = nextRequest++;
  const { opponents, rollouts } = table.settings;
  // The search player decides at its default budget (4,000 playouts a card): bounded by work,
  // not the clock, so that a seat's decision follows from its seed whatever the machine.
  const player = { name: opponents, seed: decisionSeed(seat), rollouts };
  // The observation is seat `seat`'s alone: the worker never sees the game.
  const observation = table.game.observation(seat);
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, ruleset: table.rules, observation, player });
  });
}

function nextComputerSeat() {
  const game = table.game;
  if (!game) return null;
  if (game.phase === "pass") {
    const others = Array.from(game.awaitingPass).filter((seat) => seat !== 0);
    return others.length ? others[0] : null;
  }
  if (game.phase === "play" || game.phase === "moon") {
    const seat = game.toAct;
    return seat !== 0 && seat !== null && seat !== undefined ? seat : null;
  }
  return null;
}

/** An unseeded match (a record made elsewhere) waits for each deal: as `reversis play`, deal
 *  it from a fresh seed. */
function dealFresh() {
  const game = table.game;
  const [hands] = reversis.dealFromSeed(game.ruleset, randomSeed(), 1, game.handNumber);
  apply({ type: "deal", hands });
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Let the computer seats act until it is the person's turn (or the match is over). */
async function advance() {
  if (table.running) return;
  table.running = true;
  try {
    while (!table.readOnly) {
      const generation = table.generation;
      if (table.game.phase === "deal") {
        dealFresh();
        continue;
      }
      const seat = nextComputerSeat();
      if (seat === null) break;
      table.thinking = seat;
      render();
      const started = performance.now();
      let action;
      try {
        action = await workerDecide(seat);
      } catch (error) {
        if (generation !== table.generation) continue;
        showBanner(`${seatName(seat)}'s computer player failed: ${error.message}. Reload the page to try again.`);
        break;
      }
      if (generation !== table.generation) continue;
      // Cards come one at a time at a readable pace; passes, chosen face down, need none.
      if (table.game.phase === "play") await pause(Math.max(0, PACE_MS - (performance.now() - started)));
      if (generation !== table.generation || table.readOnly) continue;
      table.workerDecisions += 1;
      try {
        apply(action);
      } catch (error) {
        showBanner(`${seatName(seat)}'s computer player chose something the rules refuse: ${error.message}.`);
        break;
      }
    }
  } finally {
    table.thinking = null;
    table.running = false;
    render();
  }
}

// Drawing ---------------------------------------------------------------------------------------

function announce(text) {
  const item = document.createElement("li");
  item.textContent = text;
  const log = $("log");
  log.append(item);
  while (log.children.length > 40) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function notice(text) {
  announce(text);
}

function showBanner(text, readOnly = false) {
  const banner = $("banner");
  banner.replaceChildren();
  const message = document.createElement("p");
  message.textContent = text;
  banner.append(message);
  if (readOnly) {
    const retry = document.createElement("button");
    retry.type = "button";
    retry.textContent = "Play here instead";
    retry.addEventListener("click", takeOver);
    banner.append(retry);
  }
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.textContent = "Dismiss";
  dismiss.addEventListener("click", () => {
    banner.hidden = true;
  });
  if (!readOnly) banner.append(dismiss);
  banner.hidden = false;
}

function render() {
  const game = table.game;
  if (!game) return;
  const obs = game.observation(0);
  const rules = table.rules;
  const list = names();
  const root = document.body;
  root.dataset.phase = obs.phase;
  root.dataset.handNumber = String(obs.hand_number);
  root.dataset.actions = String(game.actions.length);
  root.dataset.busy = table.running ? "true" : "false";
  root.dataset.readOnly = table.readOnly ? "true" : "false";
  root.dataset.workerDecisions = String(table.workerDecisions);
  root.dataset.seed = hasSeed() ? String(table.seed) : "";

  $("status").textContent =
    `${rules.title} · ${seedText()} · hand ${Number(obs.hand_number) + 1} · ` +
    `${passText(obs.phase === "pass")} · ${endsShort(game.standing, obs.hand_number)} · ` +
    `${OPPONENTS[table.settings.opponents]} computer players`;
  $("status").classList.remove("error");
  $("table").hidden = false;

  renderSeats(obs, list);
  renderTrick(obs, list);
  renderPrompt(obs, rules);
  renderHand(obs, rules);
  renderScores(obs, list);
  renderControls();
}

function renderSeats(obs, list) {
  const size = table.game.ruleset.handSize;
  const lastWinner = lastTrick(obs)?.winner;
  const seats = $("seats");
  seats.replaceChildren();
  list.forEach((name, seat) => {
    const item = document.createElement("li");
    item.className = "seat" + (seat === 0 ? " you" : "");
    item.dataset.seat = String(seat);
    let held = size;
    if (obs.phase === "play") held = size - obs.tricks.length - (obs.trick.some((entry) => entry.seat === seat) ? 1 : 0);
    else if (obs.phase === "moon" || obs.phase === "over") held = 0;
    const facts = [`${obs.scores[seat]} points`];
    if (obs.phase === "play" || obs.phase === "moon") facts.push(`${obs.points[seat]} this hand`);
    if (seat !== 0) facts.push(`${held} card${held === 1 ? "" : "s"}`);
    const state = [];
    if (obs.phase === "pass") state.push(obs.awaiting_pass.includes(seat) ? "choosing cards to pass" : "has passed");
    if (table.thinking === seat && obs.phase !== "pass") state.push("thinking…");
    else if (obs.phase === "play" && obs.to_move === seat) state.push(seat === 0 ? "your turn" : "to play");
    if (obs.phase === "moon" && obs.moon_taker === seat) state.push("choosing the moon's score");
    if (lastWinner === seat) state.push("took the last trick");
    const title = document.createElement("strong");
    title.textContent = name;
    const detail = document.createElement("span");
    detail.textContent = facts.join(" · ");
    item.append(title, " ", detail);
    if (state.length) {
      const extra = document.createElement("span");
      extra.className = "state";
      extra.textContent = state.join(" · ");
      item.append(" ", extra);
    }
    if (obs.phase === "play" && obs.to_move === seat) item.classList.add("to-move");
    seats.append(item);
  });
}

/** The last completed trick: of this hand, else of the last scored hand (public either way). */
function lastTrick(obs) {
  if (obs.tricks.length) return obs.tricks.at(-1);
  const last = table.game.lastHand;
  return last && last.tricks.length ? last.tricks.at(-1) : null;
}

function renderTrick(obs, list) {
  const trick = $("trick");
  trick.replaceChildren();
  const caption = $("trick-caption");
  if (obs.phase === "play") {
    const number = obs.tricks.length + 1;
    if (obs.trick.length) caption.textContent = `Trick ${number}, led by ${list[obs.trick[0].seat]}.`;
    else caption.textContent = `Trick ${number}: ${obs.to_move === 0 ? "you lead" : `${list[obs.to_move]} leads`}.`;
    for (const entry of obs.trick) {
      const item = document.createElement("li");
      item.className = "played";
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = list[entry.seat];
      item.append(who, cardElement(entry.card));
      trick.append(item);
    }
  } else if (obs.phase === "pass") {
    caption.textContent = "The cards are passed before the first trick.";
  } else {
    caption.textContent = "No trick in progress.";
  }
  const last = lastTrick(obs);
  const lastLine = $("last-trick");
  lastLine.replaceChildren();
  if (last) {
    const points = last.points ? ` (${last.points > 0 ? "+" : ""}${last.points})` : "";
    if (last.winner === null) lastLine.append("Last trick: held over, every card of the suit led cancelled: ");
    else lastLine.append(`Last trick: ${last.winner === 0 ? "you" : list[last.winner]} took it${points}: `);
    last.cards.forEach((entry, i) => {
      lastLine.append(`${i ? ", " : ""}${list[entry.seat]} `, cardElement(entry.card));
    });
    lastLine.append(".");
  }
}

function renderPrompt(obs, rules) {
  const text = $("prompt-text");
  const actions = $("prompt-actions");
  actions.replaceChildren();
  const game = table.game;
  const section = $("prompt");
  section.className = "prompt";
  if (table.readOnly) {
    text.textContent = "This tab shows the match read-only.";
    return;
  }
  if (obs.phase === "over") {
    const winners = Array.from(game.winners);
    text.textContent = `Match over after ${Number(obs.hand_number) + 1} hands. ${verdict(winners)}`;
    section.classList.add("over");
    if (hasSeed()) {
      const replay = () => requestNewMatch(rules, table.settings.opponents, BigInt(table.seed), "Replaying");
      actions.append(button("Replay this seed", replay));
    }
    actions.append(button("New match", () => requestNewMatch(rules, table.settings.opponents, randomSeed(), "New")));
    return;
  }
  if (obs.phase === "pass" && obs.awaiting_pass.includes(0)) {
    const { size, direction, to: [to] } = passPlan();
    const chosen = table.selection.length;
    text.textContent = `Choose ${size} cards to pass ${direction} to ${seatName(to)}: ${chosen} of ${size} chosen.`;
    const confirm = button(`Pass ${size} cards ${direction} to ${seatName(to)}`, () =>
      humanAct({ type: "pass", seat: 0, cards: [...table.selection] }),
    );
    confirm.id = "pass-confirm";
    confirm.disabled = chosen !== size;
    actions.append(confirm);
    return;
  }
  if (obs.phase === "pass") {
    text.textContent = "Waiting for the computer players to choose their cards.";
    return;
  }
  if (obs.phase === "moon" && obs.moon_taker === 0) {
    const bonus = rules.moon.bonus;
    text.textContent = `You took every point card and shot the moon! Choose how it scores.`;
    section.classList.add("moon");
    actions.append(
      button(`Add ${bonus} to every opponent`, () => humanAct({ type: "moon", seat: 0, choice: "add-to-others" })),
      button(`Subtract ${bonus} from your score`, () => humanAct({ type: "moon", seat: 0, choice: "subtract-from-taker" })),
    );
    return;
  }
  if (obs.phase === "play" && obs.to_move === 0) {
    text.textContent = obs.trick.length
      ? "Your turn: play one of the marked cards."
      : "Your lead: play one of the marked cards.";
    section.classList.add("yours");
    return;
  }
  // One text for every computer turn, so that a screen reader hears it once, not once per seat
  // (the seats say who is thinking).
  text.textContent = "Waiting for the computer players.";
}

function button(label, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  element.addEventListener("click", onClick);
  return element;
}

function renderHand(obs, rules) {
  const hand = $("hand");
  const focused = document.activeElement;
  const hadFocus = hand.contains(focused) || focused === $("hand-area") ||
    ((focused === document.body || focused === null) && table.keepHandFocus);
  const focusedCard = hand.contains(focused) ? focused.dataset.card : null;
  hand.replaceChildren();
  const passing = obs.phase === "pass" && obs.awaiting_pass.includes(0) && !table.readOnly;
  const playing = obs.phase === "play" && obs.to_move === 0 && !table.readOnly && table.thinking === null;
  const legal = new Set(obs.legal);
  const received = new Set(obs.received ?? []);
  const size = passPlan()?.size ?? 0;
  const full = table.selection.length >= size;
  for (const suit of SUIT_ORDER) {
    const cards = sortCards(obs.hand.filter((card) => card[1] === suit));
    if (!cards.length) continue;
    const group = document.createElement("div");
    group.className = "suit";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", SUIT_NAMES[suit]);
    for (const card of cards) {
      const element = cardElement(card, "button");
      element.type = "button";
      if (received.has(card) && obs.phase === "play" && obs.tricks.length === 0) element.classList.add("received");
      if (passing) {
        const selected = table.selection.includes(card);
        element.setAttribute("aria-pressed", String(selected));
        element.disabled = !selected && full;
        element.addEventListener("click", () => toggleSelection(card));
      } else if (playing && legal.has(card)) {
        element.classList.add("legal");
        element.addEventListener("click", () => humanAct({ type: "play", seat: 0, card }));
      } else {
        element.disabled = true;
      }
      group.append(element);
    }
    hand.append(group);
  }
  if (!obs.hand.length) hand.textContent = "No cards.";
  if (hand.querySelector(".received")) {
    const legend = document.createElement("p");
    legend.className = "legend";
    legend.textContent = "Shaded blue: the cards you received.";
    hand.append(legend);
  }
  // Drawing replaces the buttons; keep the keyboard where it was, or on the first card to press.
  if (hadFocus && !table.pendingConfirm) {
    const same = focusedCard && hand.querySelector(`[data-card="${focusedCard}"]:not(:disabled)`);
    const first = hand.querySelector("button:not(:disabled)");
    const target = same || (passing || playing ? first : null);
    if (target) target.focus();
    else if (hand.contains(focused) || focused === $("hand-area")) $("hand-area").focus();
  }
}

function toggleSelection(card) {
  const at = table.selection.indexOf(card);
  if (at >= 0) table.selection.splice(at, 1);
  else if (table.selection.length < passPlan().size) table.selection.push(card);
  render();
}

function renderScores(obs, list) {
  const scores = $("scores");
  scores.replaceChildren();
  const caption = document.createElement("caption");
  caption.textContent = endsLong(table.game.standing);
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  headRow.append(cell("th", "Hand", "col"), ...list.map((name) => cell("th", name, "col")));
  head.append(headRow);
  const body = document.createElement("tbody");
  // A match may start from totals other than zero (a record made elsewhere): show them, so that
  // the hands add up to the totals.
  const startScores = table.start.scores ? Array.from(table.start.scores) : null;
  if (startScores && startScores.some((v) => Number(v) !== 0)) {
    const tr = document.createElement("tr");
    tr.append(cell("th", "Start", "row"), ...startScores.map((v) => cell("td", String(v))));
    body.append(tr);
  }
  const first = Number(table.start.hand_number ?? 0);
  Array.from(table.game.handScores).forEach((row, index) => {
    const tr = document.createElement("tr");
    tr.append(cell("th", String(first + index + 1), "row"), ...Array.from(row).map((v) => cell("td", String(v))));
    body.append(tr);
  });
  const foot = document.createElement("tfoot");
  const total = document.createElement("tr");
  total.append(cell("th", "Total", "row"), ...obs.scores.map((v) => cell("td", String(v))));
  foot.append(total);
  if (obs.phase === "over") {
    const winners = Array.from(table.game.winners);
    Array.from(total.querySelectorAll("td")).forEach((td, seat) => {
      if (winners.includes(seat)) td.classList.add("winner");
    });
  }
  scores.append(caption, head, body, foot);
}

function cell(tag, text, scope) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (scope) element.scope = scope;
  return element;
}

function renderControls() {
  const disabled = Boolean(table.readOnly);
  for (const id of ["preset", "opponents", "seed", "deal", "replay"]) $(id).disabled = disabled;
  // A record made elsewhere may have a ruleset that is no preset: the list then keeps its choice.
  const isPreset = Array.from($("preset").options).some((option) => option.value === table.rules.name);
  if (document.activeElement !== $("preset") && isPreset) $("preset").value = table.rules.name;
  if (document.activeElement !== $("opponents")) $("opponents").value = table.settings.opponents;
  // A record made elsewhere may have no seed: then there is no deal to replay.
  $("replay").disabled = disabled || !hasSeed();
  $("replay").textContent = hasSeed() ? `Replay seed ${table.seed}` : "No seed to replay";
}

// Controls --------------------------------------------------------------------------------------

function setUpControls() {
  const select = $("preset");
  for (const name of reversis.presetNames()) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = `${reversis.preset(name).toJson().title} (${name})`;
    select.append(option);
  }
  select.value = DEFAULT_PRESET;
  $("new-match").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("seed").value;
    const error = $("seed-error");
    let seed = randomSeed();
    let how = "New";
    if (text.trim()) {
      seed = parseSeed(text);
      if (seed === null) {
        error.textContent =
          `“${text.trim()}” is not a seed: type a whole number from 0 to ${MAX_SEED}, or leave it blank.`;
        error.hidden = false;
        $("seed").setAttribute("aria-invalid", "true");
        $("seed").focus();
        return;
      }
      how = "Replaying";
    }
    error.hidden = true;
    $("seed").removeAttribute("aria-invalid");
    requestNewMatch(reversis.preset($("preset").value).toJson(), $("opponents").value, seed, how);
  });
  $("replay").addEventListener("click", () => {
    requestNewMatch(table.rules, table.settings.opponents, BigInt(table.seed), "Replaying");
  });
  $("confirm-yes").addEventListener("click", () => {
    const go = table.pendingConfirm;
    closeConfirm(null);
    if (go) go();
    $("hand-area").focus();
  });
  $("confirm-no").addEventListener("click", () => {
    announce("Kept the match in progress.");
    closeConfirm($("deal"));
  });
  // Arrow keys step through the cards that can be pressed, as well as Tab.
  $("hand").addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    const cards = Array.from($("hand").querySelectorAll("button:not(:disabled)"));
    const at = cards.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
    cards[(at + step + cards.length) % cards.length].focus();
  });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z") {
      event.preventDefault();
      announce("There is no take-back: a card once played stays played.");
    } else if (event.key === "Escape" && table.pendingConfirm) {
      closeConfirm($("deal"));
    }
  });
  window.addEventListener("storage", (event) => {
    if (event.key !== SAVE_KEY && event.key !== null) return;
    if (table.readOnly) followSave();
    else if (event.newValue !== table.savedText) {
      becomeReadOnly("The saved match was changed in another tab, so this tab stopped saving to keep that match.");
    }
  });
}

/** A read-only tab shows the save as the playing tab writes it. */
function followSave() {
  const text = storage()?.getItem(SAVE_KEY);
  if (!text) return;
  try {
    const saved = readSave(text);
    adopt(saved.game);
    table.settings = saved.settings;
    table.opponentSeeds = saved.opponentSeeds;
    table.savedText = text;
    table.counter = saved.counter;
    render();
  } catch {
    // The playing tab deals with a save it cannot read; this one only shows.
  }
}

/** After the other tab closed: take the lock, read the save afresh and play on from it. */
async function takeOver() {
  if (!table.holdsLock) table.holdsLock = (await acquireLock()) !== false;
  if (!table.holdsLock) {
    showBanner(
      "The match is still open in another tab of this browser. Close it there, then choose “Play here instead” again.",
      true,
    );
    return;
  }
  table.readOnly = null;
  $("banner").hidden = true;
  const text = storage()?.getItem(SAVE_KEY) ?? null;
  table.savedText = text;
  if (text !== null) {
    try {
      resumeSave(text, "Resumed");
    } catch (error) {
      recoverUnreadable(text, error);
    }
  }
  if (!table.game) newMatch(reversis.preset(DEFAULT_PRESET).toJson(), DEFAULT_OPPONENTS, randomSeed(), "New");
  render();
  advance();
}

function recoverUnreadable(text, error) {
  const key = moveAside(text);
  table.savedText = null;
  if (key) {
    showBanner(
      `The match saved in this browser could not be read: ${error.message}. ` +
        `It is kept under the storage key “${key}”, and a new match was dealt.`,
    );
  } else {
    // Left in place, and never written over: saving stops for this match.
    table.saveBlocked = true;
    showBanner(
      `The match saved in this browser could not be read (${error.message}) and could not be moved aside, ` +
        "so this match will not be saved.",
    );
  }
}

// Starting --------------------------------------------------------------------------------------

async function start() {
  setUpControls();
  startReview();
  startWorker();
  const lock = await acquireLock();
  table.holdsLock = lock === true;
  const store = storage();
  let text = null;
  try {
    text = store ? store.getItem(SAVE_KEY) : null;
  } catch {
    text = null;
  }
  if (lock === false) {
    table.readOnly =
      "This match is already open in another tab of this browser, so this tab shows it read-only " +
      "(playing in two tabs would mix up the save). Close the other tab, then choose “Play here instead”.";
    showBanner(table.readOnly, true);
    // Until there is a match to draw, the controls are off here too: this tab may not deal.
    for (const id of ["preset", "opponents", "seed", "deal", "replay"]) $(id).disabled = true;
    if (text === null) {
      $("status").textContent = "No saved match to show yet.";
      return;
    }
    try {
      resumeSave(text, "Shown");
    } catch (error) {
      $("status").textContent = `The saved match cannot be read (${error.message}); the other tab deals with it.`;
      return;
    }
    render();
    return;
  }
  if (text !== null) {
    try {
      resumeSave(text, "Resumed");
    } catch (error) {
      recoverUnreadable(text, error);
    }
  }
  if (!table.game) {
    newMatch(reversis.preset(DEFAULT_PRESET).toJson(), DEFAULT_OPPONENTS, randomSeed(), "New");
  } else {
    render();
    advance();
  }
  workerReady.catch(() => showBanner(`The computer players could not start: ${workerFailed}.`));
}

await start();
