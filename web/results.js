// Your results: the finished matches the table kept in this browser (keys reversis.save.finished.*),
// with what they add up to, their export as game records (REC-1) and the import of records.
//
// Every figure comes from the record, replayed by the core (Game.fromRecord); the page never
// restates a rule. An entry that cannot be read is listed as such and kept: only the person
// deletes anything, one entry or all, after a confirmation.
import {
  ASIDE_PREFIX,
  FINISHED_PREFIX,
  playersText,
  readSaveData,
  SAVE_FORMAT,
  SAVE_KEY,
  SAVE_VERSION,
  seatNames,
} from "./common.js";
import * as reversis from "./js/src/index.js";

// A file larger than this is refused before it is read: no record of a match comes near it.
const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

const $ = (id) => document.getElementById(id);

const page = {
  entries: [], // the readable finished matches, newest first
  unreadable: [], // {key, text, reason}
  pendingConfirm: null,
  returnFocus: null,
};

// Storage ---------------------------------------------------------------------------------------

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage switched off for this site
  }
}

function storedKeys(prefix) {
  const store = storage();
  if (!store) return [];
  const keys = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key !== null && key.startsWith(prefix)) keys.push(key);
  }
  return keys;
}

function timestamp() {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

/** A key of its own under `prefix` for something kept now, never one already in use. */
function freshKey(prefix) {
  const store = storage();
  const stamp = timestamp();
  let key = prefix + stamp;
  for (let n = 2; store.getItem(key) !== null; n++) key = `${prefix}${stamp}-${n}`;
  return key;
}

/** When the entry was kept, from its key (as the table writes it), or null. */
function keptAt(key) {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z(?:-\d+)?$/.exec(key.slice(FINISHED_PREFIX.length));
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s));
  return Number.isNaN(date.getTime()) ? null : date;
}

function keptText(entry) {
  return entry.when
    ? entry.when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
    : entry.key.slice(FINISHED_PREFIX.length);
}

// Reading a record --------------------------------------------------------------------------------

