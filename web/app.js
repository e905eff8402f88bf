// The table of document 001 in a browser: you at seat 0, computer players in the other seats.
//
// The page keeps the whole game only to apply actions and to save it; everything it draws comes
// from seat 0's observation (OBS-1) and the public state of the match, so no hidden card ever
// reaches the page's text. The computer players run in worker.js and get one seat's observation.
import * as reversis from "./js/src/index.js";
import {
  ASIDE_PREFIX,
  EACH_SEAT,
  FINISHED_PREFIX,
  LEVELS,
  PLAYERS,
  playersText as playersWords,
  readSaveData,
  SAVE_FORMAT,
  SAVE_KEY,
  SAVE_VERSION,
  seatNames,
} from "./common.js";
import { startReview } from "./review.js";

const LOCK_NAME = "reversis.save";
const DEFAULT_PRESET = "hearts-computer";
const DEFAULT_OPPONENTS = "rules";
// The view and the choices for the next match, kept apart from the match's save: settings are
// the person's, whichever match is on the table.
const SETTINGS_KEY = "reversis.settings";
// Milliseconds before each computer card and for which a finished trick stays on the table.
const SPEEDS = { normal: 600, fast: 250, instant: 0 };
const DEFAULT_SPEED = "normal";
// How long a taken trick takes to slide to its taker (none under prefers-reduced-motion).
const COLLECT_MS = 350;
const LOG_LIMIT = 200;
// As `reversis play`: playouts per legal card of the Monte Carlo player.
const DEFAULT_ROLLOUTS = 100;
const MAX_SEED = (1n << 64n) - 1n;
const SUIT_ORDER = "CDSH";
const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
const RANKS = "23456789TJQKA";

// `?pace=MS` overrides the speed setting (tests use `?pace=0`); without it, null. A missing or
// blank parameter is no override: Number(null) would be 0 and make the table instant.
const PACE_OVERRIDE = (() => {
  const raw = new URLSearchParams(location.search).get("pace");
  if (raw === null || raw.trim() === "") return null;
  const asked = Number(raw);
  return Number.isFinite(asked) && asked >= 0 ? Math.min(asked, 5000) : null;
})();

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Milliseconds a computer card waits and a finished trick stays shown. */
function pace() {
  return PACE_OVERRIDE ?? SPEEDS[view.speed] ?? SPEEDS[DEFAULT_SPEED];
}

const $ = (id) => document.getElementById(id);

const table = {
  game: null,
  rules: null, // the ruleset's JSON object: public, and what the worker gets
  seed: null, // the match's seed, or null for a record made elsewhere without one
  start: null, // the hand number and totals the match started from (REC-1 start)
  // The match's computer players: the level chosen (or "each") and each seat's player.
  settings: { opponents: DEFAULT_OPPONENTS, players: [], rollouts: DEFAULT_ROLLOUTS },
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
  shownTrick: null, // a finished trick still on the table: {trick, collecting}
  shownTrickTimer: null,
  shownTrickDone: [], // who waits for the shown trick to go
  eventsSeen: null, // how many table events were drawn, to mark the new one
  historyReady: false, // the log holds the resumed hand's story (see rebuildHistory)
  historyToken: null,
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

/** "1 point", "2 points", "0 points". */
function plural(count, word) {
  return `${count} ${word}${Math.abs(Number(count)) === 1 ? "" : "s"}`;
}

function cardNames(cards) {
  const names = cards.map(cardName);
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function sortCards(cards) {
  const key = (c) => SUIT_ORDER.indexOf(c[1]) * 13 + RANKS.indexOf(c[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

const SVG = "http://www.w3.org/2000/svg";

function svgText(x, y, size, text, className) {
  const element = document.createElementNS(SVG, "text");
  element.setAttribute("x", String(x));
  element.setAttribute("y", String(y));
  element.setAttribute("font-size", String(size));
  element.setAttribute("class", className);
  element.textContent = text;
  return element;
}

/** A card's face as inline SVG: rank and suit in the top-left and (turned) bottom-right corners
 *  and the suit large in the middle; its colour comes from the style sheet, by suit. */
function cardSvg(card) {
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = SUIT_SYMBOLS[card[1]];
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 60 84");
  svg.setAttribute("class", "face");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const paper = document.createElementNS(SVG, "rect");
  paper.setAttribute("class", "paper");
  paper.setAttribute("x", "1");
  paper.setAttribute("y", "1");
  paper.setAttribute("width", "58");
  paper.setAttribute("height", "82");
  paper.setAttribute("rx", "6");
  const corner = (transform) => {
    const group = document.createElementNS(SVG, "g");
    if (transform) group.setAttribute("transform", transform);
    group.append(svgText(rank === "10" ? 2 : 4, 21, rank === "10" ? 19 : 22, rank, "rank"), svgText(4, 39, 18, suit, "pip"));
    return group;
  };
  svg.append(paper, corner(null), svgText(30, 53, 30, suit, "pip pip-mid"), corner("rotate(180 30 42)"));
  return svg;
}

function cardElement(card, tag = "span") {
  const element = document.createElement(tag);
  element.className = `card suit-${card[1]}`;
  element.dataset.card = card;
  const name = document.createElement("span");
  name.className = "visually-hidden name";
  name.textContent = cardName(card);
  element.append(cardSvg(card), name);
  return element;
}

// Seats ---------------------------------------------------------------------------------------

function names(count = table.rules.players) {
  return seatNames(count);
}

const seatName = (seat) => names()[seat];

/** Who passes to whom this hand, as the core says (PASS-1, PASS-3), or null: no pass. */
const passPlan = (game = table.game) => game.passPlan;

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
    // The cards chosen so far toward seat 0's pass, so that a reload keeps them chosen.
    selection: table.selection,
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
  const data = readSaveData(text, reversis.parseJson);
  let game;
  try {
    game = reversis.Game.fromRecord(reversis.loadRecord(new TextEncoder().encode(data.record)));
  } catch (error) {
    throw new Error(`its game record cannot be read (${error.message})`);
  }
  const players = game.ruleset.players;
  // A save of this version written before the levels has `opponents` alone (a player's name):
  // every computer seat then plays it.
  const asked = data.settings?.opponents;
  const opponents = asked === EACH_SEAT || Object.hasOwn(PLAYERS, asked) ? asked : DEFAULT_OPPONENTS;
  const savedPlayers = Array.isArray(data.settings?.players) ? data.settings.players : [];
  const settings = {
    opponents,
    players: Array.from({ length: players }, (_, seat) => {
      if (seat === 0) return null;
      if (Object.hasOwn(PLAYERS, savedPlayers[seat])) return savedPlayers[seat];
      return opponents === EACH_SEAT ? DEFAULT_OPPONENTS : opponents;
    }),
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
  // Only cards still in seat 0's hand while it chooses its pass, at most the pass's size.
  const plan = game.phase === "pass" && Array.from(game.awaitingPass).includes(0) ? game.passPlan : null;
  const hand = plan ? [...game.hand(0)] : [];
  const selection = [];
  for (const card of Array.isArray(data.selection) ? data.selection : []) {
    const at = hand.indexOf(card);
    if (at < 0 || selection.length >= plan.size) continue;
    hand.splice(at, 1);
    selection.push(card);
  }
  return {
    game,
    settings,
    opponentSeeds: seeds,
    selection,
    counter: Number.isInteger(data.counter) ? data.counter : 0,
  };
}

/** Play on from the save `text` (throws as readSave does, with nothing changed). */
function resumeSave(text, how) {
  const saved = readSave(text);
  table.savedText = text;
  table.counter = saved.counter;
  begin(saved.game, saved.settings, saved.opponentSeeds, how);
  table.selection = saved.selection;
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
function tryLock() {
  return new Promise((resolve) => {
    navigator.locks
      .request(LOCK_NAME, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock === null ? undefined : new Promise((release) => {
          releaseLock = release;
        });
      })
      .catch(() => resolve(null));
  });
}

let releaseLock = null;

/** The lock, asked for a few times over half a second: the page this one replaces in the same
 *  tab (a reload, another address of the table) may not have let go of it yet. */
async function acquireLock() {
  if (!navigator.locks) return null;
  for (let attempt = 0; ; attempt++) {
    const held = await tryLock();
    if (held !== false || attempt >= 5) return held;
    await pause(100);
  }
}

// Leaving the page lets go of the lock at once, for the page that comes next in this tab; a
// page brought back from the browser's back-forward cache asks for it again.
window.addEventListener("pagehide", () => {
  if (releaseLock) releaseLock();
  releaseLock = null;
});
window.addEventListener("pageshow", async (event) => {
  if (!event.persisted || !table.holdsLock || table.readOnly) return;
  table.holdsLock = (await acquireLock()) !== false;
  if (!table.holdsLock) {
    becomeReadOnly("This match was opened in another tab meanwhile, so this tab shows it read-only.");
  }
});

function becomeReadOnly(why) {
  table.readOnly = why;
  table.generation += 1; // an answer on its way must not be applied
  showBanner(why, true);
  render();
}

// Settings ------------------------------------------------------------------------------------

/** The view and the choices for the next match, as stored under SETTINGS_KEY (never in the
 *  match's save): anything missing or unknown falls back to its default. */
function loadView() {
  let stored = {};
  try {
    const parsed = JSON.parse(storage()?.getItem(SETTINGS_KEY) ?? "{}");
    if (parsed && typeof parsed === "object") stored = parsed;
  } catch {
    // An unreadable settings entry is only preferences: the defaults stand in.
  }
  const known = (value, table, fallback) => (Object.hasOwn(table, value) ? value : fallback);
  const seatPlayers = Array.from({ length: 10 }, (_, seat) =>
    seat === 0 ? null : known(stored.seatPlayers?.[seat], PLAYERS, DEFAULT_OPPONENTS),
  );
  return {
    speed: known(stored.speed, SPEEDS, DEFAULT_SPEED),
    fourColour: stored.fourColour === true,
    difficulty: stored.difficulty === EACH_SEAT ? EACH_SEAT : known(stored.difficulty, LEVELS, DEFAULT_OPPONENTS),
    seatPlayers,
    lastTrickOpen: stored.lastTrickOpen === true,
  };
}

const view = loadView();

function storeView() {
  try {
    storage()?.setItem(SETTINGS_KEY, JSON.stringify(view));
  } catch {
    // Full or switched-off storage: the settings hold for this visit only.
  }
}

/** Each seat's computer player for a match of `players` seats under the level `opponents`. */
function playersFor(opponents, players) {
  return Array.from({ length: players }, (_, seat) => {
    if (seat === 0) return null;
    return opponents === EACH_SEAT ? view.seatPlayers[seat] ?? DEFAULT_OPPONENTS : opponents;
  });
}

/** The match's computer players in words, for the status line and the log. */
function playersText(settings) {
  return playersWords(settings, seatName);
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
  clearShownTrick();
  table.eventsSeen = null;
  const started = `${how} match: ${table.rules.title}, ${seedText()}, ${playersText(settings)}.`;
  table.historyToken = null;
  if (how === "New" || how === "Replaying") {
    table.historyReady = true;
    announce(started);
    if (game.phase !== "over") announce(dealText());
  } else {
    // A resumed match: the log tells this hand's story again from the record, then says so.
    $("log").replaceChildren();
    table.historyReady = false;
    const token = {};
    table.historyToken = token;
    rebuildHistory(game, token).then((told) => {
      if (told) announce(started);
    });
  }
}

/** A new match of `rules` (a ruleset's JSON object: a preset's, or the current match's), its
 *  computer players by the level `opponents`, or `players` seat by seat (a replay keeps them). */
function newMatch(rules, opponents, seed, how, players = null) {
  if (!keepFinished()) return;
  const game = new reversis.Game(reversis.Ruleset.fromJson(rules), { seed });
  const count = game.ruleset.players;
  // Fresh entropy for the computer players, never the shuffle seed (001: they know only their seat).
  const seeds = Array.from({ length: count }, (_, seat) => (seat === 0 ? null : randomSeed()));
  const chosen = players?.length === count ? [...players] : playersFor(opponents, count);
  begin(game, { opponents, players: chosen, rollouts: DEFAULT_ROLLOUTS }, seeds, how);
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

function requestNewMatch(rules, opponents, seed, how, players = null) {
  if (!inProgress()) {
    newMatch(rules, opponents, seed, how, players);
    return;
  }
  const game = table.game;
  $("confirm-text").textContent =
    `This abandons the match in progress (${seedText()}, hand ${Number(game.handNumber) + 1}, ` +
    `scores ${Array.from(game.scores).join(" ")}). It cannot be resumed afterwards` +
    `${hasSeed() ? ", though its seed deals it again" : ""}.`;
  table.pendingConfirm = () => newMatch(rules, opponents, seed, how, players);
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
  for (const line of narrate(game, action, leading)) announce(line);
  if (Array.from(game.events).some((event) => event.type === "trick")) showFinishedTrick();
  save();
  render();
}

/** What `action`, just applied to `game` (`leading` if it opened a trick), did and set off, in
 *  the log's words: the same lines live and when a reload tells the hand again. */
function narrate(game, action, leading) {
  const lines = [];
  const seat = action.seat;
  const who = seatName(seat);
  if (action.type === "play") {
    const verb = seat === 0 ? (leading ? "lead" : "play") : leading ? "leads" : "plays";
    lines.push(`${who} ${verb} the ${cardName(action.card)}.`);
  } else if (action.type === "pass") {
    const plan = passPlan(game);
    const cards = cardNames(sortCards(action.cards));
    if (seat === 0) lines.push(`You pass the ${cards} ${plan.direction} to ${seatName(plan.to[0])}.`);
    else lines.push(`${who} has chosen ${plural(action.cards.length, "card")} to pass.`);
  } else if (action.type === "moon") {
    const bonus = table.rules.moon.bonus;
    const whose = seat === 0 ? "your" : "their";
    const what = action.choice === "add-to-others"
      ? `add ${bonus} to every opponent`
      : `subtract ${bonus} from ${whose} own score`;
    lines.push(`${who} ${seat === 0 ? "choose" : "chooses"} to ${what}.`);
  }
  for (const event of Array.from(game.events)) lines.push(...eventLines(game, event));
  return lines;
}

function eventLines(game, event) {
  if (event.type === "trick") {
    if (event.winner === null) {
      return [`Every card of the suit led cancelled: the trick is held over, and ${event.leader === 0 ? "you lead" : `${seatName(event.leader)} leads`} again.`];
    }
    const points = event.points ? ` (${event.points > 0 ? "+" : ""}${event.points})` : "";
    return [`${event.winner === 0 ? "You take" : `${seatName(event.winner)} takes`} the trick${points}.`];
  } else if (event.type === "exchange") {
    const received = game.observation(0).received ?? [];
    const from = passPlan(game).from[0];
    return [`Cards exchanged: you receive the ${cardNames(sortCards(received))} from ${seatName(from)}.`];
  } else if (event.type === "hand") {
    const scores = Array.from(event.scores);
    let text = `Hand ${Number(event.hand_number) + 1} is over. This hand: ${scoreList(scores)}.`;
    if (event.moon_taker !== null && event.moon_taker !== undefined) {
      text += ` ${event.moon_taker === 0 ? "You" : seatName(event.moon_taker)} took every point card and shot the moon!`;
    }
    return [`${text} Totals: ${scoreList(Array.from(game.scores))}.`];
  } else if (event.type === "over") {
    return [`The match is over. ${verdict(Array.from(event.winners))}`];
  } else if (event.type === "deal") {
    return [dealText(game)];
  }
  return [];
}

/** Tell the hand in progress again, from the record of `game` (a resumed match): the lines the
 *  log had before the reload, without storing any text. Replayed in slices, so that a long
 *  match never holds the page up. */
async function rebuildHistory(game, token) {
  let lines = [];
  try {
    const record = game.toRecord();
    const actions = record.actions;
    // The hand in progress starts at the last deal; a record whose deal came before its start
    // (none in it) starts with the hand.
    const from = actions.findLastIndex((action) => action.type === "deal");
    // Unseeded, so that every deal of the record is replayed as the action it is.
    const replay = reversis.Game.fromRecord({ ...record, seed: null, actions: [] });
    if (from < 0 && replay.phase !== "deal" && replay.phase !== "over") lines.push(dealText(replay));
    for (let i = 0; i < actions.length; i++) {
      if (i % 200 === 199) {
        await pause(0);
        if (token !== table.historyToken) return false;
      }
      const leading = replay.trick.length === 0;
      replay.apply(actions[i]);
      if (i >= from) lines.push(...narrate(replay, actions[i], leading));
    }
    replay.free?.();
  } catch (error) {
    lines = [`This hand's story could not be told again: ${error.message}.`];
  }
  if (token !== table.historyToken) return false;
  const items = lines.slice(-LOG_LIMIT).map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  });
  const log = $("log");
  log.prepend(...items);
  while (log.children.length > LOG_LIMIT) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
  table.historyReady = true;
  table.historyToken = null;
  render();
  return true;
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

function dealText(game = table.game) {
  return `Hand ${Number(game.handNumber) + 1} is dealt: ${passText(true, game)}.`;
}

/** This hand's pass for seat 0: to come (`coming`), or done. */
function passText(coming, game = table.game) {
  const plan = passPlan(game);
  if (plan === null) return game.passDirection === null ? "no passing in this game" : "no passing this hand";
  const [to, from] = [seatName(plan.to[0]), seatName(plan.from[0])];
  return coming
    ? `pass ${plural(plan.size, "card")} ${plan.direction} to ${to}`
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
    if (end.kind === "target") return `the match ends at ${plural(end.target, "point")}`;
    if (end.kind === "deals") return `deal ${Math.min(Number(handNumber) + 1, Number(end.deals))} of ${end.deals}`;
    const countDown = COUNT_DOWN_ENDS[end.count_down_end];
    if (end.kind === "count-down" && end.counting) {
      return `${countDown.short} since ${joinNames(end.reached)} reached ${end.target}`;
    }
    if (end.kind === "count-down") return `the count-down starts at ${plural(end.target, "point")}`;
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
  // Playing on takes a finished trick off the table at once.
  clearShownTrick();
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
  const { players, rollouts } = table.settings;
  // The search player decides at its default budget (4,000 playouts a card): bounded by work,
  // not the clock, so that a seat's decision follows from its seed whatever the machine. The
  // table plays whole matches, so it plays for winning the match.
  const player = { name: players[seat], seed: decisionSeed(seat), rollouts, objective: "match" };
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

/** Keep the trick just finished on the table for the pace, then slide it to its taker: the
 *  last card of a trick is seen as every other is. */
function showFinishedTrick() {
  clearShownTrick();
  const ms = pace();
  const trick = lastTrick(table.game.observation(0));
  if (ms <= 0 || !trick) return;
  table.shownTrick = { trick, collecting: false };
  table.shownTrickTimer = setTimeout(() => {
    if (reducedMotion.matches || trick.winner === null) {
      clearShownTrick();
      render();
      return;
    }
    table.shownTrick.collecting = true;
    render();
    table.shownTrickTimer = setTimeout(() => {
      clearShownTrick();
      render();
    }, COLLECT_MS);
  }, ms);
}

function clearShownTrick() {
  clearTimeout(table.shownTrickTimer);
  table.shownTrickTimer = null;
  table.shownTrick = null;
  for (const resolve of table.shownTrickDone.splice(0)) resolve();
}

/** Resolves once no finished trick is on the table. */
function shownTrickGone() {
  return table.shownTrick ? new Promise((resolve) => table.shownTrickDone.push(resolve)) : Promise.resolve();
}

/** Let the computer seats act until it is the person's turn (or the match is over). */
async function advance() {
  if (table.running) return;
  table.running = true;
  try {
    // A resumed match's story is told first, so that the log keeps its order.
    while (!table.historyReady) await pause(20);
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
      // Cards come one at a time at a readable pace, and not while a finished trick is still on
      // the table; passes, chosen face down, need neither.
      if (table.game.phase === "play") {
        await pause(Math.max(0, pace() - (performance.now() - started)));
        await shownTrickGone();
      }
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
  while (log.children.length > LOG_LIMIT) log.firstElementChild.remove();
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
  root.dataset.busy = table.running || !table.historyReady ? "true" : "false";
  root.dataset.shownTrick = table.shownTrick ? "true" : "false";
  root.classList.toggle("four-colour", view.fourColour);
  root.dataset.readOnly = table.readOnly ? "true" : "false";
  root.dataset.workerDecisions = String(table.workerDecisions);
  root.dataset.seed = hasSeed() ? String(table.seed) : "";

  $("status").textContent =
    `${rules.title} · ${seedText()} · hand ${Number(obs.hand_number) + 1} · ` +
    `${passText(obs.phase === "pass")} · ${endsShort(game.standing, obs.hand_number)} · ` +
    `${playersText(table.settings)}`;
  $("status").classList.remove("error");
  $("table").hidden = false;

  renderSeats(obs, list);
  renderTrick(obs, list);
  renderPrompt(obs, rules);
  renderHand(obs, rules);
  renderScores(obs, list);
  renderControls();
}

/** Where seat `seat` of `players` sits: you at the bottom, the others in playing order
 *  clockwise around the ellipse, as a fraction of the way round from the bottom. */
function seatAngle(seat, players) {
  return Math.PI / 2 + (2 * Math.PI * seat) / players;
}

/** The point at `share` of the felt's half-width and half-height toward `seat`, in percent. */
function towardSeat(seat, players, share) {
  const angle = seatAngle(seat, players);
  return { x: 50 + 50 * share * Math.cos(angle), y: 50 + 50 * share * Math.sin(angle) };
}

// How far from the centre the seats sit and the trick's cards lie, as a share of the felt.
const SEAT_RING = 0.8;
const TRICK_RING = 0.36;

function placeAt(element, point, prefix = "") {
  element.style.setProperty(`--${prefix}x`, `${point.x.toFixed(2)}%`);
  element.style.setProperty(`--${prefix}y`, `${point.y.toFixed(2)}%`);
}


function renderSeats(obs, list) {
  const size = table.game.ruleset.handSize;
  const players = list.length;
  const lastWinner = lastTrick(obs)?.winner;
  const shown = table.shownTrick?.trick;
  const winners = obs.phase === "over" ? Array.from(table.game.winners) : [];
  const trick = obs.phase === "play" ? obs.trick : [];
  // Who led the trick on the table, or leads the next one.
  let leader = null;
  if (shown) leader = shown.cards[0]?.seat ?? null;
  else if (trick.length) leader = trick[0].seat;
  else if (obs.phase === "play") leader = obs.to_move;
  $("felt").dataset.players = String(players);
  const seats = $("seats");
  seats.replaceChildren();
  list.forEach((name, seat) => {
    // A labelled group per seat (not a list item: a list holds list items only).
    const item = document.createElement("div");
    item.className = "seat" + (seat === 0 ? " you" : "");
    item.dataset.seat = String(seat);
    item.setAttribute("role", "group");
    placeAt(item, towardSeat(seat, players, SEAT_RING));
    let held = size;
    if (obs.phase === "play") held = size - obs.tricks.length - (trick.some((entry) => entry.seat === seat) ? 1 : 0);
    else if (obs.phase === "moon" || obs.phase === "over") held = 0;
    const facts = [plural(obs.scores[seat], "point")];
    if (obs.phase === "play" || obs.phase === "moon") facts.push(`${obs.points[seat]} this hand`);
    if (seat !== 0) facts.push(plural(held, "card"));
    const state = [];
    if (obs.phase === "pass") state.push(obs.awaiting_pass.includes(seat) ? "choosing cards to pass" : "has passed");
    if (table.thinking === seat && obs.phase !== "pass") state.push("thinking…");
    else if (obs.phase === "play" && obs.to_move === seat && !shown) state.push(seat === 0 ? "your turn" : "to play");
    if (obs.phase === "moon" && obs.moon_taker === seat) state.push("choosing the moon's score");
    if (lastWinner === seat && !shown) state.push("took the last trick");
    const played = (shown ? shown.cards : trick).find((entry) => entry.seat === seat);
    const title = document.createElement("strong");
    title.className = "seat-name";
    title.textContent = name;
    const detail = document.createElement("span");
    detail.className = "seat-facts";
    detail.textContent = facts[0];
    // The rest, which a crowded table on a phone leaves to the seat's label.
    const more = document.createElement("span");
    more.className = "seat-more";
    more.textContent = facts.slice(1).join(" · ");
    item.append(title, detail, more);
    const badges = [];
    if (leader === seat) badges.push(["lead", "leads"]);
    if (winners.includes(seat)) badges.push(["winner", winners.length > 1 ? "shares the win" : "wins"]);
    for (const [kind, text] of badges) {
      const badge = document.createElement("span");
      badge.className = `badge badge-${kind}`;
      badge.textContent = text;
      item.append(badge);
    }
    if (state.length) {
      const extra = document.createElement("span");
      extra.className = "state";
      extra.textContent = state.join(" · ");
      item.append(extra);
    }
    const label = [name, ...facts];
    if (played) label.push(`played the ${cardName(played.card)}`);
    label.push(...badges.map(([, text]) => text), ...state);
    item.setAttribute("aria-label", label.join(", "));
    if (obs.phase === "play" && obs.to_move === seat && !shown) item.classList.add("to-move");
    if (table.thinking === seat) item.classList.add("thinking");
    if (leader === seat) item.classList.add("leader");
    if (winners.includes(seat)) item.classList.add("winner");
    seats.append(item);
  });
}

/** The last completed trick: of this hand, else of the last scored hand (public either way). */
function lastTrick(obs) {
  if (obs.tricks.length) return obs.tricks.at(-1);
  const last = table.game.lastHand;
  return last && last.tricks.length ? last.tricks.at(-1) : null;
}

function trickTaken(trick, list) {
  if (trick.winner === null) return "held over, every card of the suit led cancelled";
  const points = trick.points ? ` (${trick.points > 0 ? "+" : ""}${trick.points})` : "";
  return `${trick.winner === 0 ? "you" : list[trick.winner]} took it${points}`;
}

function renderTrick(obs, list) {
  const players = list.length;
  const trickList = $("trick");
  trickList.replaceChildren();
  const caption = $("trick-caption");
  const shown = table.shownTrick;
  let cards = [];
  if (shown) {
    cards = shown.trick.cards;
    const taken = trickTaken(shown.trick, list);
    caption.textContent = `${taken[0].toUpperCase()}${taken.slice(1)}.`;
  } else if (obs.phase === "play") {
    cards = obs.trick;
    const number = obs.tricks.length + 1;
    if (obs.trick.length) caption.textContent = `Trick ${number}, led by ${list[obs.trick[0].seat]}.`;
    else caption.textContent = `Trick ${number}: ${obs.to_move === 0 ? "you lead" : `${list[obs.to_move]} leads`}.`;
  } else if (obs.phase === "pass") {
    caption.textContent = "The cards are passed before the first trick.";
  } else {
    caption.textContent = "No trick in progress.";
  }
  const collecting = Boolean(shown?.collecting) && shown.trick.winner !== null;
  trickList.classList.toggle("collecting", collecting);
  for (const entry of cards) {
    // Each card lies in front of the seat that played it; a taken trick slides to its taker.
    const item = document.createElement("li");
    item.className = "played";
    item.dataset.seat = String(entry.seat);
    placeAt(item, towardSeat(entry.seat, players, TRICK_RING));
    if (collecting) placeAt(item, towardSeat(shown.trick.winner, players, SEAT_RING), "to-");
    const who = document.createElement("span");
    who.className = "visually-hidden";
    who.textContent = `${list[entry.seat]}: `;
    item.append(who, cardElement(entry.card));
    trickList.append(item);
  }
  renderEvents(obs, list);
  const last = lastTrick(obs);
  const lastLine = $("last-trick");
  const toggle = $("last-trick-toggle");
  const panel = $("last-trick-panel");
  const cardsList = $("last-trick-cards");
  cardsList.replaceChildren();
  toggle.disabled = !last;
  const open = Boolean(last) && view.lastTrickOpen;
  toggle.setAttribute("aria-expanded", String(open));
  toggle.textContent = open ? "Hide the last trick" : "Show the last trick";
  panel.hidden = !open;
  if (!last) {
    lastLine.textContent = "No trick taken yet.";
    return;
  }
  lastLine.textContent = `Last trick: ${trickTaken(last, list)}.`;
  for (const entry of last.cards) {
    const item = document.createElement("li");
    item.className = "played" + (entry.seat === last.winner ? " taker" : "");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = list[entry.seat];
    item.append(cardElement(entry.card), who);
    cardsList.append(item);
  }
}

/** The hand's turning points, drawn on the table: the first points played (hearts broken) and
 *  each taking of the card worth most (the queen of spades), from seat 0's observation. */
function tableEvents(obs, list) {
  const points = table.rules.card_points ?? {};
  const worth = (card) => Number(points[card] ?? 0);
  const values = Object.values(points).map((v) => Math.abs(Number(v)));
  const most = values.length ? Math.max(...values) : 0;
  // Worth naming only where it stands out: not where every point card counts the same.
  const standsOut = (card) => most > 0 && Math.abs(worth(card)) === most && values.some((v) => v !== most);
  const events = [];
  let broken = false;
  const tricks = obs.phase === "play" || obs.phase === "moon" ? [...obs.tricks] : [];
  const inPlay = obs.phase === "play" ? [{ cards: obs.trick, winner: undefined }] : [];
  for (const trick of [...tricks, ...inPlay]) {
    for (const entry of trick.cards) {
      if (!broken && worth(entry.card) !== 0) {
        broken = true;
        const who = entry.seat === 0 ? "you" : list[entry.seat];
        events.push(entry.card[1] === "H"
          ? { kind: "broken", text: `Hearts broken: ${who} played the ${cardName(entry.card)}.` }
          : { kind: "broken", text: `First points: ${who} played the ${cardName(entry.card)}.` });
      }
    }
    if (trick.winner === undefined || trick.winner === null) continue;
    for (const entry of trick.cards) {
      if (!standsOut(entry.card)) continue;
      const who = trick.winner === 0 ? "You" : list[trick.winner];
      events.push({
        kind: "taken",
        text: `${who} took the ${cardName(entry.card)} (${plural(worth(entry.card), "point")}).`,
      });
    }
  }
  return events;
}

function renderEvents(obs, list) {
  const events = tableEvents(obs, list);
  const element = $("events");
  const drawn = Array.from(element.children, (item) => item.textContent);
  // Only a new event is added, so that the live region says each once; a new hand starts over.
  const goesOn = drawn.length <= events.length && drawn.every((text, i) => text === events[i].text);
  if (!goesOn) element.replaceChildren();
  const fresh = table.eventsSeen !== null;
  const added = events.slice(goesOn ? drawn.length : 0);
  if (added.length) for (const item of element.children) item.classList.remove("fresh");
  for (const event of added) {
    const item = document.createElement("li");
    item.className = `event event-${event.kind}` + (fresh ? " fresh" : "");
    item.textContent = event.text;
    element.append(item);
  }
  table.eventsSeen = events.length;
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
      const { opponents, players } = table.settings;
      const replay = () => requestNewMatch(rules, opponents, BigInt(table.seed), "Replaying", players);
      actions.append(button("Replay this seed", replay));
    }
    actions.append(button("New match", () => requestNewMatch(rules, view.difficulty, randomSeed(), "New")));
    return;
  }
  if (obs.phase === "pass" && obs.awaiting_pass.includes(0)) {
    const { size, direction, to: [to] } = passPlan();
    const chosen = table.selection.length;
    text.textContent = `Choose ${plural(size, "card")} to pass ${direction} to ${seatName(to)}: ${chosen} of ${size} chosen.`;
    const confirm = button(`Pass ${plural(size, "card")} ${direction} to ${seatName(to)}`, () =>
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
      if (received.has(card) && obs.phase === "play" && obs.tricks.length === 0) {
        // Marked by a word as well as a colour, and read out with the card's name.
        element.classList.add("received");
        const tag = document.createElement("span");
        tag.className = "tag";
        tag.setAttribute("aria-hidden", "true");
        tag.textContent = "received";
        element.append(tag);
        element.querySelector(".name").textContent += ", received";
      }
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
    legend.textContent = "Marked “received”: the cards passed to you.";
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
  save();
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
  for (const id of MATCH_CONTROLS) $(id).disabled = disabled;
  for (const select of $("seat-players").querySelectorAll("select")) select.disabled = disabled;
  // A record made elsewhere may have a ruleset that is no preset: the list then keeps its choice.
  const isPreset = Array.from($("preset").options).some((option) => option.value === table.rules.name);
  if (document.activeElement !== $("preset") && isPreset) $("preset").value = table.rules.name;
  renderSeatPlayers();
  $("difficulty").value = view.difficulty;
  $("speed").value = view.speed;
  $("four-colour").checked = view.fourColour;
  // A record made elsewhere may have no seed: then there is no deal to replay.
  $("replay").disabled = disabled || !hasSeed();
  $("replay").textContent = hasSeed() ? `Replay seed ${table.seed}` : "No seed to replay";
}

// Controls --------------------------------------------------------------------------------------

const MATCH_CONTROLS = ["preset", "difficulty", "seed", "deal", "replay"];

/** One player select per computer seat of the preset chosen for the next match, shown when the
 *  level is "each seat" (ids seat-player-1, seat-player-2, …). */
function renderSeatPlayers() {
  const fieldset = $("seat-players");
  fieldset.hidden = view.difficulty !== EACH_SEAT;
  if (fieldset.dataset.preset === $("preset").value) return;
  fieldset.dataset.preset = $("preset").value;
  const count = reversis.preset($("preset").value).players;
  const list = names(count);
  for (const label of fieldset.querySelectorAll("label")) label.remove();
  for (let seat = 1; seat < count; seat++) {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.id = `seat-player-${seat}`;
    select.dataset.seat = String(seat);
    for (const [name, text] of Object.entries(PLAYERS)) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = text;
      select.append(option);
    }
    select.value = view.seatPlayers[seat];
    select.addEventListener("change", () => {
      view.seatPlayers[seat] = select.value;
      storeView();
    });
    label.append(`${list[seat]} `, select);
    fieldset.append(label);
  }
}

/** The settings apply at once and are kept under SETTINGS_KEY; the level and the seats' players
 *  apply from the next match dealt. */
function setUpSettings() {
  $("difficulty").value = view.difficulty;
  $("speed").value = view.speed;
  $("four-colour").checked = view.fourColour;
  renderSeatPlayers();
  $("preset").addEventListener("change", renderSeatPlayers);
  $("difficulty").addEventListener("change", () => {
    view.difficulty = $("difficulty").value;
    storeView();
    renderSeatPlayers();
  });
  $("speed").addEventListener("change", () => {
    view.speed = $("speed").value;
    storeView();
  });
  $("four-colour").addEventListener("change", () => {
    view.fourColour = $("four-colour").checked;
    storeView();
    document.body.classList.toggle("four-colour", view.fourColour);
  });
  $("last-trick-toggle").addEventListener("click", () => {
    view.lastTrickOpen = !view.lastTrickOpen;
    storeView();
    render();
  });
}

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
    requestNewMatch(reversis.preset($("preset").value).toJson(), view.difficulty, seed, how);
  });
  $("replay").addEventListener("click", () => {
    requestNewMatch(table.rules, table.settings.opponents, BigInt(table.seed), "Replaying", table.settings.players);
  });
  setUpSettings();
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
    table.selection = saved.selection;
    table.savedText = text;
    table.counter = saved.counter;
    // A read-only tab shows the other tab's play, not its story.
    table.historyToken = null;
    table.historyReady = true;
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
  if (!table.game) newMatch(reversis.preset(DEFAULT_PRESET).toJson(), view.difficulty, randomSeed(), "New");
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
    for (const id of MATCH_CONTROLS) $(id).disabled = true;
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
    newMatch(reversis.preset(DEFAULT_PRESET).toJson(), view.difficulty, randomSeed(), "New");
  } else {
    render();
    advance();
  }
  workerReady.catch(() => showBanner(`The computer players could not start: ${workerFailed}.`));
}

await start();