function joinNames(names) {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The seats that took every point card (or every trick) in each hand, in order: from the
 *  `hand` events (EVT-1) of the record replayed one action at a time. */
function moonTakers(record) {
  const game = new reversis.Game(reversis.Ruleset.fromJson(record.ruleset), {
    seed: record.seed,
    handNumber: record.start.hand_number,
    scores: record.start.scores,
  });
  const takers = [];
  try {
    for (const action of record.actions) {
      // A seeded game deals by itself; its record holds those deals only to be compared (REC-4),
      // which Game.fromRecord has done already.
      if (action.type === "deal" && record.seed !== null) continue;
      game.apply(action);
      for (const event of game.events) {
        if (event.type === "hand" && event.moon_taker !== null) takers.push(Number(event.moon_taker));
      }
    }
  } finally {
    game.free();
  }
  return takers;
}

/** What the page shows of a record's game (its JSON text canonical, as dumpRecord writes it). */
function facts(game) {
  const record = game.toRecord();
  const ruleset = game.ruleset;
  const isPreset = reversis.presetNames().includes(ruleset.name) && reversis.preset(ruleset.name).equals(ruleset);
  const handScores = game.handScores;
  return {
    recordText: new TextDecoder().decode(reversis.dumpRecord(record, "json")),
    rulesName: ruleset.name,
    rulesTitle: ruleset.title ?? ruleset.name,
    isPreset,
    seed: game.seed,
    players: ruleset.players,
    totals: Array.from(game.scores, (value) => String(value)),
    winners: Array.from(game.winners),
    hands: handScores.length,
    seat0Points: handScores.reduce((sum, scores) => sum + Number(scores[0]), 0),
    moonTakers: moonTakers(record),
  };
}

/** A game record's bytes (REC-1, JSON or MessagePack) replayed: the game, or throws naming why. */
function gameFromBytes(bytes) {
  let record;
  try {
    record = reversis.loadRecord(bytes);
  } catch (error) {
    throw new Error(`it is not a game record: ${error.message}`);
  }
  try {
    return reversis.Game.fromRecord(record);
  } catch (error) {
    throw new Error(`its game record does not replay: ${error.message}`);
  }
}

/** A finished-match entry of the table: {facts, settings, imported}, or throws naming why not. */
function readEntry(text) {
  const data = readSaveData(text, reversis.parseJson);
  const game = gameFromBytes(new TextEncoder().encode(data.record));
  try {
    if (game.phase !== "over") throw new Error(`its match is not over (${unfinishedText(game)})`);
    return { facts: facts(game), settings: data.settings ?? null, imported: data.imported === true };
  } finally {
    game.free();
  }
}

function unfinishedText(game) {
  return `hand ${Number(game.handNumber) + 1}, phase ${game.phase}`;
}

// What each stored text reads as, so that a page drawn again replays only what is new.
const readings = new Map();

function reading(text) {
  if (!readings.has(text)) {
    try {
      readings.set(text, { entry: readEntry(text) });
    } catch (error) {
      readings.set(text, { reason: error.message });
    }
  }
  return readings.get(text);
}

function load() {
  const store = storage();
  page.entries = [];
  page.unreadable = [];
  if (!store) return;
  const seen = new Set();
  for (const key of storedKeys(FINISHED_PREFIX).sort().reverse()) {
    const text = store.getItem(key);
    if (text === null) continue;
    seen.add(text);
    const read = reading(text);
    if (read.entry) page.entries.push({ key, text, when: keptAt(key), ...read.entry });
    else page.unreadable.push({ key, text, reason: read.reason });
  }
  for (const text of readings.keys()) if (!seen.has(text)) readings.delete(text);
}

// Drawing -------------------------------------------------------------------------------------------

function opponentsText(entry) {
  const names = seatNames(entry.facts.players);
  const text = playersText(entry.settings, (seat) => names[seat]);
  if (text) return text;
  return entry.imported ? "not recorded (imported)" : "not recorded";
}

function rulesText(f) {
  return f.isPreset ? `${f.rulesTitle} (preset ${f.rulesName})` : `${f.rulesTitle} (ruleset ${f.rulesName})`;
}

function winnersText(f) {
  const names = seatNames(f.players);
  const list = joinNames(f.winners.map((seat) => names[seat]));
  if (f.winners.length === 1 && f.winners[0] === 0) return "You";
  return list;
}

function cell(tag, content, attributes = {}) {
  const element = document.createElement(tag);
  if (typeof content === "string") element.textContent = content;
  else if (content) element.append(content);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

function button(label, accessibleName, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (accessibleName) element.setAttribute("aria-label", accessibleName);
  element.addEventListener("click", onClick);
  return element;
}

function renderMatches() {
  const body = $("matches-body");
  body.replaceChildren();
  for (const entry of page.entries) {
    const f = entry.facts;
    const row = document.createElement("tr");
    row.dataset.key = entry.key;
    const when = keptText(entry);
    const time = document.createElement("time");
    time.textContent = when;
    if (entry.when) time.dateTime = entry.when.toISOString();
    row.append(cell("th", time, { scope: "row" }));
    const seed = f.seed === null ? "no seed" : `seed ${f.seed}`;
    row.append(cell("td", `${rulesText(f)}, ${seed}`, { "data-label": "Rules", class: "rules" }));
    row.append(cell("td", opponentsText(entry), { "data-label": "Opponents", class: "opponents" }));
    const names = seatNames(f.players);
    const totals = document.createElement("ul");
    totals.className = "totals";
    f.totals.forEach((total, seat) => {
      const item = cell("li", `${names[seat]} ${total}`);
      item.dataset.seat = String(seat);
      if (f.winners.includes(seat)) item.className = "winner";
      totals.append(item);
    });
    row.append(cell("td", totals, { "data-label": "Totals", class: "totals-cell" }));
    row.append(cell("td", winnersText(f), { "data-label": "Winners", class: "winners" }));
    const actions = document.createElement("div");
    actions.className = "row-actions";
    actions.append(
      button("Export", `Export the match kept ${when}`, () => exportEntries([entry])),
      button("Delete…", `Delete the match kept ${when}`, (event) =>
        askConfirm(
          `Delete the match kept ${when} (${f.rulesTitle}, winners: ${winnersText(f)}) from this browser? ` +
            "It cannot be undone; export it first to keep a copy.",
          () => deleteEntries([entry], `Deleted the match kept ${when}.`),
          event.currentTarget,
        ),
      ),
    );
    row.append(cell("td", actions, { "data-label": "Actions" }));
    body.append(row);
  }
  $("empty").hidden = page.entries.length > 0;
  $("export-all").disabled = page.entries.length === 0;
  $("delete-all").disabled = page.entries.length === 0;
}

function renderStats() {
  const entries = page.entries.map((entry) => entry.facts);
  const hands = entries.reduce((sum, f) => sum + f.hands, 0);
  const points = entries.reduce((sum, f) => sum + f.seat0Points, 0);
  const stats = [
    ["matches", "Matches", String(entries.length)],
    ["wins", "Wins (you alone on the lowest total)", String(entries.filter((f) => f.winners.length === 1 && f.winners[0] === 0).length)],
    ["shared", "Shared wins", String(entries.filter((f) => f.winners.length > 1 && f.winners.includes(0)).length)],
    ["average", "Your average points per hand", hands === 0 ? "none yet" : (points / hands).toFixed(2)],
    ["hands", "Hands played", String(hands)],
    ["moons", "Moons you shot", String(entries.reduce((sum, f) => sum + f.moonTakers.filter((seat) => seat === 0).length, 0))],
  ];
  const list = $("stats");
  list.replaceChildren();
  for (const [id, label, value] of stats) {
    const item = document.createElement("li");
    item.append(cell("span", label, { class: "label" }), " ", cell("strong", value, { id: `stat-${id}` }));
    list.append(item);
  }
}

function renderUnreadable() {
  const list = $("unreadable");
  list.replaceChildren();
  for (const item of page.unreadable) {
    const entry = document.createElement("li");
    entry.dataset.key = item.key;
    const text = cell("p", "");
    text.append(cell("code", item.key), `: ${item.reason}.`);
    const actions = document.createElement("div");
    actions.className = "row-actions";
    actions.append(
      button("Download as is", `Download the unreadable entry ${item.key} as it is`, () =>
        download(new TextEncoder().encode(item.text), `${item.key}.txt`, "text/plain"),
      ),
      button("Delete…", `Delete the unreadable entry ${item.key}`, (event) =>
        askConfirm(
          `Delete the unreadable entry ${item.key} from this browser? It cannot be undone.`,
          () => deleteEntries([item], `Deleted the unreadable entry ${item.key}.`),
          event.currentTarget,
        ),
      ),
    );
    entry.append(text, actions);
    list.append(entry);
  }
  $("unreadable-section").hidden = page.unreadable.length === 0;
}

function renderCurrent() {
  const note = $("current");
  note.hidden = true;
  const text = storage()?.getItem(SAVE_KEY);
  if (!text) return;
  try {
    readEntry(text);
  } catch {
    return; // a match in progress (or one the table will move aside itself): not a result yet
  }
  note.textContent = "The match on the table is over: it is listed here once you deal the next match there.";
  note.hidden = false;
}

function render(message) {
  const store = storage();
  if (!store) {
    $("status").textContent = "This browser does not let this page read its storage, so no result can be shown.";
    $("status").classList.add("error");
    document.body.dataset.ready = "true";
    return;
  }
  load();
  renderMatches();
  renderStats();
  renderUnreadable();
  renderCurrent();
  const count = page.entries.length;
  const aside = storedKeys(ASIDE_PREFIX).length;
  let status = `${count} finished ${count === 1 ? "match" : "matches"} kept in this browser`;
  if (page.unreadable.length) status += `, and ${page.unreadable.length} ${page.unreadable.length === 1 ? "entry" : "entries"} that cannot be read`;
  status += ".";
  if (aside) {
    status += ` ${aside} unreadable ${aside === 1 ? "save" : "saves"} of the table ${aside === 1 ? "is" : "are"} kept under ${ASIDE_PREFIX}* (developer tools, Local Storage).`;
  }
  $("status").textContent = message ? `${message} ${status}` : status;
  $("status").classList.remove("error");
  document.body.dataset.ready = "true";
}

// Export ----------------------------------------------------------------------------------------------

function download(bytes, name, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function exportName(entry) {
  const stamp = entry.key.slice(FINISHED_PREFIX.length).replace(/[^0-9A-Za-z-]/g, "");
  return `reversis-${entry.facts.rulesName.replace(/[^0-9A-Za-z-]/g, "")}-${stamp}.json`;
}

/** One file per match, each the match's record as dumpRecord writes it: a record is one JSON value
 *  (REC-1, REC-3), so each file reads back with loadRecord / reversis.load_record as it is. */
function exportEntries(entries) {
  entries.forEach((entry, index) => {
    // Spaced out: browsers drop downloads started in the same instant.
    setTimeout(
      () => download(new TextEncoder().encode(entry.facts.recordText), exportName(entry), "application/json"),
      index * 250,
    );
  });
  $("status").textContent = `Exported ${entries.length} ${entries.length === 1 ? "record" : "records"}, one file each.`;
}

// Deleting ----------------------------------------------------------------------------------------

function askConfirm(text, action, returnFocus) {
  $("confirm-text").textContent = text;
  page.pendingConfirm = action;
  page.returnFocus = returnFocus;
  const dialog = $("confirm");
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
  $("confirm-no").focus();
}

function closeConfirm() {
  const dialog = $("confirm");
  if (dialog.open) {
    if (typeof dialog.close === "function") dialog.close();
    else dialog.removeAttribute("open");
  }
  page.pendingConfirm = null;
}

/** Remove each entry whose stored text is still what was shown (another tab may have changed it). */
function deleteEntries(entries, done) {
  const store = storage();
  let kept = 0;
  for (const entry of entries) {
    if (store.getItem(entry.key) === entry.text) store.removeItem(entry.key);
    else kept += 1;
  }
  const note = kept ? ` ${kept} changed in another tab meanwhile and ${kept === 1 ? "was" : "were"} kept.` : "";
  render(done + note);
  $("status").focus();
}

// Import ------------------------------------------------------------------------------------------

/** The records a file holds: one record (JSON or MessagePack), or a JSON array of them. */
function recordsOf(bytes) {
  let first = 0;
  while (first < bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[first])) first++;
  if (bytes[first] !== 0x5b /* [ */) return [bytes];
  let list;
  try {
    list = reversis.parseJson(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (error) {
    throw new Error(`it is not JSON (${error.message})`);
  }
  if (list.length === 0) throw new Error("it is an empty array: no record in it");
  return list.map((record) => new TextEncoder().encode(reversis.stringifyJson(record)));
}

/** Add one record's bytes as a finished match; what happened, as a sentence. */
function importRecord(bytes) {
  const game = gameFromBytes(bytes);
  let f;
  try {
    if (game.phase !== "over") {
      throw new Error(`its match is not over (${unfinishedText(game)}): only finished matches are results; nothing was added`);
    }
    f = facts(game);
  } finally {
    game.free();
  }
  const twin = page.entries.find((entry) => entry.facts.recordText === f.recordText);
  if (twin) return { added: false, text: `already kept (the match kept ${keptText(twin)}); not added again` };
  const key = freshKey(FINISHED_PREFIX);
  const text = reversis.stringifyJson({ format: SAVE_FORMAT, version: SAVE_VERSION, counter: 0, imported: true, record: f.recordText });
  try {
    storage().setItem(key, text);
  } catch (error) {
    throw new Error(`this browser has no room to keep it (${error.message}); nothing was added`);
  }
  page.entries.push({ key, text, when: keptAt(key), facts: f, settings: null, imported: true });
  return { added: true, text: `added: ${f.rulesTitle}, winners ${winnersText(f)}` };
}

async function importFiles(files) {
  const lines = [];
  let added = 0;
  let failed = 0;
  for (const file of files) {
    if (file.size > MAX_IMPORT_BYTES) {
      lines.push({ ok: false, text: `${file.name}: refused: it is ${file.size} bytes, larger than any record of a match (${MAX_IMPORT_BYTES} bytes at most).` });
      failed += 1;
      continue;
    }
    let records;
    try {
      records = recordsOf(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      lines.push({ ok: false, text: `${file.name}: refused: ${error.message}.` });
      failed += 1;
      continue;
    }
    records.forEach((bytes, index) => {
      const where = records.length > 1 ? `${file.name}, record ${index + 1}` : file.name;
      try {
        const result = importRecord(bytes);
        if (result.added) added += 1;
        lines.push({ ok: true, text: `${where}: ${result.text}.` });
      } catch (error) {
        failed += 1;
        lines.push({ ok: false, text: `${where}: refused: ${error.message}.` });
      }
    });
  }
  const result = $("import-result");
  result.replaceChildren();
  const summary = cell("p", `Imported ${added} ${added === 1 ? "match" : "matches"}${failed ? `; ${failed} refused` : ""}.`);
  const list = document.createElement("ul");
  for (const line of lines) list.append(cell("li", line.text, { class: line.ok ? "ok" : "error" }));
  result.append(summary, list);
  render();
}

// Starting ----------------------------------------------------------------------------------------

function setUp() {
  $("export-all").addEventListener("click", () => exportEntries(page.entries));
  $("delete-all").addEventListener("click", (event) => {
    const count = page.entries.length;
    askConfirm(
      `Delete all ${count} finished ${count === 1 ? "match" : "matches"} listed here from this browser? ` +
        "It cannot be undone; export them first to keep a copy. Entries that cannot be read stay until you delete them one by one.",
      () => deleteEntries([...page.entries], `Deleted ${count} ${count === 1 ? "match" : "matches"}.`),
      event.currentTarget,
    );
  });
  $("confirm-yes").addEventListener("click", () => {
    const action = page.pendingConfirm;
    closeConfirm();
    if (action) action();
  });
  $("confirm-no").addEventListener("click", () => {
    closeConfirm();
    if (page.returnFocus?.isConnected) page.returnFocus.focus();
  });
  $("confirm").addEventListener("cancel", () => {
    page.pendingConfirm = null;
  });
  const input = $("import");
  input.addEventListener("change", async () => {
    const files = Array.from(input.files ?? []);
    input.value = "";
    if (files.length) await importFiles(files);
  });
  // Another tab of the table keeps a match, or deletes one here: show what is stored now.
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.startsWith(SAVE_KEY)) {
      if (!$("confirm").open) render();
    }
  });
}

$("status").setAttribute("tabindex", "-1");
setUp();
render();
